// The host-memory devices of trident/sdk/HostDevices.h: every operation runs when it
// is enqueued, so streams are trivially in order and events record the time of their
// recording.
#include "trident/sdk/HostDevices.h"

#include "trident/sdk/HostMemory.h"
#include "trident/sdk/Status.h"
#include "trident/support/ByteSize.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <sys/mman.h>
#include <thread>
#include <unistd.h>

struct trident_context_s {
  std::string plugin;
  std::vector<std::unique_ptr<trident::sdk::HostDevice>> devices;
  std::unique_ptr<trident::sdk::ThreadPool> pool;
};

struct trident_device_s {}; // never instantiated: handles point at sdk::HostDevice
struct trident_stream_s {
  trident::sdk::HostDevice *device = nullptr;
};
struct trident_event_s {
  trident::sdk::HostDevice *device = nullptr;
  std::atomic<bool> recorded{false};
  std::atomic<int64_t> nanoseconds{0};
};

namespace trident::sdk {

namespace {

// Allocations of 4 MiB or more (numpy's threshold too) start on a 2 MiB boundary, fill
// whole 2 MiB pages and are advised MADV_HUGEPAGE, so that with transparent huge pages
// in "madvise" mode (Debian's default) they are backed by huge pages, as numpy's arrays
// are: a kernel streaming through 4 KiB pages misses the TLB every 4 KiB (vector add
// 2^25 f32 on cpu:0 lost about a tenth of its bandwidth to it; docs/cpu.md).
// TRIDENT_HUGE_PAGES=0 keeps them on 4 KiB pages (for measuring).
constexpr size_t kHugePage = size_t(2) << 20;
constexpr size_t kHugeAllocation = size_t(4) << 20;

void *allocateHost(size_t bytes) {
  const char *env = std::getenv("TRIDENT_HUGE_PAGES");
  if (bytes >= kHugeAllocation && !(env && std::strcmp(env, "0") == 0)) {
    size_t rounded = (bytes + kHugePage - 1) / kHugePage * kHugePage;
    void *p = std::aligned_alloc(kHugePage, rounded);
    if (p)
      madvise(p, rounded, MADV_HUGEPAGE); // advice: where it fails, 4 KiB pages
    return p;
  }
  return std::aligned_alloc(256, (std::max<size_t>(bytes, 1) + 255) / 256 * 256);
}

int64_t nowNs() {
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch())
      .count();
}

trident_device toHandle(HostDevice *d) { return reinterpret_cast<trident_device>(d); }

trident_status outOfRange(HostDevice &d, uint64_t addr, size_t bytes) {
  std::string message = "[";
  message += hex(addr);
  message += ", ";
  message += hex(addr + bytes);
  message += ") is not inside one allocation of ";
  message += d.name;
  return fail(TRIDENT_ERROR_INVALID_ARGUMENT, std::move(message));
}

trident_status shutdown(trident_context ctx) {
  delete ctx;
  return TRIDENT_SUCCESS;
}

trident_status deviceCount(trident_context ctx, uint32_t *count, const char **reason) {
  *count = uint32_t(ctx->devices.size());
  if (reason)
    *reason = ctx->devices.empty() ? "the device count variable is 0" : nullptr;
  return TRIDENT_SUCCESS;
}

trident_status deviceOpen(trident_context ctx, uint32_t ordinal, trident_device *out) {
  if (ordinal >= ctx->devices.size())
    return fail(TRIDENT_ERROR_NOT_FOUND, "no " + ctx->plugin + " device " + std::to_string(ordinal));
  HostDevice *d = ctx->devices[ordinal].get();
  d->openCount++;
  *out = toHandle(d);
  return TRIDENT_SUCCESS;
}

trident_status deviceClose(trident_device device) {
  fromHandle(device)->openCount--;
  return TRIDENT_SUCCESS;
}

trident_status deviceSynchronize(trident_device) { return TRIDENT_SUCCESS; } // work runs when enqueued

// ---- memory ----

// Requests from this size up are checked against the free memory first; below it
// the check costs more than it can prevent.
constexpr size_t kCheckedAllocation = size_t(1) << 20;

trident_status outOfMemory(const HostDevice &d, size_t bytes, const HostMemory &m) {
  return fail(TRIDENT_ERROR_OUT_OF_MEMORY, "out of memory: " + formatByteSize(bytes) + " requested on " + d.name +
                                               ", " + formatByteSize(m.available) + " free (" +
                                               formatByteSize(m.total) + " of host memory and swap in all)");
}

trident_status memAlloc(trident_device device, size_t bytes, trident_devptr *out) {
  return guarded([&]() -> trident_status {
    HostDevice &d = *fromHandle(device);
    if (bytes >= kCheckedAllocation) {
      HostMemory m = queryHostMemory();
      if (bytes > m.available)
        return outOfMemory(d, bytes, m);
    }
    if (bytes > SIZE_MAX - kHugePage)
      return outOfMemory(d, bytes, queryHostMemory());
    std::unique_ptr<void, decltype(&std::free)> p(allocateHost(bytes), &std::free);
    if (!p)
      return outOfMemory(d, bytes, queryHostMemory());
    uint64_t address = reinterpret_cast<uint64_t>(p.get());
    std::lock_guard lock(d.mutex);
    d.allocations[address] = Allocation{bytes, true};
    p.release();
    d.generation++;
    *out = address;
    return TRIDENT_SUCCESS;
  });
}

trident_status memFree(trident_device device, trident_devptr ptr) {
  HostDevice &d = *fromHandle(device);
  std::lock_guard lock(d.mutex);
  auto it = d.allocations.find(ptr);
  if (it == d.allocations.end())
    return fail(TRIDENT_ERROR_INVALID_ARGUMENT, hex(ptr) + " is not an allocation of " + d.name);
  if (it->second.owned)
    std::free(reinterpret_cast<void *>(ptr));
  d.allocations.erase(it);
  d.generation++;
  return TRIDENT_SUCCESS;
}

trident_status memImport(trident_device device, uint64_t native, size_t bytes, trident_devptr *out) {
  HostDevice &d = *fromHandle(device);
  if (native == 0)
    return fail(TRIDENT_ERROR_INVALID_ARGUMENT, "cannot import a null host pointer");
  std::lock_guard lock(d.mutex);
  d.allocations[native] = Allocation{bytes, false};
  d.generation++;
  *out = native;
  return TRIDENT_SUCCESS;
}

trident_status memcpyHtoD(trident_stream stream, trident_devptr dst, const void *src, size_t bytes) {
  HostDevice &d = *stream->device;
  if (!d.contains(dst, bytes))
    return outOfRange(d, dst, bytes);
  std::memcpy(reinterpret_cast<void *>(dst), src, bytes);
  return TRIDENT_SUCCESS;
}

trident_status memcpyDtoH(trident_stream stream, void *dst, trident_devptr src, size_t bytes) {
  HostDevice &d = *stream->device;
  if (!d.contains(src, bytes))
    return outOfRange(d, src, bytes);
  std::memcpy(dst, reinterpret_cast<const void *>(src), bytes);
  return TRIDENT_SUCCESS;
}

trident_status memcpyDtoD(trident_stream stream, trident_devptr dst, trident_devptr src, size_t bytes) {
  HostDevice &d = *stream->device;
  if (!d.contains(dst, bytes))
    return outOfRange(d, dst, bytes);
  if (!d.contains(src, bytes))
    return outOfRange(d, src, bytes);
  std::memmove(reinterpret_cast<void *>(dst), reinterpret_cast<const void *>(src), bytes);
  return TRIDENT_SUCCESS;
}

trident_status memcpyPeer(trident_stream stream, trident_devptr dst, trident_device srcDevice, trident_devptr src,
                          size_t bytes) {
  HostDevice &d = *stream->device;
  HostDevice &s = *fromHandle(srcDevice);
  if (!d.contains(dst, bytes))
    return outOfRange(d, dst, bytes);
  if (!s.contains(src, bytes))
    return outOfRange(s, src, bytes);
  std::memmove(reinterpret_cast<void *>(dst), reinterpret_cast<const void *>(src), bytes);
  return TRIDENT_SUCCESS;
}

// The devices of one plugin share one address space: every pair copies directly.
trident_status devicePeerAccess(trident_device, trident_device, uint32_t *direct) {
  *direct = 1;
  return TRIDENT_SUCCESS;
}

trident_status memFill(trident_stream stream, trident_devptr dst, uint32_t pattern, uint32_t patternSize,
                       size_t count) {
  HostDevice &d = *stream->device;
  if (patternSize != 1 && patternSize != 2 && patternSize != 4)
    return fail(TRIDENT_ERROR_INVALID_ARGUMENT, "fill pattern size must be 1, 2 or 4 bytes, not " +
                                                    std::to_string(patternSize));
  size_t bytes = count * patternSize;
  if (!d.contains(dst, bytes))
    return outOfRange(d, dst, bytes);
  auto *p = reinterpret_cast<uint8_t *>(dst);
  if (patternSize == 1) {
    std::memset(p, int(pattern & 0xff), bytes);
    return TRIDENT_SUCCESS;
  }
  for (size_t i = 0; i < count; ++i)
    std::memcpy(p + i * patternSize, &pattern, patternSize); // little-endian: the low bytes
  return TRIDENT_SUCCESS;
}

// ---- streams and events ----

trident_status streamCreate(trident_device device, trident_stream *out) {
  return guarded([&]() -> trident_status {
    auto *s = new trident_stream_s;
    s->device = fromHandle(device);
    *out = s;
    return TRIDENT_SUCCESS;
  });
}

trident_status streamImport(trident_device device, void *, trident_stream *out) { return streamCreate(device, out); }

trident_status streamDestroy(trident_stream stream) {
  delete stream;
  return TRIDENT_SUCCESS;
}

trident_status streamSynchronize(trident_stream) { return TRIDENT_SUCCESS; }
trident_status streamWaitEvent(trident_stream, trident_event) { return TRIDENT_SUCCESS; }

trident_status eventCreate(trident_device device, trident_event *out) {
  return guarded([&]() -> trident_status {
    auto *e = new trident_event_s;
    e->device = fromHandle(device);
    *out = e;
    return TRIDENT_SUCCESS;
  });
}

trident_status eventDestroy(trident_event event) {
  delete event;
  return TRIDENT_SUCCESS;
}

trident_status eventRecord(trident_event event, trident_stream) {
  event->nanoseconds = nowNs();
  event->recorded = true;
  return TRIDENT_SUCCESS;
}

trident_status eventSynchronize(trident_event) { return TRIDENT_SUCCESS; }

trident_status eventElapsedMs(trident_event start, trident_event end, float *ms) {
  if (!start->recorded || !end->recorded)
    return fail(TRIDENT_ERROR_INVALID_ARGUMENT, "elapsed time of an event that was never recorded");
  *ms = float(double(end->nanoseconds - start->nanoseconds) / 1e6);
  return TRIDENT_SUCCESS;
}

} // namespace

unsigned envCount(const char *name, unsigned fallback, unsigned limit) {
  const char *v = std::getenv(name);
  if (!v || !*v)
    return fallback;
  char *end = nullptr;
  long n = std::strtol(v, &end, 10);
  if (*end != '\0' || n < 0 || n > long(limit))
    return fallback;
  return unsigned(n);
}

trident_status initHostDevices(const HostDeviceConfig &config, trident_context *out) {
  return guarded([&]() -> trident_status {
    auto ctx = std::make_unique<trident_context_s>();
    ctx->plugin = config.plugin;
    unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    unsigned threads = envCount(config.threadsVariable, cores, 1024);
    ctx->pool = std::make_unique<ThreadPool>(threads > 0 ? threads - 1 : 0); // the caller is one more
    unsigned count = envCount(config.devicesVariable, 1, 64);
    for (unsigned i = 0; i < count; ++i) {
      auto d = std::make_unique<HostDevice>();
      d->context = ctx.get();
      d->ordinal = i;
      d->name = ctx->plugin + ":" + std::to_string(i);
      ctx->devices.push_back(std::move(d));
    }
    *out = ctx.release();
    return TRIDENT_SUCCESS;
  });
}

trident_status baseDeviceProps(trident_context ctx, uint32_t ordinal, trident_device_props &p) {
  if (ordinal >= ctx->devices.size())
    return fail(TRIDENT_ERROR_NOT_FOUND, "no " + ctx->plugin + " device " + std::to_string(ordinal));
  p = trident_device_props{};
  p.struct_size = sizeof(p);
  p.flags = TRIDENT_DEVICE_HOST_MEMORY;
  // A stable identity: the same bytes for the same plugin and ordinal in every process.
  char tag[13] = {};
  std::snprintf(tag, sizeof tag, "trident-%s", ctx->plugin.c_str());
  std::memcpy(p.uuid, tag, std::strlen(tag));
  p.uuid[12] = uint8_t(ordinal >> 24);
  p.uuid[13] = uint8_t(ordinal >> 16);
  p.uuid[14] = uint8_t(ordinal >> 8);
  p.uuid[15] = uint8_t(ordinal);
  p.uuid[6] = uint8_t((p.uuid[6] & 0x0f) | 0x80); // a custom (version 8) UUID
  p.uuid[8] = uint8_t((p.uuid[8] & 0x3f) | 0x80);
  p.warp_size = 1;
  p.multiprocessor_count = ctx->pool->concurrency();
  p.max_threads_per_program = 1;
  p.max_grid[0] = 0x7fffffffu;
  p.max_grid[1] = 65535;
  p.max_grid[2] = 65535;
  long pages = ::sysconf(_SC_PHYS_PAGES), pageSize = ::sysconf(_SC_PAGE_SIZE);
  p.global_memory = pages > 0 && pageSize > 0 ? uint64_t(pages) * uint64_t(pageSize) : 0;
  return TRIDENT_SUCCESS;
}

void fillHostDeviceApi(trident_plugin_api &a) {
  a.struct_size = sizeof(a);
  a.last_error = lastError;
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
  a.event_elapsed_ms = eventElapsedMs;
  a.stream_import = streamImport;
  a.mem_import = memImport;
  a.memcpy_peer = memcpyPeer;
  a.device_peer_access = devicePeerAccess;
}

ThreadPool &threadPool(trident_context ctx) { return *ctx->pool; }
HostDevice &streamDevice(trident_stream s) { return *s->device; }

HostDevice::~HostDevice() {
  extension.reset(); // before the memory it may refer to
  for (auto &[base, a] : allocations)
    if (a.owned)
      std::free(reinterpret_cast<void *>(base));
}

bool HostDevice::contains(uint64_t addr, size_t bytes) {
  std::lock_guard lock(mutex);
  auto it = allocations.upper_bound(addr);
  if (it == allocations.begin())
    return false;
  --it;
  return addr - it->first <= it->second.bytes && bytes <= it->second.bytes - (addr - it->first);
}

std::vector<std::pair<uint64_t, size_t>> HostDevice::snapshot(uint64_t &generationOut) {
  std::lock_guard lock(mutex);
  generationOut = generation.load();
  std::vector<std::pair<uint64_t, size_t>> out;
  out.reserve(allocations.size());
  for (const auto &[base, a] : allocations)
    out.emplace_back(base, a.bytes);
  return out;
}

} // namespace trident::sdk
