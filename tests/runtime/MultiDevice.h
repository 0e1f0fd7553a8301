#pragma once
// Checks of several devices used together, written once for any list of devices
// (host devices, host + vulkan, cuda + cuda, cuda + vulkan). Each uses doctest's
// CHECK/REQUIRE, so it is called from inside a TEST_CASE.

#include "trident/Trident.h"

#include <vector>

namespace trident::test {

// Every ordered pair of devices: a ranged copy (sync and async) into the middle
// of a buffer lands exactly there and leaves the rest untouched; the route is
// SameDevice for a device with itself, Host across plugins, and as `samePluginRoute`
// says for two devices of one plugin (nullptr: whatever the plugin answers).
void checkCopiesBetweenAll(const std::vector<Device> &devices, const CopyRoute *samePluginRoute);

// vector_add.py split over `devices` from one thread: inputs on the first device,
// shares copied out, one launch per device on its own stream, gathered back on
// the first device through Stream::wait on each device's event; float64 reference.
void checkSplitFromOneThread(const std::vector<Device> &devices, size_t n, unsigned seed);

// The same split with one thread per device, `rounds` times with fresh inputs.
void checkSplitFromThreads(const std::vector<Device> &devices, size_t n, unsigned seed, int rounds);

// For every ordered pair (a, b): a kernel on a stream of a writes a buffer, an event
// is recorded after it, a stream of b waits for the event and copies the buffer:
// b must see the kernel's result, never older contents.
void checkWaitsAcrossDevices(const std::vector<Device> &devices, size_t n, unsigned seed);

// The path of samples/vector_add.py in the source tree.
std::string vectorAddSource();

} // namespace trident::test
