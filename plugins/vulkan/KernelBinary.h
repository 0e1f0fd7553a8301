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

// What in the SPIR-V `words` makes a kernel depend on the subgroup size it was lowered
// for ("subgroup operations", "a subgroup-scope barrier", ...), or "" when nothing
// does: no subgroup capability (GroupNonUniform*, Groups, cooperative matrices, the
// KHR ballot and vote), no subgroup built-in and no barrier at subgroup scope. Such a
// kernel divides its work by invocation index alone and runs on subgroups of any size.
std::string subgroupSizeDependence(const std::vector<uint32_t> &words);

} // namespace trident::vulkan
