#pragma once
// What the SPIR-V backend knows about a Vulkan device: limits and optional
// features, as the Vulkan plugin reads them from the driver (or the generic
// "vulkan" target, which assumes only what every Vulkan 1.2 compute device with
// buffer device addresses has). targetDesc() turns it into the SIMT lowering's
// TargetDesc.
//
//   spirv::DeviceInfo lavapipe = ...;            // subgroupSize 8, features ...
//   TargetDesc t = spirv::targetDesc(lavapipe);   // warpSize 8, ...

#include "trident/simt/TargetDesc.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace trident::spirv {

// Optional device features a kernel may need (bits of DeviceInfo::features and
// of KernelInterface::requiredFeatures), named after their Vulkan feature fields.
enum Feature : uint64_t {
  kShaderInt8 = 1u << 0,
  kShaderInt16 = 1u << 1,
  kShaderInt64 = 1u << 2,
  kShaderFloat16 = 1u << 3,
  kShaderFloat64 = 1u << 4,
  kStorageBuffer8BitAccess = 1u << 5,
  kStorageBuffer16BitAccess = 1u << 6,
  kShaderBufferInt64Atomics = 1u << 7,
  kShaderBufferFloat32AtomicAdd = 1u << 8, // VK_EXT_shader_atomic_float
  kShaderBufferFloat64AtomicAdd = 1u << 9,
  kSubgroupShuffle = 1u << 10, // VK_SUBGROUP_FEATURE_SHUFFLE_BIT in compute
  kSubgroupShuffleRelative = 1u << 11,
  kSubgroupSizeControl = 1u << 12, // can require an exact subgroup size
  kComputeFullSubgroups = 1u << 13,
  // Float controls (Vulkan 1.2 properties): keep -0, inf and NaN exactly; round to nearest even.
  kSignedZeroInfNanPreserveFloat16 = 1u << 14,
  kSignedZeroInfNanPreserveFloat32 = 1u << 15,
  kSignedZeroInfNanPreserveFloat64 = 1u << 16,
  kRoundingModeRTEFloat16 = 1u << 17,
  kRoundingModeRTEFloat32 = 1u << 18,
  kRoundingModeRTEFloat64 = 1u << 19,
  kDenormPreserveFloat16 = 1u << 20, // keep subnormals (Trident's float semantics)
  kDenormPreserveFloat32 = 1u << 21,
  kDenormPreserveFloat64 = 1u << 22,
  // VK_KHR_workgroup_memory_explicit_layout: shared allocations placed at their
  // offsets in one block, so that allocations with disjoint lifetimes share bytes.
  kWorkgroupMemoryExplicitLayout = 1u << 23,
  kWorkgroupMemoryExplicitLayout8BitAccess = 1u << 24,
  kWorkgroupMemoryExplicitLayout16BitAccess = 1u << 25,
  // VK_KHR_cooperative_matrix (DeviceInfo::coopShapes lists what it multiplies), which
  // needs the Vulkan memory model.
  kCooperativeMatrix = 1u << 26,
  kVulkanMemoryModel = 1u << 27,
  // VK_KHR_shader_bfloat16: the bfloat16 type in shaders, and as the component type of
  // cooperative matrices (bf16 shapes in DeviceInfo::coopShapes count only with both).
  kShaderBFloat16Type = 1u << 28,
  kShaderBFloat16CooperativeMatrix = 1u << 29,
  // Not a Vulkan feature: the device keeps cooperative-matrix components where
  // nvidiaCoopLayouts says (the Vulkan plugin's probe, CoopProbe.h, found it so). A kernel
  // that reads or writes components (th.coop_extract / th.coop_insert) requires it, and
  // targetDesc keeps the shapes' layouts only where the device has it.
  kCoopMatrixNvidiaLayouts = 1u << 30,
};

// The Vulkan feature names of the bits set in `features`, comma-separated.
std::string featureNames(uint64_t features);

struct DeviceInfo {
  std::string name = "vulkan";       // the target string: "vulkan:<device name>"
  unsigned subgroupSize = 32;        // the lowering's warp size
  unsigned maxThreadsPerProgram = 1024;
  uint64_t sharedMemoryBytes = 16384; // maxComputeSharedMemorySize
  unsigned pushConstantBytes = 128;   // maxPushConstantsSize
  uint32_t maxGrid[3] = {65535, 65535, 65535};
  uint64_t features = 0;              // Feature bits the device supports
  // vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR at subgroup scope, in its order
  // (bf16 ones included; targetDesc keeps them only with the bfloat16 features).
  std::vector<CoopMatrixShape> coopShapes;
};

// The generic "vulkan" target: no device needed (subgroups of 32, 16 KiB of
// workgroup memory, 128 bytes of push constants, the common 8/16/64-bit features).
DeviceInfo genericDevice();

// A compile-only description of a device family by its target name, so that SPIR-V
// for it can be made and checked without the device: "vulkan" (genericDevice),
// "vulkan:nvidia" (NVIDIA's driver 580: subgroups of 32, 48 KiB of workgroup memory,
// explicit workgroup layouts, cooperative matrices as it reports them, bf16 ones with
// VK_KHR_shader_bfloat16),
// "vulkan:lavapipe" (Mesa 22.3's lavapipe with AVX2: subgroups of 8, as `trident
// devices` finds it). Nothing for other names.
std::optional<DeviceInfo> profileDevice(std::string_view target);

// Whether cooperative matrices may have known layouts: unless TRIDENT_VULKAN_COOP_LAYOUTS=off.
// One rule for both sides: the profiles keep theirs, and the Vulkan plugin probes its devices.
bool coopLayoutsWanted();

// The SIMT lowering's description of `device`. Without coopLayoutsWanted() it drops the
// shapes' known layouts (every cooperative matrix then stays opaque).
TargetDesc targetDesc(const DeviceInfo &device);

// The layouts NVIDIA's driver gives cooperative matrices of shape `s` (its mma.sync
// fragments: 16x16x16 with f16 A and B, into f16 or f32), for `subgroupSize` lanes;
// nothing for other shapes. The `vulkan:nvidia` profile carries them; a real device
// gets them only where its probe confirmed them (CoopProbe.h).
std::optional<CoopLayouts> nvidiaCoopLayouts(const CoopMatrixShape &s, unsigned subgroupSize);

} // namespace trident::spirv
