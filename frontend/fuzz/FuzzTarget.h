#pragma once
// The one entry the fuzzer and the corpus replay share: runs the frontend on
// arbitrary bytes (listKernels, then compileKernel on each kernel found with a
// signature derived from the input), which must never crash, hang or blow up.

#include <cstddef>
#include <cstdint>

namespace trident::fuzz {

void runFrontendOnInput(const uint8_t *data, size_t size);

} // namespace trident::fuzz
