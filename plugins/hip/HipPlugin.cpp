// The HIP plugin: AMD GPUs through the HIP runtime (libamdhip64), which it opens
// itself. Without ROCm (or without a GPU) it still loads and reports zero devices
// and why. HIP keeps one primary context per device; the plugin selects the device
// on each calling thread with hipSetDevice.

#include "HipPlugin.h"
#include "trident/Version.h"
#include "trident/sdk/DeviceProps.h"

#include <cstdio>
#include <cstring>

namespace trident::hip {

namespace {

thread_local int currentDevice = -1;

// "gfx942" from "gfx942:sramecc+:xnack-" (or the whole name when it has no features).
std::string processorOf(const std::string &gcnArchName) {
  return gcnArchName.substr(0, gcnArchName.find(':'));
}

// ---- context and devices ----

trident_status init(const trident_init_params *, trident_context *out) {
  return guarded([&]() -> trident_status {
    auto ctx = std::make_unique<sdk::GpuContext>(gpu());
    Driver &d = driver();
    std::string reason;
    int count = 0;
    if (!d.load(reason)) {
      ctx->reason = reason;
    } else if (hipError_t r = d.hipInit(0); r != hipSuccess) {
      ctx->reason = r == hipErrorNoDevice ? "the HIP runtime (" + d.libraryName() + ") finds no AMD GPU"
                                          : "the HIP runtime failed to initialize: " + d.describe(r);
    } else if (hipError_t r2 = d.hipGetDeviceCount(&count); r2 != hipSuccess) {
      ctx->reason = r2 == hipErrorNoDevice ? "the HIP runtime (" + d.libraryName() + ") finds no AMD GPU"
                                           : "the HIP runtime cannot count devices: " + d.describe(r2);
      count = 0;
    }
    for (int i = 0; i < count; ++i) {
      auto dev = std::make_unique<HipDevice>();
      dev->context = ctx.get();
      dev->ordinal = static_cast<uint32_t>(ctx->devices.size());
      dev->native = i;
      if (hipError_t r = d.deviceFacts(i, dev->facts); r != hipSuccess) {
        ctx->reason = "hipGetDeviceProperties(" + std::to_string(i) + ") failed: " + d.describe(r);
        continue;
      }
      dev->arch = processorOf(dev->facts.gcnArchName);
      ctx->devices.push_back(std::move(dev));
    }
    if (ctx->devices.empty() && ctx->reason.empty())
      ctx->reason = "the HIP runtime (" + d.libraryName() + ") reports no devices";
    *out = sdk::toHandle(ctx.release());
    return TRIDENT_SUCCESS;
  });
}

trident_status deviceProps(trident_context ctx, uint32_t ordinal, trident_device_props *props) {
  sdk::GpuDevice *found = nullptr;
  if (trident_status s = sdk::findGpuDevice(ctx, ordinal, &found))
    return s;
  const HipDevice &dev = hipDevice(*found);
  const DeviceFacts &f = dev.facts;
  trident_device_props p{};
  p.struct_size = props->struct_size;
  p.flags = TRIDENT_DEVICE_IS_GPU;
  std::snprintf(p.name, sizeof p.name, "%s", f.name.c_str());
  std::snprintf(p.target, sizeof p.target, "hip:%s", dev.arch.c_str());
  if (f.hasUuid) {
    std::memcpy(p.uuid, f.uuid, sizeof p.uuid);
  } else {
    // A stable identity without hipDeviceGetUuid: the PCI location, as a custom UUID.
    const char tag[] = "trident-hip";
    std::memcpy(p.uuid, tag, sizeof tag - 1);
    p.uuid[11] = uint8_t(f.pciDomainID >> 8);
    p.uuid[12] = uint8_t(f.pciDomainID);
    p.uuid[13] = uint8_t(f.pciBusID);
    p.uuid[14] = uint8_t(f.pciDeviceID);
    p.uuid[15] = uint8_t(ordinal);
    p.uuid[6] = uint8_t((p.uuid[6] & 0x0f) | 0x80);
    p.uuid[8] = uint8_t((p.uuid[8] & 0x3f) | 0x80);
  }
  p.warp_size = static_cast<uint32_t>(f.warpSize);
  p.multiprocessor_count = static_cast<uint32_t>(f.multiProcessorCount);
  p.max_threads_per_program = static_cast<uint32_t>(f.maxThreadsPerBlock);
  for (int i = 0; i < 3; ++i)
    p.max_grid[i] = static_cast<uint32_t>(f.maxGridSize[i]);
  p.shared_memory_per_program = f.sharedMemPerBlock;
  p.global_memory = f.totalGlobalMem;
  sdk::writeDeviceProps(p, props);
  return TRIDENT_SUCCESS;
}

// HIP keeps each device's primary context itself: opening selects the device.
trident_status openDevice(sdk::GpuDevice &device, bool) { return makeCurrent(device); }

trident_plugin_api makeApi() {
  trident_plugin_api a{};
  a.struct_size = sizeof a;
  a.last_error = sdk::lastError;
  sdk::fillGpuDriverApi(a, /*peerAccess=*/false); // hipMemcpyPeerAsync stages where it must
  a.init = init;
  a.device_props = deviceProps;
  a.supports_target = supportsTarget;
  a.compile = compile;
  a.binary_release = binaryRelease;
  a.module_load = moduleLoad;
  a.module_unload = moduleUnload;
  a.module_get_kernel = moduleGetKernel;
  a.launch = launch;
  return a;
}

} // namespace

const sdk::GpuDriver &gpu() {
  static const sdk::GpuDriver g = [] {
    sdk::GpuDriver g;
    g.api = "HIP";
    g.plugin = "hip";
    g.library = "runtime";
    g.outOfMemory = hipErrorOutOfMemory;
    g.streamFlags = hipStreamNonBlocking;
    g.describe = [](sdk::GpuResult r) { return driver().describe(r); };
    g.makeCurrent = makeCurrent;
    g.open = openDevice;
    g.calls = &driver().calls;
    return g;
  }();
  return g;
}

trident_status makeCurrent(sdk::GpuDevice &device) {
  int ordinal = device.native;
  if (currentDevice == ordinal)
    return TRIDENT_SUCCESS;
  if (trident_status s = check(driver().hipSetDevice(ordinal), "hipSetDevice"))
    return s;
  currentDevice = ordinal;
  return TRIDENT_SUCCESS;
}

} // namespace trident::hip

extern "C" TRIDENT_PLUGIN_EXPORT const trident_plugin_info *trident_plugin_entry(uint32_t, uint32_t) {
  static const trident_plugin_api api = trident::hip::makeApi();
  static const trident_plugin_info info = {
      sizeof(trident_plugin_info), TRIDENT_PLUGIN_ABI_MAJOR, TRIDENT_PLUGIN_ABI_MINOR, "hip", TRIDENT_VERSION_STRING, &api};
  return &info;
}
