#pragma once
// The Vulkan loader, opened with dlopen (never linked): the global, instance and
// device functions the plugin calls. Types come from the Vulkan headers only.

#include <vulkan/vulkan.h>

#include <string>

namespace trident::vulkan {

#define TRIDENT_VK_GLOBAL_FUNCTIONS(X)                                                                                 \
  X(vkCreateInstance)                                                                                                  \
  X(vkEnumerateInstanceVersion)

#define TRIDENT_VK_INSTANCE_FUNCTIONS(X)                                                                               \
  X(vkDestroyInstance)                                                                                                 \
  X(vkEnumeratePhysicalDevices)                                                                                        \
  X(vkGetPhysicalDeviceProperties)                                                                                     \
  X(vkGetPhysicalDeviceProperties2)                                                                                    \
  X(vkGetPhysicalDeviceFeatures2)                                                                                      \
  X(vkGetPhysicalDeviceQueueFamilyProperties)                                                                          \
  X(vkGetPhysicalDeviceMemoryProperties)                                                                               \
  X(vkGetPhysicalDeviceMemoryProperties2)                                                                              \
  X(vkEnumerateDeviceExtensionProperties)                                                                              \
  X(vkCreateDevice)                                                                                                    \
  X(vkGetDeviceProcAddr)

#define TRIDENT_VK_DEVICE_FUNCTIONS(X)                                                                                 \
  X(vkDestroyDevice)                                                                                                   \
  X(vkGetDeviceQueue)                                                                                                  \
  X(vkDeviceWaitIdle)                                                                                                  \
  X(vkCreateBuffer)                                                                                                    \
  X(vkDestroyBuffer)                                                                                                   \
  X(vkGetBufferMemoryRequirements)                                                                                     \
  X(vkAllocateMemory)                                                                                                  \
  X(vkFreeMemory)                                                                                                      \
  X(vkBindBufferMemory)                                                                                                \
  X(vkMapMemory)                                                                                                       \
  X(vkUnmapMemory)                                                                                                     \
  X(vkGetBufferDeviceAddress)                                                                                          \
  X(vkCreateCommandPool)                                                                                               \
  X(vkDestroyCommandPool)                                                                                              \
  X(vkAllocateCommandBuffers)                                                                                          \
  X(vkFreeCommandBuffers)                                                                                              \
  X(vkResetCommandBuffer)                                                                                              \
  X(vkBeginCommandBuffer)                                                                                              \
  X(vkEndCommandBuffer)                                                                                                \
  X(vkCmdCopyBuffer)                                                                                                   \
  X(vkCmdFillBuffer)                                                                                                   \
  X(vkCmdPipelineBarrier)                                                                                              \
  X(vkCmdBindPipeline)                                                                                                 \
  X(vkCmdPushConstants)                                                                                                \
  X(vkCmdDispatch)                                                                                                     \
  X(vkCmdResetQueryPool)                                                                                               \
  X(vkResetQueryPool)                                                                                                  \
  X(vkCmdWriteTimestamp)                                                                                               \
  X(vkQueueSubmit)                                                                                                     \
  X(vkCreateSemaphore)                                                                                                 \
  X(vkDestroySemaphore)                                                                                                \
  X(vkWaitSemaphores)                                                                                                  \
  X(vkGetSemaphoreCounterValue)                                                                                        \
  X(vkCreateShaderModule)                                                                                              \
  X(vkDestroyShaderModule)                                                                                             \
  X(vkCreatePipelineLayout)                                                                                            \
  X(vkDestroyPipelineLayout)                                                                                           \
  X(vkCreatePipelineCache)                                                                                             \
  X(vkDestroyPipelineCache)                                                                                            \
  X(vkCreateComputePipelines)                                                                                          \
  X(vkDestroyPipeline)                                                                                                 \
  X(vkCreateQueryPool)                                                                                                 \
  X(vkDestroyQueryPool)                                                                                                \
  X(vkGetQueryPoolResults)

// The loader library and its global and instance-level functions.
struct Loader {
  void *library = nullptr;
  PFN_vkGetInstanceProcAddr vkGetInstanceProcAddr = nullptr;
#define TRIDENT_VK_DECLARE(name) PFN_##name name = nullptr;
  TRIDENT_VK_GLOBAL_FUNCTIONS(TRIDENT_VK_DECLARE)
  TRIDENT_VK_INSTANCE_FUNCTIONS(TRIDENT_VK_DECLARE)

  // Opens libvulkan.so.1 (TRIDENT_VULKAN_LOADER overrides the name); false with
  // `error` set when it is missing or incomplete.
  bool open(std::string &error);
  // Loads the instance-level functions of `instance`.
  bool loadInstance(VkInstance instance, std::string &error);
  ~Loader();
};

// Device-level functions of one VkDevice.
struct DeviceFunctions {
  TRIDENT_VK_DEVICE_FUNCTIONS(TRIDENT_VK_DECLARE)
  bool load(const Loader &loader, VkDevice device, std::string &error);
};
#undef TRIDENT_VK_DECLARE

// A Vulkan struct with its sType set and every other field zero.
template <class T> T vk(VkStructureType type) {
  T t{};
  t.sType = type;
  return t;
}

// "VK_ERROR_OUT_OF_DEVICE_MEMORY" for a VkResult.
std::string resultName(VkResult r);

} // namespace trident::vulkan
