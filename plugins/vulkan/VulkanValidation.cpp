// TRIDENT_VULKAN_VALIDATE=1: the plugin's Vulkan instance runs with Khronos'
// validation layer, and a validation error ends the process (abort, after printing
// the message), so a test that misuses Vulkan fails instead of passing on a lenient
// driver. Warnings are printed only. Without the layer (Debian: vulkan-validationlayers)
// the plugin says so once and runs unvalidated. The test command sets it (lavapipe).

#include "VulkanDevice.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace trident::vulkan {

namespace {

constexpr const char *kLayer = "VK_LAYER_KHRONOS_validation";

VKAPI_ATTR VkBool32 VKAPI_CALL report(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                      VkDebugUtilsMessageTypeFlagsEXT, const VkDebugUtilsMessengerCallbackDataEXT *data,
                                      void *) {
  bool error = severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  std::fprintf(stderr, "trident vulkan: validation %s: %s\n", error ? "error" : "warning",
               data && data->pMessage ? data->pMessage : "(no message)");
  if (error)
    std::abort();
  return VK_FALSE;
}

bool layerPresent(const Loader &l) {
  auto enumerate = reinterpret_cast<PFN_vkEnumerateInstanceLayerProperties>(
      l.vkGetInstanceProcAddr(nullptr, "vkEnumerateInstanceLayerProperties"));
  uint32_t count = 0;
  if (!enumerate || enumerate(&count, nullptr) != VK_SUCCESS)
    return false;
  std::vector<VkLayerProperties> layers(count);
  if (enumerate(&count, layers.data()) != VK_SUCCESS)
    return false;
  for (const VkLayerProperties &p : layers)
    if (std::strcmp(p.layerName, kLayer) == 0)
      return true;
  return false;
}

} // namespace

bool Validation::prepare(const Loader &l, VkInstanceCreateInfo &info) {
  const char *v = std::getenv("TRIDENT_VULKAN_VALIDATE");
  if (!v || !*v || std::strcmp(v, "0") == 0)
    return false;
  if (!layerPresent(l)) {
    std::fprintf(stderr, "trident vulkan: TRIDENT_VULKAN_VALIDATE is set but %s is not installed "
                         "(vulkan-validationlayers); running without validation\n",
                 kLayer);
    return false;
  }
  messengerInfo = vk<VkDebugUtilsMessengerCreateInfoEXT>(VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT);
  messengerInfo.messageSeverity =
      VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  messengerInfo.messageType = VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT;
  messengerInfo.pfnUserCallback = report;
  info.enabledLayerCount = 1;
  info.ppEnabledLayerNames = &kLayer;
  static const char *extension = VK_EXT_DEBUG_UTILS_EXTENSION_NAME;
  info.enabledExtensionCount = 1;
  info.ppEnabledExtensionNames = &extension;
  info.pNext = &messengerInfo; // messages of vkCreateInstance and vkDestroyInstance
  return true;
}

void Validation::start(const Loader &l, VkInstance instance) {
  auto create = reinterpret_cast<PFN_vkCreateDebugUtilsMessengerEXT>(
      l.vkGetInstanceProcAddr(instance, "vkCreateDebugUtilsMessengerEXT"));
  destroy = reinterpret_cast<PFN_vkDestroyDebugUtilsMessengerEXT>(
      l.vkGetInstanceProcAddr(instance, "vkDestroyDebugUtilsMessengerEXT"));
  if (create && destroy && create(instance, &messengerInfo, nullptr, &messenger) == VK_SUCCESS)
    std::fprintf(stderr, "trident vulkan: validation layer on\n");
  else
    std::fprintf(stderr, "trident vulkan: the validation messenger could not be created\n");
}

void Validation::stop(VkInstance instance) {
  if (messenger && destroy)
    destroy(instance, messenger, nullptr);
  messenger = VK_NULL_HANDLE;
}

} // namespace trident::vulkan
