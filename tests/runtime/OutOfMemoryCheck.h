#pragma once
// The out-of-memory check, written once for any device (host:0 in runtime_tests;
// vulkan:0, cuda:0, hip:0 in runtime_multi_device_tests where the machine has them).
// Uses doctest's CHECK/REQUIRE, so it is called from inside a TEST_CASE.

#include "trident/Trident.h"

namespace trident::test {

// A 1 PiB allocation on `device` throws Error(OutOfMemory) naming the device, the
// size and how much is free; so does a size whose bytes overflow 64 bits; and the
// device allocates and copies normally afterwards.
void checkOutOfMemory(const Device &device);

} // namespace trident::test
