#pragma once
// The Vulkan plugin's binary: a kernel's SPIR-V and the interface a launch needs,
// self-contained so that the runtime can cache it on disk.
//
//   u32 magic "TVK1", u32 format version
//   u32 numThreads, subgroupSize, sharedBytes, pushConstantBytes, argsInBuffer, argBufferBytes
//   u64 requiredFeatures
//   u32 name length, name bytes (padded to 4)
//   u32 argument count, then per argument: u32 kind, offset, size
//   u32 SPIR-V word count, the words
// All little-endian.

#include "trident/backends/spirv/CodeGen.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace trident::vulkan {

std::vector<uint8_t> encodeBinary(const spirv::SpirvKernel &kernel);
// The kernel in `data`, or nullopt with `error` set when it is not a valid binary.
std::optional<spirv::SpirvKernel> decodeBinary(const void *data, size_t size, std::string &error);

} // namespace trident::vulkan
