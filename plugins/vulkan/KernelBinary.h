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

// The kernel's SPIR-V made independent of the subgroup size it was lowered for
// (`subgroupSize`), when all that depends on it are the lane and warp ids the SPIR-V
// backend reads from SubgroupLocalInvocationId and SubgroupId: those become
// LocalInvocationIndex % subgroupSize and / subgroupSize, the same bijection of
// invocations to threads, so the kernel runs on subgroups of any size. nullopt with
// `why` when anything else depends on subgroups: their operations (any subgroup
// capability but the basic GroupNonUniform, OpGroupNonUniformElect), other subgroup
// built-ins, barriers at subgroup scope (SubgroupFree.cpp).
std::optional<std::vector<uint32_t>> withoutSubgroupIds(const std::vector<uint32_t> &words, uint32_t subgroupSize,
                                                        std::string &why);

} // namespace trident::vulkan
