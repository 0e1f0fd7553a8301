#include "trident/backends/spirv/Target.h"

#include <utility>

namespace trident::spirv {

std::string featureNames(uint64_t features) {
  static const std::pair<Feature, const char *> names[] = {
      {kShaderInt8, "shaderInt8"},
      {kShaderInt16, "shaderInt16"},
      {kShaderInt64, "shaderInt64"},
      {kShaderFloat16, "shaderFloat16"},
      {kShaderFloat64, "shaderFloat64"},
      {kStorageBuffer8BitAccess, "storageBuffer8BitAccess"},
      {kStorageBuffer16BitAccess, "storageBuffer16BitAccess"},
      {kShaderBufferInt64Atomics, "shaderBufferInt64Atomics"},
      {kShaderBufferFloat32AtomicAdd, "shaderBufferFloat32AtomicAdd"},
      {kShaderBufferFloat64AtomicAdd, "shaderBufferFloat64AtomicAdd"},
      {kSubgroupShuffle, "subgroup shuffles in compute shaders"},
      {kSubgroupShuffleRelative, "relative subgroup shuffles in compute shaders"},
      {kSubgroupSizeControl, "subgroupSizeControl"},
      {kComputeFullSubgroups, "computeFullSubgroups"},
      {kSignedZeroInfNanPreserveFloat16, "shaderSignedZeroInfNanPreserveFloat16"},
      {kSignedZeroInfNanPreserveFloat32, "shaderSignedZeroInfNanPreserveFloat32"},
      {kSignedZeroInfNanPreserveFloat64, "shaderSignedZeroInfNanPreserveFloat64"},
      {kRoundingModeRTEFloat16, "shaderRoundingModeRTEFloat16"},
      {kRoundingModeRTEFloat32, "shaderRoundingModeRTEFloat32"},
      {kRoundingModeRTEFloat64, "shaderRoundingModeRTEFloat64"},
      {kDenormPreserveFloat16, "shaderDenormPreserveFloat16"},
      {kDenormPreserveFloat32, "shaderDenormPreserveFloat32"},
      {kDenormPreserveFloat64, "shaderDenormPreserveFloat64"},
      {kWorkgroupMemoryExplicitLayout, "workgroupMemoryExplicitLayout"},
      {kWorkgroupMemoryExplicitLayout8BitAccess, "workgroupMemoryExplicitLayout8BitAccess"},
      {kWorkgroupMemoryExplicitLayout16BitAccess, "workgroupMemoryExplicitLayout16BitAccess"},
  };
  std::string out;
  for (const auto &[bit, name] : names)
    if (features & bit)
      out += (out.empty() ? "" : ", ") + std::string(name);
  return out;
}

DeviceInfo genericDevice() {
  DeviceInfo d;
  d.features = kShaderInt8 | kShaderInt16 | kShaderInt64 | kShaderFloat16 | kShaderFloat64 |
               kStorageBuffer8BitAccess | kStorageBuffer16BitAccess | kShaderBufferInt64Atomics | kSubgroupShuffle |
               kSubgroupShuffleRelative | kSubgroupSizeControl | kComputeFullSubgroups;
  return d;
}

TargetDesc targetDesc(const DeviceInfo &device) {
  TargetDesc t;
  t.name = device.name;
  t.warpSize = device.subgroupSize;
  t.maxThreadsPerProgram = device.maxThreadsPerProgram;
  t.sharedMemoryBytes = device.sharedMemoryBytes;
  t.maxSharedMemoryBytes = device.sharedMemoryBytes;
  t.maxVectorBytes = 16; // one uvec4 per access
  return t;
}

} // namespace trident::spirv
