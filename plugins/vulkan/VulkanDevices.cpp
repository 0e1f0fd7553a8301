// Finding usable Vulkan devices, opening them, and their buffers.
//
// A device is usable with Vulkan 1.2, buffer device addresses, 64-bit integers,
// timeline semaphores, a compute queue and subgroup operations in compute
// shaders; devices without them are skipped and the reason kept (it becomes the
// zero-device reason when none is left).

#include "VulkanCoopMatrix.h"
#include "VulkanDevice.h"

#include "trident/support/ByteSize.h"

#include <cstdlib>
#include <cstring>
#include <set>

namespace trident::vulkan {

namespace {

std::set<std::string> deviceExtensions(const Loader &l, VkPhysicalDevice pd) {
  uint32_t n = 0;
  l.vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, nullptr);
  std::vector<VkExtensionProperties> list(n);
  l.vkEnumerateDeviceExtensionProperties(pd, nullptr, &n, list.data());
  std::set<std::string> out;
  for (const auto &e : list)
    out.insert(e.extensionName);
  return out;
}

std::string version(uint32_t v) {
  return std::to_string(VK_API_VERSION_MAJOR(v)) + "." + std::to_string(VK_API_VERSION_MINOR(v));
}

// The features of one physical device, chained the way vkGetPhysicalDeviceFeatures2 and
// vkCreateDevice take them.
struct FeatureChain {
  VkPhysicalDeviceFeatures2 base = vk<VkPhysicalDeviceFeatures2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_FEATURES_2);
  VkPhysicalDeviceVulkan11Features v11 = vk<VkPhysicalDeviceVulkan11Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_1_FEATURES);
  VkPhysicalDeviceVulkan12Features v12 = vk<VkPhysicalDeviceVulkan12Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_FEATURES);
  VkPhysicalDeviceVulkan13Features v13 = vk<VkPhysicalDeviceVulkan13Features>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_3_FEATURES);
  VkPhysicalDeviceSubgroupSizeControlFeaturesEXT sizeControl = vk<VkPhysicalDeviceSubgroupSizeControlFeaturesEXT>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_FEATURES_EXT);
  VkPhysicalDeviceWorkgroupMemoryExplicitLayoutFeaturesKHR explicitLayout =
      vk<VkPhysicalDeviceWorkgroupMemoryExplicitLayoutFeaturesKHR>(
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_WORKGROUP_MEMORY_EXPLICIT_LAYOUT_FEATURES_KHR);
  VkPhysicalDeviceShaderAtomicFloatFeaturesEXT atomicFloat = vk<VkPhysicalDeviceShaderAtomicFloatFeaturesEXT>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_ATOMIC_FLOAT_FEATURES_EXT);
  VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR executableStats =
      vk<VkPhysicalDevicePipelineExecutablePropertiesFeaturesKHR>(
          VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PIPELINE_EXECUTABLE_PROPERTIES_FEATURES_KHR);

  CoopMatrixFeatures coopMatrix;
  BFloat16Features bfloat16;

  FeatureChain(uint32_t api, bool sizeControlExtension, bool atomicFloatExtension,
               bool explicitLayoutExtension, bool executableStatsExtension = false,
               bool coopMatrixExtension = false, bool bfloat16Extension = false) {
    void **next = &base.pNext;
    auto link = [&](auto &s) {
      *next = &s;
      next = &s.pNext;
    };
    link(v11);
    link(v12);
    if (api >= VK_API_VERSION_1_3)
      link(v13);
    else if (sizeControlExtension)
      link(sizeControl);
    if (atomicFloatExtension)
      link(atomicFloat);
    if (explicitLayoutExtension)
      link(explicitLayout);
    if (executableStatsExtension)
      link(executableStats);
    if (coopMatrixExtension)
      link(coopMatrix);
    if (bfloat16Extension)
      link(bfloat16);
  }
  FeatureChain(const FeatureChain &) = delete;
  bool subgroupSizeControl() const { return v13.subgroupSizeControl || sizeControl.subgroupSizeControl; }
  bool fullSubgroups() const { return v13.computeFullSubgroups || sizeControl.computeFullSubgroups; }
};

// Reads one physical device; false with `why` when it is not usable.
bool describe(const Loader &l, VkPhysicalDevice pd, PhysicalDevice &out, std::string &why) {
  out.handle = pd;
  l.vkGetPhysicalDeviceProperties(pd, &out.properties);
  const VkPhysicalDeviceProperties &p = out.properties;
  std::string name = p.deviceName;
  if (p.apiVersion < VK_API_VERSION_1_2) {
    why = name + ": Vulkan " + version(p.apiVersion) + ", Trident needs 1.2";
    return false;
  }
  std::set<std::string> ext = deviceExtensions(l, pd);
  out.subgroupSizeControlExtension = p.apiVersion < VK_API_VERSION_1_3 && ext.count("VK_EXT_subgroup_size_control");
  out.atomicFloatExtension = ext.count("VK_EXT_shader_atomic_float") != 0;
  out.explicitLayoutExtension = ext.count("VK_KHR_workgroup_memory_explicit_layout") != 0;
  out.executableStatsExtension = ext.count("VK_KHR_pipeline_executable_properties") != 0;
  out.memoryBudgetExtension = ext.count("VK_EXT_memory_budget") != 0;
  out.coopMatrixExtension = ext.count(kCoopMatrixExtension) != 0;
  out.bfloat16Extension = ext.count(kBFloat16Extension) != 0;

  VkPhysicalDeviceIDProperties id = vk<VkPhysicalDeviceIDProperties>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES);
  VkPhysicalDeviceSubgroupProperties subgroup = vk<VkPhysicalDeviceSubgroupProperties>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_PROPERTIES);
  VkPhysicalDeviceSubgroupSizeControlPropertiesEXT sizes = vk<VkPhysicalDeviceSubgroupSizeControlPropertiesEXT>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SUBGROUP_SIZE_CONTROL_PROPERTIES_EXT);
  VkPhysicalDeviceShaderSMBuiltinsPropertiesNV sm = vk<VkPhysicalDeviceShaderSMBuiltinsPropertiesNV>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_SHADER_SM_BUILTINS_PROPERTIES_NV);
  VkPhysicalDeviceVulkan12Properties v12 = vk<VkPhysicalDeviceVulkan12Properties>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_VULKAN_1_2_PROPERTIES);
  VkPhysicalDeviceMaintenance3Properties maintenance3 =
      vk<VkPhysicalDeviceMaintenance3Properties>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_3_PROPERTIES);
  VkPhysicalDeviceMaintenance4Properties maintenance4 =
      vk<VkPhysicalDeviceMaintenance4Properties>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MAINTENANCE_4_PROPERTIES);
  VkPhysicalDeviceProperties2 props = vk<VkPhysicalDeviceProperties2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2);
  props.pNext = &id;
  id.pNext = &v12;
  v12.pNext = &maintenance3;
  maintenance3.pNext = &subgroup;
  bool hasSizes = p.apiVersion >= VK_API_VERSION_1_3 || out.subgroupSizeControlExtension;
  void **tail = &subgroup.pNext;
  if (p.apiVersion >= VK_API_VERSION_1_3) {
    *tail = &maintenance4;
    tail = &maintenance4.pNext;
  }
  if (hasSizes) {
    *tail = &sizes;
    tail = &sizes.pNext;
  }
  if (ext.count("VK_NV_shader_sm_builtins"))
    *tail = &sm;
  l.vkGetPhysicalDeviceProperties2(pd, &props);
  std::memcpy(out.uuid, id.deviceUUID, sizeof out.uuid);
  if (sm.shaderSMCount)
    out.multiprocessors = sm.shaderSMCount;
  out.maxAllocationBytes = maintenance3.maxMemoryAllocationSize;
  out.maxBufferBytes = p.apiVersion >= VK_API_VERSION_1_3 ? maintenance4.maxBufferSize : 0;

  FeatureChain f(p.apiVersion, out.subgroupSizeControlExtension, out.atomicFloatExtension,
                 out.explicitLayoutExtension, false, out.coopMatrixExtension, out.bfloat16Extension);
  l.vkGetPhysicalDeviceFeatures2(pd, &f.base);
  out.coopMatrixExtension = out.coopMatrixExtension && f.coopMatrix.cooperativeMatrix;
  out.bfloat16Extension = out.bfloat16Extension && f.bfloat16.shaderBFloat16Type;
  if (!f.v12.bufferDeviceAddress) {
    why = name + ": no bufferDeviceAddress (Trident's pointers are buffer device addresses)";
    return false;
  }
  out.hostQueryReset = f.v12.hostQueryReset;
  if (!f.base.features.shaderInt64) {
    why = name + ": no shaderInt64 (addresses are 64-bit)";
    return false;
  }
  if (!f.v12.timelineSemaphore) {
    why = name + ": no timelineSemaphore";
    return false;
  }
  if (!(subgroup.supportedStages & VK_SHADER_STAGE_COMPUTE_BIT) ||
      !(subgroup.supportedOperations & VK_SUBGROUP_FEATURE_BASIC_BIT)) {
    why = name + ": no subgroup operations in compute shaders";
    return false;
  }

  uint32_t families = 0;
  l.vkGetPhysicalDeviceQueueFamilyProperties(pd, &families, nullptr);
  std::vector<VkQueueFamilyProperties> queues(families);
  l.vkGetPhysicalDeviceQueueFamilyProperties(pd, &families, queues.data());
  int chosen = -1;
  for (uint32_t i = 0; i < families; ++i) { // a compute-only family first, else any with compute
    bool compute = queues[i].queueFlags & VK_QUEUE_COMPUTE_BIT;
    bool graphics = queues[i].queueFlags & VK_QUEUE_GRAPHICS_BIT;
    if (compute && (chosen < 0 || (!graphics && (queues[chosen].queueFlags & VK_QUEUE_GRAPHICS_BIT))))
      chosen = int(i);
  }
  if (chosen < 0) {
    why = name + ": no compute queue";
    return false;
  }
  out.queueFamily = uint32_t(chosen);
  out.timestampValidBits = queues[chosen].timestampValidBits;

  VkPhysicalDeviceMemoryProperties &memory = out.memory;
  l.vkGetPhysicalDeviceMemoryProperties(pd, &memory);
  for (uint32_t i = 0; i < memory.memoryHeapCount; ++i)
    if (memory.memoryHeaps[i].flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT)
      out.globalMemory += memory.memoryHeaps[i].size;

  out.subgroupSizeControl = hasSizes && f.subgroupSizeControl() && (sizes.requiredSubgroupSizeStages & VK_SHADER_STAGE_COMPUTE_BIT);
  out.fullSubgroups = f.fullSubgroups();
  out.minSubgroupSize = hasSizes ? sizes.minSubgroupSize : subgroup.subgroupSize;
  out.maxSubgroupSize = hasSizes ? sizes.maxSubgroupSize : subgroup.subgroupSize;
  out.maxSubgroupsPerProgram = hasSizes ? sizes.maxComputeWorkgroupSubgroups : 0;

  spirv::DeviceInfo &d = out.info;
  d.name = ("vulkan:" + name).substr(0, 63);
  d.subgroupSize = subgroup.subgroupSize;
  d.maxThreadsPerProgram = std::min(p.limits.maxComputeWorkGroupInvocations, p.limits.maxComputeWorkGroupSize[0]);
  // A pipeline that requires its subgroup size (needed only where the size varies)
  // may hold at most maxComputeWorkgroupSubgroups of them.
  if (out.requiresSubgroupSize())
    d.maxThreadsPerProgram = std::min(d.maxThreadsPerProgram, d.subgroupSize * out.maxSubgroupsPerProgram);
  d.sharedMemoryBytes = p.limits.maxComputeSharedMemorySize;
  d.pushConstantBytes = p.limits.maxPushConstantsSize;
  for (int i = 0; i < 3; ++i)
    d.maxGrid[i] = p.limits.maxComputeWorkGroupCount[i];
  uint64_t features = 0;
  auto add = [&](bool has, uint64_t bit) {
    if (has)
      features |= bit;
  };
  add(f.v12.shaderInt8, spirv::kShaderInt8);
  add(f.base.features.shaderInt16, spirv::kShaderInt16);
  add(f.base.features.shaderInt64, spirv::kShaderInt64);
  add(f.v12.shaderFloat16, spirv::kShaderFloat16);
  add(f.base.features.shaderFloat64, spirv::kShaderFloat64);
  add(f.v12.storageBuffer8BitAccess, spirv::kStorageBuffer8BitAccess);
  add(f.v11.storageBuffer16BitAccess, spirv::kStorageBuffer16BitAccess);
  add(f.v12.shaderBufferInt64Atomics, spirv::kShaderBufferInt64Atomics);
  add(f.atomicFloat.shaderBufferFloat32AtomicAdd, spirv::kShaderBufferFloat32AtomicAdd);
  add(f.atomicFloat.shaderBufferFloat64AtomicAdd, spirv::kShaderBufferFloat64AtomicAdd);
  add(subgroup.supportedOperations & VK_SUBGROUP_FEATURE_SHUFFLE_BIT, spirv::kSubgroupShuffle);
  add(subgroup.supportedOperations & VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT, spirv::kSubgroupShuffleRelative);
  add(out.subgroupSizeControl, spirv::kSubgroupSizeControl);
  add(out.fullSubgroups, spirv::kComputeFullSubgroups);
  add(v12.shaderSignedZeroInfNanPreserveFloat16, spirv::kSignedZeroInfNanPreserveFloat16);
  add(v12.shaderSignedZeroInfNanPreserveFloat32, spirv::kSignedZeroInfNanPreserveFloat32);
  add(v12.shaderSignedZeroInfNanPreserveFloat64, spirv::kSignedZeroInfNanPreserveFloat64);
  add(v12.shaderRoundingModeRTEFloat16, spirv::kRoundingModeRTEFloat16);
  add(v12.shaderRoundingModeRTEFloat32, spirv::kRoundingModeRTEFloat32);
  add(v12.shaderRoundingModeRTEFloat64, spirv::kRoundingModeRTEFloat64);
  add(v12.shaderDenormPreserveFloat16, spirv::kDenormPreserveFloat16);
  add(v12.shaderDenormPreserveFloat32, spirv::kDenormPreserveFloat32);
  add(v12.shaderDenormPreserveFloat64, spirv::kDenormPreserveFloat64);
  add(f.explicitLayout.workgroupMemoryExplicitLayout, spirv::kWorkgroupMemoryExplicitLayout);
  add(f.explicitLayout.workgroupMemoryExplicitLayout8BitAccess, spirv::kWorkgroupMemoryExplicitLayout8BitAccess);
  add(f.explicitLayout.workgroupMemoryExplicitLayout16BitAccess, spirv::kWorkgroupMemoryExplicitLayout16BitAccess);
  add(f.v12.vulkanMemoryModel && f.v12.vulkanMemoryModelDeviceScope, spirv::kVulkanMemoryModel);
  add(out.bfloat16Extension, spirv::kShaderBFloat16Type);
  add(out.bfloat16Extension && out.coopMatrixExtension && f.bfloat16.shaderBFloat16CooperativeMatrix,
      spirv::kShaderBFloat16CooperativeMatrix);
  if (out.coopMatrixExtension) {
    // The shapes the driver multiplies (vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR).
    auto get = reinterpret_cast<GetCoopMatrixProperties>(
        l.vkGetInstanceProcAddr(out.instance, "vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR"));
    d.coopShapes = coopMatrixShapes(get, pd);
    add(!d.coopShapes.empty(), spirv::kCooperativeMatrix);
  }
  d.features = features;
  return true;
}

// A memory type among `bits` with all of `required`, preferring those with `preferred`.
// The first memory type of `bits` with the `required` flags: one that also has the
// `preferred` flags and none of the `avoided` ones if there is one, else one without
// the avoided flags, else any.
int memoryType(const VkPhysicalDeviceMemoryProperties &m, uint32_t bits, VkMemoryPropertyFlags required,
               VkMemoryPropertyFlags preferred, VkMemoryPropertyFlags avoided = 0) {
  int withoutAvoided = -1, fallback = -1;
  for (uint32_t i = 0; i < m.memoryTypeCount; ++i) {
    VkMemoryPropertyFlags f = m.memoryTypes[i].propertyFlags;
    if (!(bits & (1u << i)) || (f & required) != required)
      continue;
    bool clean = (f & avoided) == 0;
    if ((f & preferred) == preferred && clean)
      return int(i);
    if (clean && withoutAvoided < 0)
      withoutAvoided = int(i);
    if (fallback < 0)
      fallback = int(i);
  }
  return withoutAvoided >= 0 ? withoutAvoided : fallback;
}

constexpr VkBufferUsageFlags kBufferUsage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                            VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                            VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;

} // namespace

void enumerateDevices(trident_context_s &ctx) {
  Loader &l = ctx.loader;
  std::string error;
  if (!l.open(error)) {
    ctx.reason = error;
    return;
  }
  uint32_t loaderVersion = VK_API_VERSION_1_0;
  if (l.vkEnumerateInstanceVersion)
    l.vkEnumerateInstanceVersion(&loaderVersion);
  if (loaderVersion < VK_API_VERSION_1_2) {
    ctx.reason = "the Vulkan loader supports Vulkan " + version(loaderVersion) + "; Trident needs 1.2";
    return;
  }
  VkApplicationInfo app = vk<VkApplicationInfo>(VK_STRUCTURE_TYPE_APPLICATION_INFO);
  app.pApplicationName = "trident";
  app.pEngineName = "trident";
  app.apiVersion = loaderVersion >= VK_API_VERSION_1_3 ? VK_API_VERSION_1_3 : VK_API_VERSION_1_2;
  VkInstanceCreateInfo info = vk<VkInstanceCreateInfo>(VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO);
  info.pApplicationInfo = &app;
  bool validate = ctx.validation.prepare(l, info);
  if (VkResult r = l.vkCreateInstance(&info, nullptr, &ctx.instance); r != VK_SUCCESS) {
    ctx.instance = VK_NULL_HANDLE;
    ctx.reason = "vkCreateInstance failed (" + resultName(r) + "): no Vulkan driver is installed or it cannot start";
    return;
  }
  if (!l.loadInstance(ctx.instance, error)) {
    ctx.reason = error;
    return;
  }
  if (validate)
    ctx.validation.start(l, ctx.instance);
  uint32_t count = 0;
  l.vkEnumeratePhysicalDevices(ctx.instance, &count, nullptr);
  std::vector<VkPhysicalDevice> handles(count);
  l.vkEnumeratePhysicalDevices(ctx.instance, &count, handles.data());
  std::string skipped;
  for (VkPhysicalDevice pd : handles) {
    auto p = std::make_unique<PhysicalDevice>();
    std::string why;
    p->instance = ctx.instance;
    if (!describe(l, pd, *p, why)) {
      skipped += (skipped.empty() ? "" : "; ") + why;
      continue;
    }
    auto d = std::make_unique<Device>();
    d->context = &ctx;
    d->physical = p.get();
    d->ordinal = uint32_t(ctx.devices.size());
    d->name = "vulkan:" + std::to_string(d->ordinal) + " (" + p->properties.deviceName + ")";
    ctx.physical.push_back(std::move(p));
    ctx.devices.push_back(std::move(d));
  }
  if (ctx.devices.empty())
    ctx.reason = handles.empty() ? "the Vulkan loader found no device (no driver, or no GPU; lavapipe from "
                                   "mesa-vulkan-drivers provides one on any machine)"
                                 : "no usable Vulkan device: " + skipped;
}

// ---- Device ----

trident_status Device::open() {
  std::lock_guard lock(mutex);
  if (device) {
    openCount++;
    return TRIDENT_SUCCESS;
  }
  const Loader &l = context->loader;
  const PhysicalDevice &p = *physical;
  float priority = 1.0f;
  VkDeviceQueueCreateInfo queueInfo = vk<VkDeviceQueueCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_QUEUE_CREATE_INFO);
  queueInfo.queueFamilyIndex = p.queueFamily;
  queueInfo.queueCount = 1;
  queueInfo.pQueuePriorities = &priority;
  // Every feature the device has, minus those that may cost speed and that nothing
  // here uses: robust accesses (Triton's memory model does not need them) and
  // capture-replay or multi-device buffer addresses.
  const char *statsEnv = std::getenv("TRIDENT_VULKAN_STATS");
  bool stats = p.executableStatsExtension && statsEnv && std::string(statsEnv) == "1";
  FeatureChain f(p.properties.apiVersion, p.subgroupSizeControlExtension, p.atomicFloatExtension,
                 p.explicitLayoutExtension, stats, p.coopMatrixExtension, p.bfloat16Extension);
  l.vkGetPhysicalDeviceFeatures2(p.handle, &f.base);
  stats = stats && f.executableStats.pipelineExecutableInfo;
  f.base.features.robustBufferAccess = VK_FALSE;
  f.v13.robustImageAccess = VK_FALSE;
  f.v12.bufferDeviceAddressCaptureReplay = VK_FALSE;
  f.v12.bufferDeviceAddressMultiDevice = VK_FALSE;
  std::vector<const char *> extensions;
  if (p.subgroupSizeControlExtension)
    extensions.push_back("VK_EXT_subgroup_size_control");
  if (p.atomicFloatExtension)
    extensions.push_back("VK_EXT_shader_atomic_float");
  if (p.explicitLayoutExtension)
    extensions.push_back("VK_KHR_workgroup_memory_explicit_layout");
  if (stats)
    extensions.push_back("VK_KHR_pipeline_executable_properties");
  if (p.memoryBudgetExtension)
    extensions.push_back("VK_EXT_memory_budget");
  if (p.coopMatrixExtension)
    extensions.push_back(kCoopMatrixExtension);
  if (p.bfloat16Extension) // with its features as the device reports them (the type, cooperative matrices of
                           // it)
    extensions.push_back(kBFloat16Extension);
  f.coopMatrix.cooperativeMatrixRobustBufferAccess = VK_FALSE;
  VkDeviceCreateInfo info = vk<VkDeviceCreateInfo>(VK_STRUCTURE_TYPE_DEVICE_CREATE_INFO);
  info.pNext = &f.base;
  info.queueCreateInfoCount = 1;
  info.pQueueCreateInfos = &queueInfo;
  info.enabledExtensionCount = uint32_t(extensions.size());
  info.ppEnabledExtensionNames = extensions.data();
  if (VkResult r = l.vkCreateDevice(p.handle, &info, nullptr, &device); r != VK_SUCCESS) {
    device = VK_NULL_HANDLE;
    return failVk(r, "creating the Vulkan device for " + name);
  }
  std::string error;
  if (!fn.load(l, device, error)) {
    close();
    return fail(TRIDENT_ERROR_UNAVAILABLE, error + " (" + name + ")");
  }
  fn.vkGetDeviceQueue(device, p.queueFamily, 0, &queue);
  if (stats) {
    getExecutables = reinterpret_cast<PFN_vkGetPipelineExecutablePropertiesKHR>(
        l.vkGetDeviceProcAddr(device, "vkGetPipelineExecutablePropertiesKHR"));
    getStatistics = reinterpret_cast<PFN_vkGetPipelineExecutableStatisticsKHR>(
        l.vkGetDeviceProcAddr(device, "vkGetPipelineExecutableStatisticsKHR"));
  }
  VkSemaphoreTypeCreateInfo timelineType = vk<VkSemaphoreTypeCreateInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_TYPE_CREATE_INFO);
  timelineType.semaphoreType = VK_SEMAPHORE_TYPE_TIMELINE;
  VkSemaphoreCreateInfo semaphoreInfo = vk<VkSemaphoreCreateInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_CREATE_INFO);
  semaphoreInfo.pNext = &timelineType;
  if (VkResult r = fn.vkCreateSemaphore(device, &semaphoreInfo, nullptr, &timeline); r != VK_SUCCESS) {
    close();
    return failVk(r, "creating a timeline semaphore on " + name);
  }
  VkPipelineCacheCreateInfo cacheInfo = vk<VkPipelineCacheCreateInfo>(VK_STRUCTURE_TYPE_PIPELINE_CACHE_CREATE_INFO);
  if (VkResult r = fn.vkCreatePipelineCache(device, &cacheInfo, nullptr, &pipelineCache); r != VK_SUCCESS) {
    close();
    return failVk(r, "creating a pipeline cache on " + name);
  }
  // Memory types: probe with a small buffer of the usage every allocation has.
  VkBufferCreateInfo probeInfo = vk<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
  probeInfo.size = 256;
  probeInfo.usage = kBufferUsage;
  VkBuffer probe;
  if (VkResult r = fn.vkCreateBuffer(device, &probeInfo, nullptr, &probe); r != VK_SUCCESS) {
    close();
    return failVk(r, "creating a buffer on " + name);
  }
  VkMemoryRequirements req;
  fn.vkGetBufferMemoryRequirements(device, probe, &req);
  fn.vkDestroyBuffer(device, probe, nullptr);
  const VkPhysicalDeviceMemoryProperties &memory = p.memory;
  // Device memory: device-local, and on a discrete GPU not the host-visible window of it
  // (resizable BAR), which some drivers place differently; lavapipe has only that one.
  int deviceType = memoryType(memory, req.memoryTypeBits, VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT, 0,
                              VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT);
  int hostType = memoryType(memory, req.memoryTypeBits,
                            VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT,
                            VK_MEMORY_PROPERTY_HOST_CACHED_BIT);
  if (deviceType < 0)
    deviceType = hostType;
  if (deviceType < 0 || hostType < 0) {
    close();
    return fail(TRIDENT_ERROR_UNAVAILABLE, name + " has no memory type for device-address buffers");
  }
  deviceMemoryType = uint32_t(deviceType);
  hostMemoryType = uint32_t(hostType);
  VkMemoryPropertyFlags mappable = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  deviceMemoryMappable = (memory.memoryTypes[deviceType].propertyFlags & mappable) == mappable;
  openCount++;
  return TRIDENT_SUCCESS;
}

void Device::close() {
  if (!device)
    return;
  fn.vkDeviceWaitIdle(device);
  releaseCopyKernels(*this);
  for (auto &[address, a] : allocations)
    destroyBuffer(a);
  allocations.clear();
  if (pipelineCache)
    fn.vkDestroyPipelineCache(device, pipelineCache, nullptr);
  if (timeline)
    fn.vkDestroySemaphore(device, timeline, nullptr);
  fn.vkDestroyDevice(device, nullptr);
  device = VK_NULL_HANDLE;
  pipelineCache = VK_NULL_HANDLE;
  timeline = VK_NULL_HANDLE;
}

trident_status Device::outOfMemory(size_t bytes, uint32_t type, const std::string &why) {
  const PhysicalDevice &p = *physical;
  uint32_t heap = p.memory.memoryTypes[type].heapIndex;
  const VkMemoryHeap &h = p.memory.memoryHeaps[heap];
  std::string free;
  if (p.memoryBudgetExtension) {
    VkPhysicalDeviceMemoryBudgetPropertiesEXT budget =
        vk<VkPhysicalDeviceMemoryBudgetPropertiesEXT>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_BUDGET_PROPERTIES_EXT);
    VkPhysicalDeviceMemoryProperties2 props =
        vk<VkPhysicalDeviceMemoryProperties2>(VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_MEMORY_PROPERTIES_2);
    props.pNext = &budget;
    context->loader.vkGetPhysicalDeviceMemoryProperties2(p.handle, &props);
    uint64_t limit = budget.heapBudget[heap], used = budget.heapUsage[heap];
    free = formatByteSize(limit > used ? limit - used : 0) + " free";
  } else {
    free = "the driver does not say how much is free";
  }
  std::string kind = h.flags & VK_MEMORY_HEAP_DEVICE_LOCAL_BIT ? "device-local" : "host";
  return fail(TRIDENT_ERROR_OUT_OF_MEMORY, "out of memory: " + formatByteSize(bytes) + " requested on " + name +
                                               ", " + why + "; its " + kind + " heap holds " +
                                               formatByteSize(h.size) + ", " + free);
}

trident_status Device::createBuffer(size_t size, bool hostVisible, Allocation &out) {
  const PhysicalDevice &p = *physical;
  const uint32_t type = hostVisible ? hostMemoryType : deviceMemoryType;
  const uint64_t heapBytes = p.memory.memoryHeaps[p.memory.memoryTypes[type].heapIndex].size;
  // Sizes beyond the device's limits are invalid usage, not failures the driver
  // reports: refuse them here.
  if (size > heapBytes)
    return outOfMemory(size, type, "more than its memory");
  if (p.maxBufferBytes && size > p.maxBufferBytes)
    return outOfMemory(size, type, "more than its largest buffer (" + formatByteSize(p.maxBufferBytes) + ")");
  VkBufferCreateInfo info = vk<VkBufferCreateInfo>(VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO);
  info.size = size;
  info.usage = kBufferUsage;
  if (VkResult r = fn.vkCreateBuffer(device, &info, nullptr, &out.buffer); r != VK_SUCCESS) {
    out.buffer = VK_NULL_HANDLE;
    if (r == VK_ERROR_OUT_OF_DEVICE_MEMORY || r == VK_ERROR_OUT_OF_HOST_MEMORY)
      return outOfMemory(size, type, "vkCreateBuffer: " + resultName(r));
    return failVk(r, "creating a " + std::to_string(size) + "-byte buffer on " + name);
  }
  VkMemoryRequirements req;
  fn.vkGetBufferMemoryRequirements(device, out.buffer, &req);
  if (req.size > heapBytes) {
    fn.vkDestroyBuffer(device, out.buffer, nullptr);
    out.buffer = VK_NULL_HANDLE;
    return outOfMemory(size, type, "more than its memory");
  }
  VkMemoryAllocateFlagsInfo flags = vk<VkMemoryAllocateFlagsInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO);
  flags.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
  VkMemoryAllocateInfo alloc = vk<VkMemoryAllocateInfo>(VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO);
  alloc.pNext = &flags;
  alloc.allocationSize = req.size;
  alloc.memoryTypeIndex = type;
  if (VkResult r = fn.vkAllocateMemory(device, &alloc, nullptr, &out.memory); r != VK_SUCCESS) {
    fn.vkDestroyBuffer(device, out.buffer, nullptr);
    out.buffer = VK_NULL_HANDLE;
    out.memory = VK_NULL_HANDLE;
    if (r == VK_ERROR_OUT_OF_DEVICE_MEMORY || r == VK_ERROR_OUT_OF_HOST_MEMORY) {
      std::string why = "vkAllocateMemory: " + resultName(r);
      if (p.maxAllocationBytes && req.size > p.maxAllocationBytes)
        why += " (the largest single allocation it promises is " + formatByteSize(p.maxAllocationBytes) + ")";
      return outOfMemory(size, type, why);
    }
    return failVk(r, "allocating " + std::to_string(size) + " bytes on " + name);
  }
  fn.vkBindBufferMemory(device, out.buffer, out.memory, 0);
  VkBufferDeviceAddressInfo addressInfo = vk<VkBufferDeviceAddressInfo>(VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO);
  addressInfo.buffer = out.buffer;
  out.bufferAddress = fn.vkGetBufferDeviceAddress(device, &addressInfo);
  out.address = out.bufferAddress;
  if (hostVisible || deviceMemoryMappable) {
    if (VkResult r = fn.vkMapMemory(device, out.memory, 0, VK_WHOLE_SIZE, 0, &out.mapped); r != VK_SUCCESS) {
      destroyBuffer(out);
      return failVk(r, "mapping a buffer of " + name);
    }
  }
  return TRIDENT_SUCCESS;
}

void Device::destroyBuffer(Allocation &a) {
  if (a.mapped)
    fn.vkUnmapMemory(device, a.memory);
  if (a.buffer)
    fn.vkDestroyBuffer(device, a.buffer, nullptr);
  if (a.memory)
    fn.vkFreeMemory(device, a.memory, nullptr);
  a = Allocation{};
}

Allocation *Device::find(uint64_t address, size_t bytes) {
  std::lock_guard lock(mutex);
  auto it = allocations.upper_bound(address);
  if (it == allocations.begin())
    return nullptr;
  --it;
  Allocation &a = it->second;
  if (address - a.address > a.bytes || bytes > a.bytes - (address - a.address))
    return nullptr;
  return &a;
}

trident_status Device::wait(uint64_t value) {
  if (!value)
    return TRIDENT_SUCCESS;
  VkSemaphoreWaitInfo info = vk<VkSemaphoreWaitInfo>(VK_STRUCTURE_TYPE_SEMAPHORE_WAIT_INFO);
  info.semaphoreCount = 1;
  info.pSemaphores = &timeline;
  info.pValues = &value;
  if (VkResult r = fn.vkWaitSemaphores(device, &info, UINT64_MAX); r != VK_SUCCESS)
    return failVk(r, "waiting for " + name);
  return TRIDENT_SUCCESS;
}

} // namespace trident::vulkan

trident_context_s::~trident_context_s() {
  for (auto &d : devices)
    d->close();
  devices.clear();
  if (instance)
    validation.stop(instance);
  if (instance && loader.vkDestroyInstance)
    loader.vkDestroyInstance(instance, nullptr);
}
