// The CUDA plugin: NVIDIA GPUs through the driver API, which it opens itself.
// Without a driver (or without a GPU) it still loads and reports zero devices and
// why. Each device uses its primary context; streams are non-blocking streams of it.
// Copies between two devices go through cuMemcpyPeerAsync once peer access is
// enabled for the pair (cuDeviceCanAccessPeer, cuCtxEnablePeerAccess); pairs
// without it are reported to the runtime, which stages through host memory.

#include "CudaPlugin.h"
#include "trident/Version.h"
#include "trident/sdk/DeviceProps.h"

#include <atomic>
#include <cstdio>
#include <cstring>

namespace trident::cuda {

namespace {

// The context this thread made current, valid while no device was closed since
// (closing may destroy a context whose address a new one then reuses).
thread_local CUcontext currentContext = nullptr;
thread_local uint64_t currentEpoch = 0;
std::atomic<uint64_t> closeEpoch{1};

// ---- context and devices ----

trident_status init(const trident_init_params *, trident_context *out) {
  return guarded([&]() -> trident_status {
    auto ctx = std::make_unique<sdk::GpuContext>(gpu());
    Driver &d = driver();
    std::string reason;
    if (!d.load(reason)) {
      ctx->reason = reason;
    } else if (CUresult r = d.cuInit(0); r != CUDA_SUCCESS) {
      ctx->reason = "the CUDA driver failed to initialize: " + d.describe(r);
    } else {
      int count = 0;
      if (CUresult r2 = d.cuDeviceGetCount(&count); r2 != CUDA_SUCCESS)
        ctx->reason = "the CUDA driver cannot count devices: " + d.describe(r2);
      for (int i = 0; i < count; ++i) {
        auto dev = std::make_unique<CudaDevice>();
        dev->context = ctx.get();
        dev->ordinal = static_cast<uint32_t>(i);
        if (d.cuDeviceGet(&dev->native, i) != CUDA_SUCCESS)
          continue;
        d.cuDeviceGetAttribute(&dev->computeMajor, kAttrComputeCapabilityMajor, dev->native);
        d.cuDeviceGetAttribute(&dev->computeMinor, kAttrComputeCapabilityMinor, dev->native);
        d.cuDeviceGetAttribute(&dev->maxSharedOptin, kAttrMaxSharedMemoryPerBlockOptin, dev->native);
        ctx->devices.push_back(std::move(dev));
      }
      if (ctx->devices.empty() && ctx->reason.empty())
        ctx->reason = "the CUDA driver reports no devices";
    }
    *out = sdk::toHandle(ctx.release());
    return TRIDENT_SUCCESS;
  });
}

trident_status deviceProps(trident_context ctx, uint32_t ordinal, trident_device_props *props) {
  sdk::GpuDevice *found = nullptr;
  if (trident_status s = sdk::findGpuDevice(ctx, ordinal, &found))
    return s;
  CudaDevice &dev = cudaDevice(*found);
  Driver &d = driver();
  trident_device_props p{};
  p.struct_size = props->struct_size;
  p.flags = TRIDENT_DEVICE_IS_GPU;
  if (CUresult r = d.cuDeviceGetName(p.name, sizeof p.name, dev.native); r != CUDA_SUCCESS)
    return check(r, "cuDeviceGetName");
  std::snprintf(p.target, sizeof p.target, "cuda:sm_%d%d", dev.computeMajor, dev.computeMinor);
  d.cuDeviceGetUuid(p.uuid, dev.native);
  int v = 0;
  d.cuDeviceGetAttribute(&v, kAttrWarpSize, dev.native);
  p.warp_size = static_cast<uint32_t>(v);
  d.cuDeviceGetAttribute(&v, kAttrMultiprocessorCount, dev.native);
  p.multiprocessor_count = static_cast<uint32_t>(v);
  d.cuDeviceGetAttribute(&v, kAttrMaxThreadsPerBlock, dev.native);
  p.max_threads_per_program = static_cast<uint32_t>(v);
  const int gridAttrs[3] = {kAttrMaxGridDimX, kAttrMaxGridDimY, kAttrMaxGridDimZ};
  for (int i = 0; i < 3; ++i) {
    d.cuDeviceGetAttribute(&v, gridAttrs[i], dev.native);
    p.max_grid[i] = static_cast<uint32_t>(v);
  }
  p.shared_memory_per_program = static_cast<uint64_t>(dev.maxSharedOptin);
  size_t bytes = 0;
  d.cuDeviceTotalMem(&bytes, dev.native);
  p.global_memory = bytes;
  sdk::writeDeviceProps(p, props);
  return TRIDENT_SUCCESS;
}

// The first open retains the device's primary context (the SDK holds the mutex).
trident_status openDevice(sdk::GpuDevice &device, bool first) {
  if (!first)
    return TRIDENT_SUCCESS;
  CudaDevice &dev = cudaDevice(device);
  Driver &d = driver();
  CUcontext c = nullptr;
  CUresult r = d.cuDevicePrimaryCtxRetain(&c, dev.native);
  // A primary context a kernel fault left behind (no one of ours holds it now): reset
  // it, which destroys it, and start a fresh one.
  if (kernelFault(r) && d.cuDevicePrimaryCtxReset && d.cuDevicePrimaryCtxReset(dev.native) == CUDA_SUCCESS)
    r = d.cuDevicePrimaryCtxRetain(&c, dev.native);
  if (trident_status s = check(r, "cuDevicePrimaryCtxRetain"))
    return s;
  dev.primary = c;
  return TRIDENT_SUCCESS;
}

// The last close releases it.
void closeDevice(sdk::GpuDevice &device) {
  CudaDevice &dev = cudaDevice(device);
  closeEpoch.fetch_add(1);
  Driver &d = driver();
  if (dev.zero && d.cuCtxSetCurrent(dev.primary) == CUDA_SUCCESS) {
    d.calls.free.fn(dev.zero);
    d.cuCtxSetCurrent(nullptr);
  }
  dev.zero = 0;
  d.cuDevicePrimaryCtxRelease(dev.native);
  dev.primary = nullptr;
}

trident_plugin_api makeApi() {
  trident_plugin_api a{};
  a.struct_size = sizeof a;
  a.last_error = sdk::lastError;
  sdk::fillGpuDriverApi(a, /*peerAccess=*/true); // peer access through cuDeviceCanAccessPeer
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
    g.api = "CUDA";
    g.plugin = "cuda";
    g.library = "driver";
    g.outOfMemory = CUDA_ERROR_OUT_OF_MEMORY;
    g.peerAlreadyEnabled = CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED;
    g.streamFlags = kStreamNonBlocking;
    g.describe = [](sdk::GpuResult r) { return driver().describe(r); };
    g.kernelFault = kernelFault;
    g.makeCurrent = makeCurrent;
    g.open = openDevice;
    g.close = closeDevice;
    g.calls = &driver().calls;
    return g;
  }();
  return g;
}

// The driver's "sticky" errors: a kernel faulted while running (an illegal address or
// instruction, a failed device assert, a timeout), and the context is lost for good.
bool kernelFault(CUresult r) {
  return r == 700 || r == 702 || r == 710 || (r >= 714 && r <= 719);
}

trident_status makeCurrent(sdk::GpuDevice &device) {
  CUcontext context = cudaDevice(device).primary;
  if (!context)
    return fail(TRIDENT_ERROR_INVALID_ARGUMENT, "CUDA device " + std::to_string(device.ordinal) + " is not open");
  uint64_t epoch = closeEpoch.load(std::memory_order_acquire);
  if (currentContext == context && currentEpoch == epoch)
    return TRIDENT_SUCCESS;
  if (trident_status s = check(driver().cuCtxSetCurrent(context), "cuCtxSetCurrent"))
    return s;
  currentContext = context;
  currentEpoch = epoch;
  return TRIDENT_SUCCESS;
}

} // namespace trident::cuda

extern "C" TRIDENT_PLUGIN_EXPORT const trident_plugin_info *trident_plugin_entry(uint32_t, uint32_t) {
  static const trident_plugin_api api = trident::cuda::makeApi();
  static const trident_plugin_info info = {
      sizeof(trident_plugin_info), TRIDENT_PLUGIN_ABI_MAJOR, TRIDENT_PLUGIN_ABI_MINOR, "cuda", TRIDENT_VERSION_STRING, &api};
  return &info;
}
