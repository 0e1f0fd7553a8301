// The Vulkan plugin: any Vulkan 1.2 device with buffer device addresses as a
// Trident device (docs/vulkan.md). libvulkan.so.1 is opened at init; without it,
// or without a usable device, the plugin reports zero devices and why.
//
// TRIDENT_VULKAN_LOADER names another loader library; TRIDENT_VULKAN_MAX_GRID caps
// the dispatch size (to test grid splitting); TRIDENT_SPIRV_OPTIMIZE=1 runs
// SPIRV-Tools' optimizer on every kernel.

#include "VulkanDevice.h"
#include "trident/Version.h"
#include "trident/sdk/DeviceProps.h"

#include <cstdio>
#include <cstring>

namespace trident::vulkan {

namespace {

trident_status init(const trident_init_params *, trident_context *out) {
  return guarded([&]() -> trident_status {
    auto ctx = std::make_unique<trident_context_s>();
    enumerateDevices(*ctx);
    *out = ctx.release();
    return TRIDENT_SUCCESS;
  });
}

trident_status shutdown(trident_context ctx) {
  delete ctx;
  return TRIDENT_SUCCESS;
}

trident_status deviceCount(trident_context ctx, uint32_t *count, const char **reason) {
  *count = uint32_t(ctx->devices.size());
  if (reason)
    *reason = ctx->devices.empty() ? ctx->reason.c_str() : nullptr;
  return TRIDENT_SUCCESS;
}

trident_status deviceProps(trident_context ctx, uint32_t ordinal, trident_device_props *props) {
  if (ordinal >= ctx->devices.size())
    return fail(TRIDENT_ERROR_NOT_FOUND, "no vulkan device " + std::to_string(ordinal));
  const PhysicalDevice &pd = *ctx->devices[ordinal]->physical;
  trident_device_props p{};
  p.struct_size = sizeof(p);
  p.flags = pd.properties.deviceType == VK_PHYSICAL_DEVICE_TYPE_CPU ? 0 : TRIDENT_DEVICE_IS_GPU;
  std::snprintf(p.name, sizeof p.name, "%s", pd.properties.deviceName);
  std::snprintf(p.target, sizeof p.target, "%s", pd.info.name.c_str());
  std::memcpy(p.uuid, pd.uuid, sizeof p.uuid);
  p.warp_size = pd.info.subgroupSize;
  p.multiprocessor_count = pd.multiprocessors;
  p.max_threads_per_program = pd.info.maxThreadsPerProgram;
  // Larger grids than the device dispatches at once are split (VulkanLaunch.cpp).
  p.max_grid[0] = p.max_grid[1] = p.max_grid[2] = 0x7fffffffu;
  p.shared_memory_per_program = pd.info.sharedMemoryBytes;
  p.global_memory = pd.globalMemory;
  sdk::writeDeviceProps(p, props);
  return TRIDENT_SUCCESS;
}

trident_status deviceOpen(trident_context ctx, uint32_t ordinal, trident_device *out) {
  if (ordinal >= ctx->devices.size())
    return fail(TRIDENT_ERROR_NOT_FOUND, "no vulkan device " + std::to_string(ordinal));
  return guarded([&]() -> trident_status {
    Device *d = ctx->devices[ordinal].get();
    if (trident_status s = d->open(); s != TRIDENT_SUCCESS)
      return s;
    probeCoopLayouts(*d); // before any kernel of it may use the layouts
    *out = toHandle(d);
    return TRIDENT_SUCCESS;
  });
}

trident_status deviceClose(trident_device device) {
  Device *d = fromHandle(device);
  std::lock_guard lock(d->mutex);
  d->openCount--; // the VkDevice lives until shutdown: handles made from it may outlive this
  return TRIDENT_SUCCESS;
}

trident_status deviceSynchronize(trident_device device) {
  Device *d = fromHandle(device);
  if (trident_status s = d->flushStreams(); s != TRIDENT_SUCCESS)
    return s;
  uint64_t last;
  {
    std::lock_guard lock(d->queueMutex);
    last = d->submitted;
  }
  return d->wait(last);
}

trident_status streamImport(trident_device device, void *, trident_stream *) {
  return fail(TRIDENT_ERROR_NOT_SUPPORTED, "the vulkan plugin cannot import a VkQueue: its work runs on " +
                                               fromHandle(device)->name + "'s own VkDevice");
}

trident_status memImport(trident_device device, uint64_t, size_t, trident_devptr *) {
  return fail(TRIDENT_ERROR_NOT_SUPPORTED, "the vulkan plugin cannot import a VkBuffer: its kernels run on " +
                                               fromHandle(device)->name + "'s own VkDevice");
}

const trident_plugin_api api = [] {
  trident_plugin_api a{};
  a.struct_size = sizeof(a);
  a.last_error = sdk::lastError;
  a.init = init;
  a.shutdown = shutdown;
  a.device_count = deviceCount;
  a.device_props = deviceProps;
  a.device_open = deviceOpen;
  a.device_close = deviceClose;
  a.device_synchronize = deviceSynchronize;
  a.supports_target = supportsTarget;
  a.compile = compile;
  a.binary_release = binaryRelease;
  a.module_load = moduleLoad;
  a.module_unload = moduleUnload;
  a.module_get_kernel = moduleGetKernel;
  a.mem_alloc = memAlloc;
  a.mem_free = memFree;
  a.memcpy_htod = memcpyHtoD;
  a.memcpy_dtoh = memcpyDtoH;
  a.memcpy_dtod = memcpyDtoD;
  a.mem_fill = memFill;
  a.stream_create = streamCreate;
  a.stream_destroy = streamDestroy;
  a.stream_synchronize = streamSynchronize;
  a.stream_wait_event = streamWaitEvent;
  a.event_create = eventCreate;
  a.event_destroy = eventDestroy;
  a.event_record = eventRecord;
  a.event_synchronize = eventSynchronize;
  a.event_elapsed_ms = eventElapsedMs;
  a.launch = launch;
  a.stream_import = streamImport;
  a.mem_import = memImport;
  a.memcpy_peer = nullptr; // the runtime copies between devices through the host
  return a;
}();

const trident_plugin_info info = {sizeof(trident_plugin_info), TRIDENT_PLUGIN_ABI_MAJOR, TRIDENT_PLUGIN_ABI_MINOR,
                                  "vulkan", TRIDENT_VERSION_STRING, &api};

} // namespace

} // namespace trident::vulkan

extern "C" TRIDENT_PLUGIN_EXPORT const trident_plugin_info *trident_plugin_entry(uint32_t, uint32_t) {
  return &trident::vulkan::info;
}
