// The plugin entry points of trident/sdk/GpuDriver.h: each makes the device current,
// calls the driver through the plugin's table and turns its result into a status.
#include "trident/sdk/GpuDriver.h"

#include "trident/sdk/Status.h"
#include "trident/support/ByteSize.h"

namespace trident::sdk {

trident_status GpuDriver::check(GpuResult r, const std::string &what) const {
  if (r == 0)
    return TRIDENT_SUCCESS;
  if (kernelFault && kernelFault(r))
    return fail(TRIDENT_ERROR_LAUNCH,
                what + " failed: " + describe(r) +
                    " (a kernel failed while running; the driver keeps this error, so every later "
                    "use of the device in this process fails: restart the process to use it again)");
  return fail(TRIDENT_ERROR_DEVICE, what + " failed: " + describe(r));
}

trident_status findGpuDevice(trident_context c, uint32_t ordinal, GpuDevice **out) {
  GpuContext &ctx = gpuContext(c);
  if (ordinal >= ctx.devices.size())
    return fail(TRIDENT_ERROR_NOT_FOUND,
                std::string("no ") + ctx.driver.api + " device " + std::to_string(ordinal));
  *out = ctx.devices[ordinal].get();
  return TRIDENT_SUCCESS;
}

namespace {

trident_device toHandle(GpuDevice *d) { return reinterpret_cast<trident_device>(d); }
const GpuDriver &driverOf(const GpuDevice &d) { return d.context->driver; }
const GpuCalls &callsOf(const GpuDevice &d) { return *d.context->driver.calls; }

// Makes the device current, then checks what `call` returns.
template <class Call> trident_status onDevice(GpuDevice &d, const char *what, Call &&call) {
  const GpuDriver &driver = driverOf(d);
  if (trident_status s = driver.makeCurrent(d))
    return s;
  return driver.check(call(), what);
}

// ---- context and devices ----

trident_status shutdown(trident_context c) {
  GpuContext *ctx = &gpuContext(c);
  for (auto &dev : ctx->devices)
    if (dev->opens > 0 && ctx->driver.close) {
      ctx->driver.close(*dev);
      dev->opens = 0;
    }
  delete ctx;
  return TRIDENT_SUCCESS;
}

trident_status deviceCount(trident_context c, uint32_t *count, const char **reason) {
  GpuContext &ctx = gpuContext(c);
  *count = static_cast<uint32_t>(ctx.devices.size());
  if (reason)
    *reason = ctx.devices.empty() ? ctx.reason.c_str() : "";
  return TRIDENT_SUCCESS;
}

trident_status deviceOpen(trident_context c, uint32_t ordinal, trident_device *out) {
  GpuDevice *dev = nullptr;
  if (trident_status s = findGpuDevice(c, ordinal, &dev))
    return s;
  GpuContext &ctx = gpuContext(c);
  std::lock_guard lock(ctx.mutex);
  if (ctx.driver.open)
    if (trident_status s = ctx.driver.open(*dev, dev->opens == 0))
      return s;
  ++dev->opens;
  *out = toHandle(dev);
  return TRIDENT_SUCCESS;
}

trident_status deviceClose(trident_device d) {
  GpuDevice &dev = gpuDevice(d);
  GpuContext &ctx = *dev.context;
  std::lock_guard lock(ctx.mutex);
  if (dev.opens <= 0)
    return fail(TRIDENT_ERROR_INVALID_ARGUMENT,
                std::string(ctx.driver.api) + " device " + std::to_string(dev.ordinal) + " is not open");
  if (--dev.opens == 0) {
    // Peer access belongs to the devices' contexts; a later open starts without it.
    dev.peers.clear();
    for (auto &other : ctx.devices)
      other->peers.erase(dev.ordinal);
    if (ctx.driver.close)
      ctx.driver.close(dev);
  }
  return TRIDENT_SUCCESS;
}

trident_status deviceSynchronize(trident_device d) {
  GpuDevice &dev = gpuDevice(d);
  const GpuCalls &c = callsOf(dev);
  return onDevice(dev, c.synchronize.name, [&] { return c.synchronize.fn(); });
}

// ---- memory ----

trident_status memAlloc(trident_device d, size_t bytes, trident_devptr *out) {
  GpuDevice &dev = gpuDevice(d);
  const GpuDriver &driver = driverOf(dev);
  const GpuCalls &c = callsOf(dev);
  if (trident_status s = driver.makeCurrent(dev))
    return s;
  GpuPtr p = 0;
  GpuResult r = c.alloc.fn(&p, bytes ? bytes : 1);
  if (r == driver.outOfMemory) {
    size_t free = 0, total = 0;
    std::string left = c.memInfo.fn && c.memInfo.fn(&free, &total) == 0
                           ? formatByteSize(free) + " free of " + formatByteSize(total)
                           : std::string("the ") + driver.library + " does not say how much is free";
    return fail(TRIDENT_ERROR_OUT_OF_MEMORY, "out of memory: " + formatByteSize(bytes) + " requested on " +
                                                 driver.plugin + ":" + std::to_string(dev.ordinal) + ", " +
                                                 left + " (" + c.alloc.name + ": " + driver.describe(r) +
                                                 ")");
  }
  if (trident_status s =
          driver.check(r, std::string(c.alloc.name) + " of " + std::to_string(bytes) + " bytes"))
    return s;
  *out = p;
  return TRIDENT_SUCCESS;
}

trident_status memFree(trident_device d, trident_devptr p) {
  GpuDevice &dev = gpuDevice(d);
  if (dev.imported.forget(p))
    return TRIDENT_SUCCESS;
  const GpuCalls &c = callsOf(dev);
  return onDevice(dev, c.free.name, [&] { return c.free.fn(p); });
}

trident_status memcpyHtoD(trident_stream st, trident_devptr dst, const void *src, size_t bytes) {
  GpuStream &s = gpuStream(st);
  const GpuCalls &c = callsOf(*s.device);
  return onDevice(*s.device, c.copyHtoD.name, [&] { return c.copyHtoD.fn(dst, src, bytes, s.native); });
}

trident_status memcpyDtoH(trident_stream st, void *dst, trident_devptr src, size_t bytes) {
  GpuStream &s = gpuStream(st);
  const GpuCalls &c = callsOf(*s.device);
  return onDevice(*s.device, c.copyDtoH.name, [&] { return c.copyDtoH.fn(dst, src, bytes, s.native); });
}

trident_status memcpyDtoD(trident_stream st, trident_devptr dst, trident_devptr src, size_t bytes) {
  GpuStream &s = gpuStream(st);
  const GpuCalls &c = callsOf(*s.device);
  return onDevice(*s.device, c.copyDtoD.name, [&] { return c.copyDtoD.fn(dst, src, bytes, s.native); });
}

trident_status memFill(trident_stream st, trident_devptr dst, uint32_t pattern, uint32_t size, size_t count) {
  GpuStream &s = gpuStream(st);
  GpuDevice &dev = *s.device;
  const GpuCalls &c = callsOf(dev);
  if (trident_status status = driverOf(dev).makeCurrent(dev))
    return status;
  const GpuDriver &driver = driverOf(dev);
  switch (size) {
  case 1:
    return driver.check(c.fill8.fn(dst, static_cast<unsigned char>(pattern), count, s.native), c.fill8.name);
  case 2:
    return driver.check(c.fill16.fn(dst, static_cast<unsigned short>(pattern), count, s.native),
                        c.fill16.name);
  case 4: return driver.check(c.fill32.fn(dst, pattern, count, s.native), c.fill32.name);
  default:
    return fail(TRIDENT_ERROR_INVALID_ARGUMENT,
                "mem_fill pattern size must be 1, 2 or 4, got " + std::to_string(size));
  }
}

// Whether `dst` may read `src`'s memory directly (NVLink or PCIe peer access),
// enabling that on first use; remembered per pair.
trident_status peerAccess(GpuDevice &dst, GpuDevice &src, bool *direct) {
  GpuContext &ctx = *dst.context;
  const GpuCalls &c = *ctx.driver.calls;
  std::lock_guard lock(ctx.mutex);
  if (auto it = dst.peers.find(src.ordinal); it != dst.peers.end()) {
    *direct = it->second;
    return TRIDENT_SUCCESS;
  }
  if (dst.opens <= 0 || src.opens <= 0)
    return fail(TRIDENT_ERROR_INVALID_ARGUMENT, std::string("peer access between ") + ctx.driver.api +
                                                    " devices " + std::to_string(src.ordinal) + " and " +
                                                    std::to_string(dst.ordinal) + " needs both open");
  int can = 0;
  if (trident_status s =
          ctx.driver.check(c.canAccessPeer.fn(&can, dst.native, src.native), c.canAccessPeer.name))
    return s;
  if (can) {
    if (trident_status s = ctx.driver.makeCurrent(dst))
      return s;
    GpuResult r = c.enablePeer.fn(dst, src);
    if (r != ctx.driver.peerAlreadyEnabled)
      if (trident_status s = ctx.driver.check(r, c.enablePeer.name))
        return s;
  }
  dst.peers[src.ordinal] = can != 0;
  *direct = can != 0;
  return TRIDENT_SUCCESS;
}

trident_status devicePeerAccess(trident_device dst, trident_device src, uint32_t *direct) {
  bool can = false;
  if (trident_status s = peerAccess(gpuDevice(dst), gpuDevice(src), &can))
    return s;
  *direct = can ? 1 : 0;
  return TRIDENT_SUCCESS;
}

// With peer access decided by the driver, direct copies only: without it the runtime
// stages through host memory.
template <bool kPeerAccess>
trident_status memcpyPeer(trident_stream st, trident_devptr dst, trident_device srcHandle, trident_devptr src,
                          size_t bytes) {
  GpuStream &s = gpuStream(st);
  GpuDevice &srcDevice = gpuDevice(srcHandle);
  if constexpr (kPeerAccess) {
    bool can = false;
    if (trident_status status = peerAccess(*s.device, srcDevice, &can))
      return status;
    if (!can)
      return fail(TRIDENT_ERROR_NOT_SUPPORTED,
                  std::string(driverOf(*s.device).api) + " device " + std::to_string(s.device->ordinal) +
                      " has no peer access to device " + std::to_string(srcDevice.ordinal));
  }
  const GpuCalls &c = callsOf(*s.device);
  return onDevice(*s.device, c.copyPeer.name,
                  [&] { return c.copyPeer.fn(dst, *s.device, src, srcDevice, bytes, s.native); });
}

trident_status memImport(trident_device d, uint64_t native, size_t, trident_devptr *out) {
  return guarded([&]() -> trident_status {
    gpuDevice(d).imported.add(native);
    *out = native; // a driver's device address is the address kernels use
    return TRIDENT_SUCCESS;
  });
}

// ---- streams and events ----

trident_status streamCreate(trident_device d, trident_stream *out) {
  GpuDevice &dev = gpuDevice(d);
  const GpuCalls &c = callsOf(dev);
  GpuHandle stream = nullptr;
  if (trident_status s = onDevice(dev, c.streamCreate.name,
                                  [&] { return c.streamCreate.fn(&stream, driverOf(dev).streamFlags); }))
    return s;
  *out = reinterpret_cast<trident_stream>(new GpuStream{&dev, stream, true});
  return TRIDENT_SUCCESS;
}

trident_status streamImport(trident_device d, void *native, trident_stream *out) {
  *out = reinterpret_cast<trident_stream>(new GpuStream{&gpuDevice(d), native, false});
  return TRIDENT_SUCCESS;
}

trident_status streamDestroy(trident_stream st) {
  GpuStream *s = &gpuStream(st);
  trident_status status = TRIDENT_SUCCESS;
  if (s->owned) {
    const GpuCalls &c = callsOf(*s->device);
    status = onDevice(*s->device, c.streamDestroy.name, [&] { return c.streamDestroy.fn(s->native); });
  }
  delete s;
  return status;
}

trident_status streamSynchronize(trident_stream st) {
  GpuStream &s = gpuStream(st);
  const GpuCalls &c = callsOf(*s.device);
  return onDevice(*s.device, c.streamSynchronize.name, [&] { return c.streamSynchronize.fn(s.native); });
}

// The event may belong to another device: the driver orders the two.
trident_status streamWaitEvent(trident_stream st, trident_event e) {
  GpuStream &s = gpuStream(st);
  const GpuCalls &c = callsOf(*s.device);
  return onDevice(*s.device, c.streamWaitEvent.name,
                  [&] { return c.streamWaitEvent.fn(s.native, gpuEvent(e).native, 0); });
}

trident_status eventCreate(trident_device d, trident_event *out) {
  GpuDevice &dev = gpuDevice(d);
  const GpuCalls &c = callsOf(dev);
  GpuHandle event = nullptr;
  if (trident_status s = onDevice(dev, c.eventCreate.name, [&] { return c.eventCreate.fn(&event); }))
    return s;
  *out = reinterpret_cast<trident_event>(new GpuEvent{&dev, event});
  return TRIDENT_SUCCESS;
}

trident_status eventDestroy(trident_event ev) {
  GpuEvent *e = &gpuEvent(ev);
  const GpuCalls &c = callsOf(*e->device);
  trident_status status =
      onDevice(*e->device, c.eventDestroy.name, [&] { return c.eventDestroy.fn(e->native); });
  delete e;
  return status;
}

trident_status eventRecord(trident_event ev, trident_stream st) {
  GpuStream &s = gpuStream(st);
  const GpuCalls &c = callsOf(*s.device);
  return onDevice(*s.device, c.eventRecord.name,
                  [&] { return c.eventRecord.fn(gpuEvent(ev).native, s.native); });
}

trident_status eventSynchronize(trident_event ev) {
  GpuEvent &e = gpuEvent(ev);
  const GpuCalls &c = callsOf(*e.device);
  return onDevice(*e.device, c.eventSynchronize.name, [&] { return c.eventSynchronize.fn(e.native); });
}

trident_status eventElapsed(trident_event start, trident_event end, float *ms) {
  GpuEvent &s = gpuEvent(start);
  const GpuCalls &c = callsOf(*s.device);
  return onDevice(*s.device, c.eventElapsed.name,
                  [&] { return c.eventElapsed.fn(ms, s.native, gpuEvent(end).native); });
}

} // namespace

void fillGpuDriverApi(trident_plugin_api &a, bool peerAccess) {
  a.shutdown = shutdown;
  a.device_count = deviceCount;
  a.device_open = deviceOpen;
  a.device_close = deviceClose;
  a.device_synchronize = deviceSynchronize;
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
  a.stream_import = streamImport;
  a.mem_import = memImport;
  a.memcpy_peer = peerAccess ? memcpyPeer<true> : memcpyPeer<false>;
  a.device_peer_access = peerAccess ? devicePeerAccess : nullptr;
}

} // namespace trident::sdk
