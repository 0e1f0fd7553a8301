#pragma once
// VK_KHR_cooperative_matrix and VK_KHR_shader_bfloat16, declared here for Vulkan headers
// older than 1.3.255 and 1.4.311 (Debian bookworm has 1.3.239), with the values of the
// Vulkan registry; and what the plugin makes of them: the device's subgroup-scope shapes
// as spirv::DeviceInfo lists them.

#include "VulkanLoader.h"

#include "trident/simt/TargetDesc.h"

#include <vector>

namespace trident::vulkan {

constexpr const char *kCoopMatrixExtension = "VK_KHR_cooperative_matrix";
constexpr VkStructureType kCoopMatrixFeaturesType = VkStructureType(1000506000);
constexpr VkStructureType kCoopMatrixPropertiesType = VkStructureType(1000506001);

struct CoopMatrixFeatures { // VkPhysicalDeviceCooperativeMatrixFeaturesKHR
  VkStructureType sType = kCoopMatrixFeaturesType;
  void *pNext = nullptr;
  VkBool32 cooperativeMatrix = VK_FALSE;
  VkBool32 cooperativeMatrixRobustBufferAccess = VK_FALSE;
};

struct CoopMatrixProperties { // VkCooperativeMatrixPropertiesKHR
  VkStructureType sType = kCoopMatrixPropertiesType;
  void *pNext = nullptr;
  uint32_t MSize = 0, NSize = 0, KSize = 0;
  uint32_t AType = 0, BType = 0, CType = 0, ResultType = 0; // VkComponentTypeKHR
  VkBool32 saturatingAccumulation = VK_FALSE;
  uint32_t scope = 0; // VkScopeKHR
};

constexpr const char *kBFloat16Extension = "VK_KHR_shader_bfloat16";
constexpr VkStructureType kBFloat16FeaturesType = VkStructureType(1000141000);
constexpr uint32_t kComponentTypeBFloat16 = 1000141000; // VK_COMPONENT_TYPE_BFLOAT16_KHR

struct BFloat16Features { // VkPhysicalDeviceShaderBfloat16FeaturesKHR
  VkStructureType sType = kBFloat16FeaturesType;
  void *pNext = nullptr;
  VkBool32 shaderBFloat16Type = VK_FALSE;
  VkBool32 shaderBFloat16DotProduct = VK_FALSE;
  VkBool32 shaderBFloat16CooperativeMatrix = VK_FALSE;
};

using GetCoopMatrixProperties = VkResult(VKAPI_PTR *)(VkPhysicalDevice, uint32_t *, CoopMatrixProperties *);

// The shapes `pd` multiplies at subgroup scope without saturation, in the driver's order,
// whose component types Trident has (VkComponentTypeKHR: f16, f32, s8, s32, bf16; the
// bf16 ones count only with the bfloat16 features, spirv::targetDesc).
inline std::vector<CoopMatrixShape> coopMatrixShapes(GetCoopMatrixProperties get, VkPhysicalDevice pd) {
  std::vector<CoopMatrixShape> out;
  uint32_t n = 0;
  if (!get || get(pd, &n, nullptr) != VK_SUCCESS || n == 0)
    return out;
  std::vector<CoopMatrixProperties> props(n);
  if (get(pd, &n, props.data()) != VK_SUCCESS)
    return out;
  auto type = [](uint32_t c) {
    switch (c) {
    case 0: return Type::f16();
    case 1: return Type::f32();
    case 3: return Type::i8();
    case 5: return Type::i32();
    case kComponentTypeBFloat16: return Type::bf16();
    default: return Type();
    }
  };
  for (uint32_t i = 0; i < n; ++i) {
    const CoopMatrixProperties &p = props[i];
    CoopMatrixShape s{p.MSize, p.NSize, p.KSize, type(p.AType), type(p.BType), type(p.CType), type(p.ResultType), {}};
    if (p.scope == 3 /* subgroup */ && !p.saturatingAccumulation && s.aType && s.bType && s.cType && s.resultType)
      out.push_back(s);
  }
  return out;
}

} // namespace trident::vulkan
