#include "trident/backends/spirv/Target.h"

#include <cstdlib>
#include <cstring>
#include <tuple>
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
      {kCooperativeMatrix, "cooperativeMatrix (VK_KHR_cooperative_matrix)"},
      {kVulkanMemoryModel, "vulkanMemoryModel"},
      {kShaderBFloat16Type, "shaderBFloat16Type (VK_KHR_shader_bfloat16)"},
      {kShaderBFloat16CooperativeMatrix, "shaderBFloat16CooperativeMatrix (VK_KHR_shader_bfloat16)"},
      {kCoopMatrixNvidiaLayouts, "cooperative-matrix components where NVIDIA's driver keeps them (the plugin's "
                                 "probe did not confirm them on this device)"},
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

std::optional<DeviceInfo> profileDevice(std::string_view target) {
  if (target == "vulkan")
    return genericDevice();
  const uint64_t common = kShaderInt8 | kShaderInt16 | kShaderInt64 | kShaderFloat16 | kShaderFloat64 |
                          kStorageBuffer8BitAccess | kStorageBuffer16BitAccess | kShaderBufferInt64Atomics |
                          kShaderBufferFloat32AtomicAdd | kSubgroupShuffle | kSubgroupShuffleRelative |
                          kSubgroupSizeControl | kComputeFullSubgroups | kSignedZeroInfNanPreserveFloat16 |
                          kSignedZeroInfNanPreserveFloat32 | kSignedZeroInfNanPreserveFloat64 |
                          kRoundingModeRTEFloat16 | kRoundingModeRTEFloat32 | kRoundingModeRTEFloat64;
  DeviceInfo d;
  d.name = std::string(target);
  if (target == "vulkan:lavapipe") {
    d.subgroupSize = 8;
    d.sharedMemoryBytes = 32768;
    d.features = common | kVulkanMemoryModel; // no subnormal preservation, no explicit workgroup layout
    return d;
  }
  if (target == "vulkan:nvidia") {
    d.subgroupSize = 32;
    d.sharedMemoryBytes = 49152;
    d.pushConstantBytes = 256;
    d.maxGrid[0] = 2147483647;
    // No kDenormPreserveFloat32: the H200 on driver 580 does not report
    // shaderDenormPreserveFloat32 (backend_vulkan_run_tests compares this profile with it).
    d.features = common | kShaderBufferFloat64AtomicAdd | kDenormPreserveFloat16 | kDenormPreserveFloat64 |
                 kWorkgroupMemoryExplicitLayout | kWorkgroupMemoryExplicitLayout8BitAccess |
                 kWorkgroupMemoryExplicitLayout16BitAccess | kCooperativeMatrix | kVulkanMemoryModel |
                 kShaderBFloat16Type | kShaderBFloat16CooperativeMatrix | kCoopMatrixNvidiaLayouts;
    // What the driver lists for Ampere and later (f16 products, 8-bit integers; the H200
    // on driver 580 also 16x16x16 bf16 into f32, with VK_KHR_shader_bfloat16).
    const Type f16 = Type::f16(), f32 = Type::f32(), i8 = Type::i8(), i32 = Type::i32(), bf16 = Type::bf16();
    for (auto [m, n, k] : {std::tuple{16, 16, 16}, {16, 8, 16}, {16, 8, 8}}) {
      d.coopShapes.push_back({m, n, k, f16, f16, f16, f16, {}});
      d.coopShapes.push_back({m, n, k, f16, f16, f32, f32, {}});
    }
    for (auto [m, n, k] : {std::tuple{16, 16, 32}, {16, 8, 32}})
      d.coopShapes.push_back({m, n, k, i8, i8, i32, i32, {}});
    d.coopShapes.push_back({16, 16, 16, bf16, bf16, f32, f32, {}});
    for (CoopMatrixShape &s : d.coopShapes)
      s.layouts = nvidiaCoopLayouts(s, d.subgroupSize);
    return d;
  }
  return std::nullopt;
}

std::optional<CoopLayouts> nvidiaCoopLayouts(const CoopMatrixShape &s, unsigned subgroupSize) {
  if (subgroupSize != 32 || s.m != 16 || s.n != 16 || s.k != 16 || s.aType != Type::f16() ||
      s.bType != Type::f16() || (s.cType != Type::f16() && s.cType != Type::f32()) || s.resultType != s.cType)
    return std::nullopt;
  CoopLayouts l;
  // Measured on the H200 (driver 580, .dev/coopprobe of 2026-12-03): the accumulator, f32
  // or f16, and A (whose (row, col) is (m, k)): component i of lane l holds row
  // (l >> 2) + 8 (i >> 2), col 2 (l & 3) + (i & 1) + 8 ((i >> 1) & 1); the same for tiles
  // loaded column-major (the layout belongs to the type).
  l.acc.componentBits = {{0, 1}, {0, 8}, {8, 0}};
  l.acc.laneBits = {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}};
  l.a = l.acc;
  // B (k x n): k = 2 (l & 3) + (i & 1) + 8 ((i >> 1) & 1), n = (l >> 2) + 8 (i >> 2).
  l.b.componentBits = {{1, 0}, {8, 0}, {0, 8}};
  l.b.laneBits = {{2, 0}, {4, 0}, {0, 1}, {0, 2}, {0, 4}};
  return l;
}

namespace {

// TRIDENT_VULKAN_PREFETCH = auto (the default), late, early or off;
// TRIDENT_VULKAN_COOP_ORDER = lazyb (the default) or eager; TRIDENT_VULKAN_COOP_SHARED =
// auto (the default), padded or tiled; TRIDENT_VULKAN_SUBGROUP_BARRIERS,
// TRIDENT_VULKAN_SPREAD_SHARED and TRIDENT_VULKAN_COOP_LAYOUTS = on (the default) or off (docs/vulkan.md, measurement knobs).
CoopPrefetch coopPrefetchFromEnv() {
  const char *v = std::getenv("TRIDENT_VULKAN_PREFETCH");
  if (v && !std::strcmp(v, "late"))
    return CoopPrefetch::Late;
  if (v && !std::strcmp(v, "early"))
    return CoopPrefetch::Early;
  if (v && !std::strcmp(v, "off"))
    return CoopPrefetch::Off;
  return CoopPrefetch::Auto;
}

// An on/off knob that is on unless set to "off".
bool knobOn(const char *name) {
  const char *v = std::getenv(name);
  return !v || std::strcmp(v, "off") != 0;
}

} // namespace

bool coopLayoutsWanted() { return knobOn("TRIDENT_VULKAN_COOP_LAYOUTS"); }

TargetDesc targetDesc(const DeviceInfo &device) {
  TargetDesc t;
  t.name = device.name;
  t.warpSize = device.subgroupSize;
  t.maxThreadsPerProgram = device.maxThreadsPerProgram;
  t.sharedMemoryBytes = device.sharedMemoryBytes;
  t.maxSharedMemoryBytes = device.sharedMemoryBytes;
  t.maxVectorBytes = 16; // one uvec4 per access
  // Cooperative matrices load and store tiles of shared memory at their offsets: the
  // Vulkan memory model and explicit workgroup layouts are needed besides them.
  const uint64_t coop = kCooperativeMatrix | kVulkanMemoryModel | kWorkgroupMemoryExplicitLayout |
                        kWorkgroupMemoryExplicitLayout16BitAccess | kWorkgroupMemoryExplicitLayout8BitAccess;
  // bf16 shapes need both bfloat16 features (the type, and it in cooperative matrices);
  // without them bf16 dots keep multiply-adds.
  const uint64_t bf16 = kShaderBFloat16Type | kShaderBFloat16CooperativeMatrix;
  if ((device.features & coop) == coop && device.subgroupSize >= 16)
    for (const CoopMatrixShape &s : device.coopShapes)
      if ((s.aType != Type::bf16() && s.bType != Type::bf16()) || (device.features & bf16) == bf16)
        t.coopMatrices.push_back(s);
  if (!(device.features & kCoopMatrixNvidiaLayouts) || !coopLayoutsWanted())
    for (CoopMatrixShape &s : t.coopMatrices)
      s.layouts.reset();
  t.coopPrefetch = coopPrefetchFromEnv();
  const char *order = std::getenv("TRIDENT_VULKAN_COOP_ORDER");
  // B loaded just before its multiply-adds by default: 0.484 against 2.497 ms for the
  // 128x128x32 matmul in one H200 sweep, though the same module later took 0.47 to 1.8 ms
  // from one run to the next (docs/vulkan.md): not a settled choice.
  t.coopLazyB = !order || std::strcmp(order, "eager") != 0;
  const char *shared = std::getenv("TRIDENT_VULKAN_COOP_SHARED");
  if (shared && !std::strcmp(shared, "padded"))
    t.coopShared = CoopSharedLayout::Padded;
  else if (shared && !std::strcmp(shared, "tiled"))
    t.coopShared = CoopSharedLayout::Tiled;
  t.subgroupBarriers = knobOn("TRIDENT_VULKAN_SUBGROUP_BARRIERS");
  t.treeReductions = knobOn("TRIDENT_VULKAN_REDUCE_TREE");
  // Only where cooperative matrices take the loops' dots (their loops hold the most
  // conversions): the plain lowering keeps its smallest footprint.
  t.spreadSharedMemory = !t.coopMatrices.empty() && knobOn("TRIDENT_VULKAN_SPREAD_SHARED");
  return t;
}

} // namespace trident::spirv
