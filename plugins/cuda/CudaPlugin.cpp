// The CUDA plugin: NVIDIA GPUs through the driver API, which it opens itself.
// Without a driver (or without a GPU) it still loads and reports zero devices and
// why. Each device uses its primary context; streams are non-blocking streams of it.
// Copies between two devices go through cuMemcpyPeerAsync once peer access is
// enabled for the pair (cuDeviceCanAccessPeer, cuCtxEnablePeerAccess); pairs
// without it are reported to the runtime, which stages through host memory.

#include "CudaPlugin.h"
#include "trident/Version.h"
#include "trident/sdk/DeviceProps.h"

#include "trident/support/ByteSize.h"

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

trident_device_s *deviceOf(trident_context ctx, uint32_t ordinal) {
  return ordinal < ctx->devices.size() ? ctx->devices[ordinal].get() : nullptr;
}

// ---- context and devices ----

trident_status init(const trident_init_params *, trident_context *out) {
  return guarded([&]() -> trident_status {
    auto ctx = std::make_unique<trident_context_s>();
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
        auto dev = std::make_unique<trident_device_s>();
        dev->ctx = ctx.get();
        dev->ordinal = static_cast<uint32_t>(i);
        if (d.cuDeviceGet(&dev->device, i) != CUDA_SUCCESS)
          continue;
        d.cuDeviceGetAttribute(&dev->computeMajor, kAttrComputeCapabilityMajor, dev->device);
        d.cuDeviceGetAttribute(&dev->computeMinor, kAttrComputeCapabilityMinor, dev->device);
        d.cuDeviceGetAttribute(&dev->maxSharedOptin, kAttrMaxSharedMemoryPerBlockOptin, dev->device);
        ctx->devices.push_back(std::move(dev));
      }
      if (ctx->devices.empty() && ctx->reason.empty())
        ctx->reason = "the CUDA driver reports no devices";
    }
    *out = ctx.release();
    return TRIDENT_SUCCESS;
  });
}

trident_status shutdown(trident_context ctx) {
  for (auto &dev : ctx->devices)
    while (dev->opens > 0) {
      driver().cuDevicePrimaryCtxRelease(dev->device);
      --dev->opens;
    }
  delete ctx;
  return TRIDENT_SUCCESS;
}

trident_status deviceCount(trident_context ctx, uint32_t *count, const char **reason) {
  *count = static_cast<uint32_t>(ctx->devices.size());
  if (reason)
    *reason = ctx->devices.empty() ? ctx->reason.c_str() : "";
  return TRIDENT_SUCCESS;
}

trident_status deviceProps(trident_context ctx, uint32_t ordinal, trident_device_props *props) {
  trident_device_s *dev = deviceOf(ctx, ordinal);
  if (!dev)
    return fail(TRIDENT_ERROR_NOT_FOUND, "no CUDA device " + std::to_string(ordinal));
  Driver &d = driver();
  trident_device_props p{};
  p.struct_size = props->struct_size;
  p.flags = TRIDENT_DEVICE_IS_GPU;
  if (CUresult r = d.cuDeviceGetName(p.name, sizeof p.name, dev->device); r != CUDA_SUCCESS)
    return check(r, "cuDeviceGetName");
  std::snprintf(p.target, sizeof p.target, "cuda:sm_%d%d", dev->computeMajor, dev->computeMinor);
  d.cuDeviceGetUuid(p.uuid, dev->device);
  int v = 0;
  d.cuDeviceGetAttribute(&v, kAttrWarpSize, dev->device);
  p.warp_size = static_cast<uint32_t>(v);
  d.cuDeviceGetAttribute(&v, kAttrMultiprocessorCount, dev->device);
  p.multiprocessor_count = static_cast<uint32_t>(v);
  d.cuDeviceGetAttribute(&v, kAttrMaxThreadsPerBlock, dev->device);
  p.max_threads_per_program = static_cast<uint32_t>(v);
  const int gridAttrs[3] = {kAttrMaxGridDimX, kAttrMaxGridDimY, kAttrMaxGridDimZ};
  for (int i = 0; i < 3; ++i) {
    d.cuDeviceGetAttribute(&v, gridAttrs[i], dev->device);
    p.max_grid[i] = static_cast<uint32_t>(v);
  }
  p.shared_memory_per_program = static_cast<uint64_t>(dev->maxSharedOptin);
  size_t bytes = 0;
  d.cuDeviceTotalMem(&bytes, dev->device);
  p.global_memory = bytes;
  sdk::writeDeviceProps(p, props);
  return TRIDENT_SUCCESS;
}

trident_status deviceOpen(trident_context ctx, uint32_t ordinal, trident_device *out) {
  trident_device_s *dev = deviceOf(ctx, ordinal);
  if (!dev)
    return fail(TRIDENT_ERROR_NOT_FOUND, "no CUDA device " + std::to_string(ordinal));
  std::lock_guard lock(ctx->mutex);
  if (dev->opens == 0) {
    CUcontext c = nullptr;
    CUresult r = driver().cuDevicePrimaryCtxRetain(&c, dev->device);
    // A primary context a kernel fault left behind (no one of ours holds it now): reset
    // it, which destroys it, and start a fresh one.
    if (kernelFault(r) && driver().cuDevicePrimaryCtxReset &&
        driver().cuDevicePrimaryCtxReset(dev->device) == CUDA_SUCCESS)
      r = driver().cuDevicePrimaryCtxRetain(&c, dev->device);
    if (trident_status s = check(r, "cuDevicePrimaryCtxRetain"))
      return s;
    dev->context = c;
  }
  ++dev->opens;
  *out = dev;
  return TRIDENT_SUCCESS;
}

trident_status deviceClose(trident_device dev) {
  std::lock_guard lock(dev->ctx->mutex);
  if (dev->opens <= 0)
    return fail(TRIDENT_ERROR_INVALID_ARGUMENT,
                "CUDA device " + std::to_string(dev->ordinal) + " is not open");
  if (--dev->opens == 0) {
    // Peer access belongs to the contexts; a later open starts without it.
    dev->peers.clear();
    for (auto &other : dev->ctx->devices)
      other->peers.erase(dev->ordinal);
    closeEpoch.fetch_add(1);
    driver().cuDevicePrimaryCtxRelease(dev->device);
    dev->context = nullptr;
  }
  return TRIDENT_SUCCESS;
}

trident_status deviceSynchronize(trident_device dev) {
  if (trident_status s = makeCurrent(dev))
    return s;
  return check(driver().cuCtxSynchronize(), "cuCtxSynchronize");
}

// ---- memory ----

trident_status memAlloc(trident_device dev, size_t bytes, trident_devptr *out) {
  if (trident_status s = makeCurrent(dev))
    return s;
  CUdeviceptr p = 0;
  CUresult r = driver().cuMemAlloc(&p, bytes ? bytes : 1);
  if (r == CUDA_ERROR_OUT_OF_MEMORY) {
    size_t free = 0, total = 0;
    std::string left = driver().cuMemGetInfo(&free, &total) == CUDA_SUCCESS
                           ? formatByteSize(free) + " free of " + formatByteSize(total)
                           : std::string("the driver does not say how much is free");
    return fail(TRIDENT_ERROR_OUT_OF_MEMORY, "out of memory: " + formatByteSize(bytes) + " requested on cuda:" +
                                                 std::to_string(dev->ordinal) + ", " + left + " (cuMemAlloc: " +
                                                 driver().describe(r) + ")");
  }
  if (r != CUDA_SUCCESS)
    return fail(TRIDENT_ERROR_DEVICE,
                "cuMemAlloc of " + std::to_string(bytes) + " bytes failed: " + driver().describe(r));
  *out = p;
  return TRIDENT_SUCCESS;
}

trident_status memFree(trident_device dev, trident_devptr p) {
  if (dev->imported.forget(p))
    return TRIDENT_SUCCESS;
  if (trident_status s = makeCurrent(dev))
    return s;
  return check(driver().cuMemFree(p), "cuMemFree");
}

trident_status memcpyHtoD(trident_stream s, trident_devptr dst, const void *src, size_t bytes) {
  if (trident_status st = makeCurrent(s->device))
    return st;
  return check(driver().cuMemcpyHtoDAsync(dst, src, bytes, s->stream), "cuMemcpyHtoDAsync");
}

trident_status memcpyDtoH(trident_stream s, void *dst, trident_devptr src, size_t bytes) {
  if (trident_status st = makeCurrent(s->device))
    return st;
  return check(driver().cuMemcpyDtoHAsync(dst, src, bytes, s->stream), "cuMemcpyDtoHAsync");
}

trident_status memcpyDtoD(trident_stream s, trident_devptr dst, trident_devptr src, size_t bytes) {
  if (trident_status st = makeCurrent(s->device))
    return st;
  return check(driver().cuMemcpyDtoDAsync(dst, src, bytes, s->stream), "cuMemcpyDtoDAsync");
}

trident_status memFill(trident_stream s, trident_devptr dst, uint32_t pattern, uint32_t size, size_t count) {
  if (trident_status st = makeCurrent(s->device))
    return st;
  Driver &d = driver();
  switch (size) {
  case 1:
    return check(d.cuMemsetD8Async(dst, static_cast<unsigned char>(pattern), count, s->stream),
                 "cuMemsetD8Async");
  case 2:
    return check(d.cuMemsetD16Async(dst, static_cast<unsigned short>(pattern), count, s->stream),
                 "cuMemsetD16Async");
  case 4: return check(d.cuMemsetD32Async(dst, pattern, count, s->stream), "cuMemsetD32Async");
  default:
    return fail(TRIDENT_ERROR_INVALID_ARGUMENT,
                "mem_fill pattern size must be 1, 2 or 4, got " + std::to_string(size));
  }
}

// Whether `dst`'s context may read `src`'s memory directly (NVLink or PCIe peer
// access), enabling that on first use; remembered per pair. Holds the context's mutex.
trident_status peerAccess(trident_device_s *dst, trident_device_s *src, bool *direct) {
  std::lock_guard lock(dst->ctx->mutex);
  if (auto it = dst->peers.find(src->ordinal); it != dst->peers.end()) {
    *direct = it->second;
    return TRIDENT_SUCCESS;
  }
  if (!dst->context || !src->context)
    return fail(TRIDENT_ERROR_INVALID_ARGUMENT, "peer access between CUDA devices " + std::to_string(src->ordinal) +
                                                    " and " + std::to_string(dst->ordinal) + " needs both open");
  Driver &d = driver();
  int can = 0;
  if (trident_status s = check(d.cuDeviceCanAccessPeer(&can, dst->device, src->device), "cuDeviceCanAccessPeer"))
    return s;
  if (can) {
    if (trident_status s = makeCurrent(dst))
      return s;
    CUresult r = d.cuCtxEnablePeerAccess(src->context, 0);
    if (r != CUDA_SUCCESS && r != CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED)
      return check(r, "cuCtxEnablePeerAccess");
  }
  dst->peers[src->ordinal] = can != 0;
  *direct = can != 0;
  return TRIDENT_SUCCESS;
}

trident_status devicePeerAccess(trident_device dst, trident_device src, uint32_t *direct) {
  bool can = false;
  if (trident_status s = peerAccess(dst, src, &can))
    return s;
  *direct = can ? 1 : 0;
  return TRIDENT_SUCCESS;
}

// Direct copies only: without peer access the runtime stages through host memory.
trident_status memcpyPeer(trident_stream s, trident_devptr dst, trident_device srcDevice, trident_devptr src,
                          size_t bytes) {
  bool can = false;
  if (trident_status st = peerAccess(s->device, srcDevice, &can))
    return st;
  if (!can)
    return fail(TRIDENT_ERROR_NOT_SUPPORTED, "CUDA device " + std::to_string(s->device->ordinal) +
                                                 " has no peer access to device " +
                                                 std::to_string(srcDevice->ordinal));
  if (trident_status st = makeCurrent(s->device))
    return st;
  return check(driver().cuMemcpyPeerAsync(dst, s->device->context, src, srcDevice->context, bytes, s->stream),
               "cuMemcpyPeerAsync");
}

trident_status memImport(trident_device dev, uint64_t native, size_t, trident_devptr *out) {
  return guarded([&]() -> trident_status {
    dev->imported.add(native);
    *out = native; // a CUdeviceptr is the address kernels use
    return TRIDENT_SUCCESS;
  });
}

// ---- streams and events ----

trident_status streamCreate(trident_device dev, trident_stream *out) {
  if (trident_status s = makeCurrent(dev))
    return s;
  CUstream stream = nullptr;
  if (trident_status s = check(driver().cuStreamCreate(&stream, kStreamNonBlocking), "cuStreamCreate"))
    return s;
  *out = new trident_stream_s{dev, stream, true};
  return TRIDENT_SUCCESS;
}

trident_status streamImport(trident_device dev, void *native, trident_stream *out) {
  *out = new trident_stream_s{dev, static_cast<CUstream>(native), false};
  return TRIDENT_SUCCESS;
}

trident_status streamDestroy(trident_stream s) {
  trident_status status = TRIDENT_SUCCESS;
  if (s->owned) {
    if ((status = makeCurrent(s->device)) == TRIDENT_SUCCESS)
      status = check(driver().cuStreamDestroy(s->stream), "cuStreamDestroy");
  }
  delete s;
  return status;
}

trident_status streamSynchronize(trident_stream s) {
  if (trident_status st = makeCurrent(s->device))
    return st;
  return check(driver().cuStreamSynchronize(s->stream), "cuStreamSynchronize");
}

// The event may belong to another device's context: the driver orders the two.
trident_status streamWaitEvent(trident_stream s, trident_event e) {
  if (trident_status st = makeCurrent(s->device))
    return st;
  return check(driver().cuStreamWaitEvent(s->stream, e->event, 0), "cuStreamWaitEvent");
}

trident_status eventCreate(trident_device dev, trident_event *out) {
  if (trident_status s = makeCurrent(dev))
    return s;
  CUevent event = nullptr;
  if (trident_status s = check(driver().cuEventCreate(&event, kEventDefault), "cuEventCreate"))
    return s;
  *out = new trident_event_s{dev, event};
  return TRIDENT_SUCCESS;
}

trident_status eventDestroy(trident_event e) {
  trident_status status = makeCurrent(e->device);
  if (status == TRIDENT_SUCCESS)
    status = check(driver().cuEventDestroy(e->event), "cuEventDestroy");
  delete e;
  return status;
}

trident_status eventRecord(trident_event e, trident_stream s) {
  if (trident_status st = makeCurrent(s->device))
    return st;
  return check(driver().cuEventRecord(e->event, s->stream), "cuEventRecord");
}

trident_status eventSynchronize(trident_event e) {
  if (trident_status st = makeCurrent(e->device))
    return st;
  return check(driver().cuEventSynchronize(e->event), "cuEventSynchronize");
}

trident_status eventElapsed(trident_event start, trident_event end, float *ms) {
  if (trident_status st = makeCurrent(start->device))
    return st;
  return check(driver().cuEventElapsedTime(ms, start->event, end->event), "cuEventElapsedTime");
}

trident_plugin_api makeApi() {
  trident_plugin_api a{};
  a.struct_size = sizeof a;
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
  a.event_elapsed_ms = eventElapsed;
  a.launch = launch;
  a.stream_import = streamImport;
  a.mem_import = memImport;
  a.memcpy_peer = memcpyPeer;
  a.device_peer_access = devicePeerAccess;
  return a;
}

} // namespace

// The driver's "sticky" errors: a kernel faulted while running (an illegal address or
// instruction, a failed device assert, a timeout), and the context is lost for good.
bool kernelFault(CUresult r) {
  return r == 700 || r == 702 || r == 710 || (r >= 714 && r <= 719);
}

trident_status check(CUresult r, const char *what) {
  if (r == CUDA_SUCCESS)
    return TRIDENT_SUCCESS;
  if (kernelFault(r))
    return fail(TRIDENT_ERROR_LAUNCH, std::string(what) + " failed: " + driver().describe(r) +
                                          " (a kernel failed while running; the device's context is lost, so every "
                                          "later use of it fails until all of its users have closed it)");
  return fail(TRIDENT_ERROR_DEVICE, std::string(what) + " failed: " + driver().describe(r));
}

trident_status makeCurrent(trident_device_s *device) {
  if (!device->context)
    return fail(TRIDENT_ERROR_INVALID_ARGUMENT,
                "CUDA device " + std::to_string(device->ordinal) + " is not open");
  uint64_t epoch = closeEpoch.load(std::memory_order_acquire);
  if (currentContext == device->context && currentEpoch == epoch)
    return TRIDENT_SUCCESS;
  if (trident_status s = check(driver().cuCtxSetCurrent(device->context), "cuCtxSetCurrent"))
    return s;
  currentContext = device->context;
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
