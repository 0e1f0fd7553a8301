// The HIP plugin: AMD GPUs through the HIP runtime (libamdhip64), which it opens
// itself. Without ROCm (or without a GPU) it still loads and reports zero devices
// and why. HIP keeps one primary context per device; the plugin selects the device
// on each calling thread with hipSetDevice.

#include "HipPlugin.h"
#include "trident/Version.h"
#include "trident/sdk/DeviceProps.h"

#include "trident/support/ByteSize.h"

#include <cstdio>
#include <cstring>

namespace trident::hip {

namespace {

thread_local int currentDevice = -1;

trident_device_s *deviceOf(trident_context ctx, uint32_t ordinal) {
  return ordinal < ctx->devices.size() ? ctx->devices[ordinal].get() : nullptr;
}

// "gfx942" from "gfx942:sramecc+:xnack-" (or the whole name when it has no features).
std::string processorOf(const std::string &gcnArchName) {
  return gcnArchName.substr(0, gcnArchName.find(':'));
}

// ---- context and devices ----

trident_status init(const trident_init_params *, trident_context *out) {
  return guarded([&]() -> trident_status {
    auto ctx = std::make_unique<trident_context_s>();
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
      auto dev = std::make_unique<trident_device_s>();
      dev->ctx = ctx.get();
      dev->ordinal = static_cast<uint32_t>(ctx->devices.size());
      dev->hipOrdinal = i;
      if (hipError_t r = d.deviceFacts(i, dev->facts); r != hipSuccess) {
        ctx->reason = "hipGetDeviceProperties(" + std::to_string(i) + ") failed: " + d.describe(r);
        continue;
      }
      dev->arch = processorOf(dev->facts.gcnArchName);
      ctx->devices.push_back(std::move(dev));
    }
    if (ctx->devices.empty() && ctx->reason.empty())
      ctx->reason = "the HIP runtime (" + d.libraryName() + ") reports no devices";
    *out = ctx.release();
    return TRIDENT_SUCCESS;
  });
}

trident_status shutdown(trident_context ctx) {
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
    return fail(TRIDENT_ERROR_NOT_FOUND, "no HIP device " + std::to_string(ordinal));
  const DeviceFacts &f = dev->facts;
  trident_device_props p{};
  p.struct_size = props->struct_size;
  p.flags = TRIDENT_DEVICE_IS_GPU;
  std::snprintf(p.name, sizeof p.name, "%s", f.name.c_str());
  std::snprintf(p.target, sizeof p.target, "hip:%s", dev->arch.c_str());
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

trident_status deviceOpen(trident_context ctx, uint32_t ordinal, trident_device *out) {
  trident_device_s *dev = deviceOf(ctx, ordinal);
  if (!dev)
    return fail(TRIDENT_ERROR_NOT_FOUND, "no HIP device " + std::to_string(ordinal));
  std::lock_guard lock(ctx->mutex);
  ++dev->opens;
  *out = dev;
  return makeCurrent(dev);
}

trident_status deviceClose(trident_device dev) {
  std::lock_guard lock(dev->ctx->mutex);
  if (dev->opens <= 0)
    return fail(TRIDENT_ERROR_INVALID_ARGUMENT,
                "HIP device " + std::to_string(dev->ordinal) + " is not open");
  --dev->opens;
  return TRIDENT_SUCCESS;
}

trident_status deviceSynchronize(trident_device dev) {
  if (trident_status s = makeCurrent(dev))
    return s;
  return check(driver().hipDeviceSynchronize(), "hipDeviceSynchronize");
}

// ---- memory ----

void *address(trident_devptr p) { return reinterpret_cast<void *>(static_cast<uintptr_t>(p)); }

trident_status memAlloc(trident_device dev, size_t bytes, trident_devptr *out) {
  if (trident_status s = makeCurrent(dev))
    return s;
  void *p = nullptr;
  hipError_t r = driver().hipMalloc(&p, bytes ? bytes : 1);
  if (r == hipErrorOutOfMemory) {
    size_t free = 0, total = 0;
    std::string left = driver().hipMemGetInfo && driver().hipMemGetInfo(&free, &total) == hipSuccess
                           ? formatByteSize(free) + " free of " + formatByteSize(total)
                           : std::string("the runtime does not say how much is free");
    return fail(TRIDENT_ERROR_OUT_OF_MEMORY, "out of memory: " + formatByteSize(bytes) + " requested on hip:" +
                                                 std::to_string(dev->ordinal) + ", " + left + " (hipMalloc: " +
                                                 driver().describe(r) + ")");
  }
  if (r != hipSuccess)
    return fail(TRIDENT_ERROR_DEVICE,
                "hipMalloc of " + std::to_string(bytes) + " bytes failed: " + driver().describe(r));
  *out = reinterpret_cast<uintptr_t>(p);
  return TRIDENT_SUCCESS;
}

trident_status memFree(trident_device dev, trident_devptr p) {
  if (dev->imported.forget(p))
    return TRIDENT_SUCCESS;
  if (trident_status s = makeCurrent(dev))
    return s;
  return check(driver().hipFree(address(p)), "hipFree");
}

trident_status memcpyHtoD(trident_stream s, trident_devptr dst, const void *src, size_t bytes) {
  if (trident_status st = makeCurrent(s->device))
    return st;
  return check(driver().hipMemcpyHtoDAsync(address(dst), const_cast<void *>(src), bytes, s->stream),
               "hipMemcpyHtoDAsync");
}

trident_status memcpyDtoH(trident_stream s, void *dst, trident_devptr src, size_t bytes) {
  if (trident_status st = makeCurrent(s->device))
    return st;
  return check(driver().hipMemcpyDtoHAsync(dst, address(src), bytes, s->stream), "hipMemcpyDtoHAsync");
}

trident_status memcpyDtoD(trident_stream s, trident_devptr dst, trident_devptr src, size_t bytes) {
  if (trident_status st = makeCurrent(s->device))
    return st;
  return check(driver().hipMemcpyDtoDAsync(address(dst), address(src), bytes, s->stream),
               "hipMemcpyDtoDAsync");
}

trident_status memFill(trident_stream s, trident_devptr dst, uint32_t pattern, uint32_t size, size_t count) {
  if (trident_status st = makeCurrent(s->device))
    return st;
  Driver &d = driver();
  switch (size) {
  case 1:
    return check(d.hipMemsetD8Async(address(dst), static_cast<unsigned char>(pattern), count, s->stream),
                 "hipMemsetD8Async");
  case 2:
    return check(d.hipMemsetD16Async(address(dst), static_cast<unsigned short>(pattern), count, s->stream),
                 "hipMemsetD16Async");
  case 4:
    return check(d.hipMemsetD32Async(address(dst), static_cast<int>(pattern), count, s->stream),
                 "hipMemsetD32Async");
  default:
    return fail(TRIDENT_ERROR_INVALID_ARGUMENT,
                "mem_fill pattern size must be 1, 2 or 4, got " + std::to_string(size));
  }
}

trident_status memcpyPeer(trident_stream s, trident_devptr dst, trident_device srcDevice, trident_devptr src,
                          size_t bytes) {
  if (trident_status st = makeCurrent(s->device))
    return st;
  return check(driver().hipMemcpyPeerAsync(address(dst), s->device->hipOrdinal, address(src),
                                           srcDevice->hipOrdinal, bytes, s->stream),
               "hipMemcpyPeerAsync");
}

trident_status memImport(trident_device dev, uint64_t native, size_t, trident_devptr *out) {
  return guarded([&]() -> trident_status {
    dev->imported.add(native);
    *out = native; // a hipDeviceptr_t is the address kernels use
    return TRIDENT_SUCCESS;
  });
}

// ---- streams and events ----

trident_status streamCreate(trident_device dev, trident_stream *out) {
  if (trident_status s = makeCurrent(dev))
    return s;
  hipStream_t stream = nullptr;
  if (trident_status s =
          check(driver().hipStreamCreateWithFlags(&stream, hipStreamNonBlocking), "hipStreamCreateWithFlags"))
    return s;
  *out = new trident_stream_s{dev, stream, true};
  return TRIDENT_SUCCESS;
}

trident_status streamImport(trident_device dev, void *native, trident_stream *out) {
  *out = new trident_stream_s{dev, static_cast<hipStream_t>(native), false};
  return TRIDENT_SUCCESS;
}

trident_status streamDestroy(trident_stream s) {
  trident_status status = TRIDENT_SUCCESS;
  if (s->owned && (status = makeCurrent(s->device)) == TRIDENT_SUCCESS)
    status = check(driver().hipStreamDestroy(s->stream), "hipStreamDestroy");
  delete s;
  return status;
}

trident_status streamSynchronize(trident_stream s) {
  if (trident_status st = makeCurrent(s->device))
    return st;
  return check(driver().hipStreamSynchronize(s->stream), "hipStreamSynchronize");
}

trident_status streamWaitEvent(trident_stream s, trident_event e) {
  if (trident_status st = makeCurrent(s->device))
    return st;
  return check(driver().hipStreamWaitEvent(s->stream, e->event, 0), "hipStreamWaitEvent");
}

trident_status eventCreate(trident_device dev, trident_event *out) {
  if (trident_status s = makeCurrent(dev))
    return s;
  hipEvent_t event = nullptr;
  if (trident_status s = check(driver().hipEventCreate(&event), "hipEventCreate"))
    return s;
  *out = new trident_event_s{dev, event};
  return TRIDENT_SUCCESS;
}

trident_status eventDestroy(trident_event e) {
  trident_status status = makeCurrent(e->device);
  if (status == TRIDENT_SUCCESS)
    status = check(driver().hipEventDestroy(e->event), "hipEventDestroy");
  delete e;
  return status;
}

trident_status eventRecord(trident_event e, trident_stream s) {
  if (trident_status st = makeCurrent(s->device))
    return st;
  return check(driver().hipEventRecord(e->event, s->stream), "hipEventRecord");
}

trident_status eventSynchronize(trident_event e) {
  if (trident_status st = makeCurrent(e->device))
    return st;
  return check(driver().hipEventSynchronize(e->event), "hipEventSynchronize");
}

trident_status eventElapsed(trident_event start, trident_event end, float *ms) {
  if (trident_status st = makeCurrent(start->device))
    return st;
  return check(driver().hipEventElapsedTime(ms, start->event, end->event), "hipEventElapsedTime");
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
  return a;
}

} // namespace

trident_status check(hipError_t r, const char *what) {
  if (r == hipSuccess)
    return TRIDENT_SUCCESS;
  return fail(TRIDENT_ERROR_DEVICE, std::string(what) + " failed: " + driver().describe(r));
}

trident_status makeCurrent(trident_device_s *device) {
  int ordinal = device->hipOrdinal;
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
