#include "VulkanLoader.h"

#include <cstdlib>
#include <dlfcn.h>

namespace trident::vulkan {

bool Loader::open(std::string &error) {
  const char *name = std::getenv("TRIDENT_VULKAN_LOADER");
  if (!name || !*name)
    name = "libvulkan.so.1";
  library = ::dlopen(name, RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    const char *why = ::dlerror();
    error = std::string("cannot open the Vulkan loader ") + name + ": " + (why ? why : "unknown error");
    return false;
  }
  vkGetInstanceProcAddr = reinterpret_cast<PFN_vkGetInstanceProcAddr>(::dlsym(library, "vkGetInstanceProcAddr"));
  if (!vkGetInstanceProcAddr) {
    error = std::string(name) + " has no vkGetInstanceProcAddr";
    return false;
  }
#define TRIDENT_VK_LOAD_GLOBAL(fn) fn = reinterpret_cast<PFN_##fn>(vkGetInstanceProcAddr(nullptr, #fn));
  TRIDENT_VK_GLOBAL_FUNCTIONS(TRIDENT_VK_LOAD_GLOBAL)
#undef TRIDENT_VK_LOAD_GLOBAL
  if (!vkCreateInstance) {
    error = std::string(name) + " does not provide vkCreateInstance";
    return false;
  }
  return true;
}

bool Loader::loadInstance(VkInstance instance, std::string &error) {
#define TRIDENT_VK_LOAD_INSTANCE(fn)                                                                                   \
  fn = reinterpret_cast<PFN_##fn>(vkGetInstanceProcAddr(instance, #fn));                                               \
  if (!fn) {                                                                                                           \
    error = "the Vulkan loader does not provide " #fn;                                                                 \
    return false;                                                                                                      \
  }
  TRIDENT_VK_INSTANCE_FUNCTIONS(TRIDENT_VK_LOAD_INSTANCE)
#undef TRIDENT_VK_LOAD_INSTANCE
  return true;
}

Loader::~Loader() {
  if (library)
    ::dlclose(library);
}

bool DeviceFunctions::load(const Loader &loader, VkDevice device, std::string &error) {
#define TRIDENT_VK_LOAD_DEVICE(fn)                                                                                     \
  fn = reinterpret_cast<PFN_##fn>(loader.vkGetDeviceProcAddr(device, #fn));                                            \
  if (!fn) {                                                                                                           \
    error = "the Vulkan driver does not provide " #fn;                                                                 \
    return false;                                                                                                      \
  }
  TRIDENT_VK_DEVICE_FUNCTIONS(TRIDENT_VK_LOAD_DEVICE)
#undef TRIDENT_VK_LOAD_DEVICE
  return true;
}

std::string resultName(VkResult r) {
  switch (r) {
  case VK_SUCCESS: return "VK_SUCCESS";
  case VK_NOT_READY: return "VK_NOT_READY";
  case VK_TIMEOUT: return "VK_TIMEOUT";
  case VK_INCOMPLETE: return "VK_INCOMPLETE";
  case VK_ERROR_OUT_OF_HOST_MEMORY: return "VK_ERROR_OUT_OF_HOST_MEMORY";
  case VK_ERROR_OUT_OF_DEVICE_MEMORY: return "VK_ERROR_OUT_OF_DEVICE_MEMORY";
  case VK_ERROR_INITIALIZATION_FAILED: return "VK_ERROR_INITIALIZATION_FAILED";
  case VK_ERROR_DEVICE_LOST: return "VK_ERROR_DEVICE_LOST";
  case VK_ERROR_MEMORY_MAP_FAILED: return "VK_ERROR_MEMORY_MAP_FAILED";
  case VK_ERROR_LAYER_NOT_PRESENT: return "VK_ERROR_LAYER_NOT_PRESENT";
  case VK_ERROR_EXTENSION_NOT_PRESENT: return "VK_ERROR_EXTENSION_NOT_PRESENT";
  case VK_ERROR_FEATURE_NOT_PRESENT: return "VK_ERROR_FEATURE_NOT_PRESENT";
  case VK_ERROR_INCOMPATIBLE_DRIVER: return "VK_ERROR_INCOMPATIBLE_DRIVER";
  case VK_ERROR_TOO_MANY_OBJECTS: return "VK_ERROR_TOO_MANY_OBJECTS";
  case VK_ERROR_FORMAT_NOT_SUPPORTED: return "VK_ERROR_FORMAT_NOT_SUPPORTED";
  case VK_ERROR_FRAGMENTED_POOL: return "VK_ERROR_FRAGMENTED_POOL";
  case VK_ERROR_OUT_OF_POOL_MEMORY: return "VK_ERROR_OUT_OF_POOL_MEMORY";
  case VK_ERROR_INVALID_SHADER_NV: return "VK_ERROR_INVALID_SHADER_NV";
  default: return "VkResult " + std::to_string(int(r));
  }
}

} // namespace trident::vulkan
