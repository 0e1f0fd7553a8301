// A stand-in for libcuda.so.1, for tests of the CUDA plugin's driver glue on machines
// without a GPU: two fake sm_90 devices whose "device memory" is host memory (4 GiB
// each, which cuMemAlloc counts: more than is left fails as out of memory), peer
// access between them, streams and events (work runs when it is enqueued), and
// modules that accept any code and record launches. A test can make the next call of
// an entry point fail (fakeCudaFailNext) or fault a device as a kernel would
// (fakeCudaFault: every later call in its context returns CUDA_ERROR_ILLEGAL_ADDRESS,
// and retaining its primary context does too until cuDevicePrimaryCtxReset).
// Entry points are found only through cuGetProcAddress_v2, as the plugin finds them.

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace {

using CUresult = int;
using Ptr = unsigned long long;

constexpr CUresult kInvalidValue = 1, kOutOfMemory = 2, kInvalidDevice = 101, kInvalidContext = 201,
                   kNotFound = 500, kIllegalAddress = 700, kPeerAlreadyEnabled = 704;
constexpr int kDevices = 2;
constexpr size_t kDeviceMemory = size_t(4) << 30;

struct Context {
  int device = 0;
};
struct Device {
  Context primary;
  int retains = 0;
  bool faulted = false;
  size_t allocated = 0;
};
struct Module {
  std::string code;
  std::vector<std::unique_ptr<std::string>> functions; // their names, freed with the module
};
struct Event {
  std::chrono::steady_clock::time_point when;
};

std::mutex mutex;
Device devices[kDevices];
thread_local Context *current = nullptr;
std::map<Ptr, std::pair<size_t, int>> allocations; // address -> bytes, device
std::map<std::pair<int, int>, bool> peersEnabled;
std::map<std::string, CUresult> failNext;
std::string lastLaunch;
int lastSharedAttribute = 0;

// The injected result of `name`, else a fault of the current context, else success.
CUresult take(const char *name) {
  if (auto it = failNext.find(name); it != failNext.end()) {
    CUresult r = it->second;
    failNext.erase(it);
    return r;
  }
  return current && devices[current->device].faulted ? kIllegalAddress : 0;
}

#define FAKE_CALL(name)                                                                                      \
  std::lock_guard lock(mutex);                                                                               \
  if (CUresult r = take(name))                                                                               \
  return r

CUresult cuInit(unsigned) { return 0; }
CUresult cuDriverGetVersion(int *v) {
  *v = 12040;
  return 0;
}
CUresult cuGetErrorName(CUresult r, const char **name) {
  *name = r == kOutOfMemory          ? "CUDA_ERROR_OUT_OF_MEMORY"
          : r == kInvalidValue       ? "CUDA_ERROR_INVALID_VALUE"
          : r == kIllegalAddress     ? "CUDA_ERROR_ILLEGAL_ADDRESS"
          : r == kInvalidContext     ? "CUDA_ERROR_INVALID_CONTEXT"
          : r == kPeerAlreadyEnabled ? "CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED"
                                     : "CUDA_ERROR_UNKNOWN";
  return 0;
}
CUresult cuGetErrorString(CUresult, const char **text) {
  *text = "fake CUDA driver error";
  return 0;
}
CUresult cuDeviceGetCount(int *n) {
  *n = kDevices;
  return 0;
}
CUresult cuDeviceGet(int *d, int ordinal) {
  *d = ordinal;
  return ordinal < kDevices ? 0 : kInvalidDevice;
}
CUresult cuDeviceGetName(char *name, int size, int d) {
  std::snprintf(name, size_t(size), "Fake NVIDIA H200 %d", d);
  return 0;
}
CUresult cuDeviceGetUuid(unsigned char uuid[16], int d) {
  for (int i = 0; i < 16; ++i)
    uuid[i] = static_cast<unsigned char>(0xc0 + i + d);
  return 0;
}
CUresult cuDeviceGetAttribute(int *v, int attribute, int) {
  switch (attribute) {
  case 1: *v = 1024; break;       // max threads per block
  case 5: *v = 0x7fffffff; break; // max grid x
  case 6:
  case 7: *v = 65535; break;     // max grid y, z
  case 8: *v = 48 * 1024; break; // shared memory per block
  case 10: *v = 32; break;       // warp size
  case 16: *v = 132; break;      // multiprocessors
  case 75: *v = 9; break;        // compute capability
  case 76: *v = 0; break;
  case 97: *v = 227 * 1024; break; // shared memory per block, opt-in
  default: *v = 0;
  }
  return 0;
}
CUresult cuDeviceTotalMem(size_t *bytes, int) {
  *bytes = kDeviceMemory;
  return 0;
}
CUresult cuDevicePrimaryCtxRetain(Context **c, int d) {
  std::lock_guard lock(mutex);
  if (devices[d].faulted)
    return kIllegalAddress;
  ++devices[d].retains;
  devices[d].primary.device = d;
  *c = &devices[d].primary;
  return 0;
}
CUresult cuDevicePrimaryCtxRelease(int d) {
  std::lock_guard lock(mutex);
  if (devices[d].retains == 0)
    return kInvalidContext;
  --devices[d].retains;
  return 0;
}
CUresult cuDevicePrimaryCtxReset(int d) {
  std::lock_guard lock(mutex);
  devices[d].faulted = false;
  devices[d].retains = 0;
  return 0;
}
CUresult cuCtxSetCurrent(Context *c) {
  current = c;
  return 0;
}
CUresult cuCtxSynchronize() {
  FAKE_CALL("cuCtxSynchronize");
  return current ? 0 : kInvalidContext;
}
CUresult cuMemAlloc(Ptr *p, size_t n) {
  FAKE_CALL("cuMemAlloc");
  Device &d = devices[current->device];
  if (n > kDeviceMemory - d.allocated)
    return kOutOfMemory;
  void *mem = std::aligned_alloc(256, (n + 255) / 256 * 256);
  if (!mem)
    return kOutOfMemory;
  *p = reinterpret_cast<uintptr_t>(mem);
  allocations[*p] = {n, current->device};
  d.allocated += n;
  return 0;
}
CUresult cuMemGetInfo(size_t *free, size_t *total) {
  std::lock_guard lock(mutex);
  *free = kDeviceMemory - devices[current->device].allocated;
  *total = kDeviceMemory;
  return 0;
}
// Destroying calls free what they destroy even when they fail (a lost context's too),
// so that the tests leak nothing.
CUresult cuMemFree(Ptr p) {
  std::lock_guard lock(mutex);
  auto it = allocations.find(p);
  if (it == allocations.end())
    return kInvalidValue;
  devices[it->second.second].allocated -= it->second.first;
  std::free(reinterpret_cast<void *>(p));
  allocations.erase(it);
  return take("cuMemFree");
}
void *at(Ptr p) { return reinterpret_cast<void *>(p); }
CUresult cuMemcpyHtoDAsync(Ptr dst, const void *src, size_t n, void *) {
  FAKE_CALL("cuMemcpyHtoDAsync");
  std::memcpy(at(dst), src, n);
  return 0;
}
CUresult cuMemcpyDtoHAsync(void *dst, Ptr src, size_t n, void *) {
  FAKE_CALL("cuMemcpyDtoHAsync");
  std::memcpy(dst, at(src), n);
  return 0;
}
CUresult cuMemcpyDtoDAsync(Ptr dst, Ptr src, size_t n, void *) {
  FAKE_CALL("cuMemcpyDtoDAsync");
  std::memmove(at(dst), at(src), n);
  return 0;
}
CUresult cuMemcpyPeerAsync(Ptr dst, Context *dstCtx, Ptr src, Context *srcCtx, size_t n, void *) {
  FAKE_CALL("cuMemcpyPeerAsync");
  if (!dstCtx || !srcCtx)
    return kInvalidContext;
  std::memcpy(at(dst), at(src), n);
  return 0;
}
CUresult cuDeviceCanAccessPeer(int *can, int d, int peer) {
  *can = d != peer;
  return 0;
}
CUresult cuCtxEnablePeerAccess(Context *peer, unsigned) {
  FAKE_CALL("cuCtxEnablePeerAccess");
  bool &enabled = peersEnabled[{current->device, peer->device}];
  if (enabled)
    return kPeerAlreadyEnabled;
  enabled = true;
  return 0;
}
template <class T> CUresult fill(Ptr dst, T value, size_t count) {
  T *p = static_cast<T *>(at(dst));
  for (size_t i = 0; i < count; ++i)
    p[i] = value;
  return 0;
}
CUresult cuMemsetD8Async(Ptr dst, unsigned char v, size_t n, void *) {
  FAKE_CALL("cuMemsetD8Async");
  return fill(dst, v, n);
}
CUresult cuMemsetD16Async(Ptr dst, unsigned short v, size_t n, void *) {
  FAKE_CALL("cuMemsetD16Async");
  return fill(dst, v, n);
}
CUresult cuMemsetD32Async(Ptr dst, unsigned v, size_t n, void *) {
  FAKE_CALL("cuMemsetD32Async");
  return fill(dst, v, n);
}
CUresult cuStreamCreate(void **s, unsigned flags) {
  FAKE_CALL("cuStreamCreate");
  *s = new unsigned(flags);
  return 0;
}
CUresult cuStreamDestroy(void *s) {
  std::lock_guard lock(mutex);
  delete static_cast<unsigned *>(s);
  return take("cuStreamDestroy");
}
CUresult cuStreamSynchronize(void *) {
  FAKE_CALL("cuStreamSynchronize");
  return 0;
}
CUresult cuStreamWaitEvent(void *, void *, unsigned) {
  FAKE_CALL("cuStreamWaitEvent");
  return 0;
}
CUresult cuEventCreate(void **e, unsigned) {
  FAKE_CALL("cuEventCreate");
  *e = new Event{std::chrono::steady_clock::now()};
  return 0;
}
CUresult cuEventDestroy(void *e) {
  std::lock_guard lock(mutex);
  delete static_cast<Event *>(e);
  return take("cuEventDestroy");
}
CUresult cuEventRecord(void *e, void *) {
  FAKE_CALL("cuEventRecord");
  static_cast<Event *>(e)->when = std::chrono::steady_clock::now();
  return 0;
}
CUresult cuEventSynchronize(void *) {
  FAKE_CALL("cuEventSynchronize");
  return 0;
}
CUresult cuEventElapsedTime(float *ms, void *a, void *b) {
  FAKE_CALL("cuEventElapsedTime");
  *ms =
      std::chrono::duration<float, std::milli>(static_cast<Event *>(b)->when - static_cast<Event *>(a)->when)
          .count();
  return 0;
}
CUresult cuModuleLoadDataEx(void **m, const void *image, unsigned, int *, void **) {
  FAKE_CALL("cuModuleLoadDataEx");
  *m = new Module{static_cast<const char *>(image), {}};
  return 0;
}
CUresult cuModuleUnload(void *m) {
  std::lock_guard lock(mutex);
  delete static_cast<Module *>(m);
  return take("cuModuleUnload");
}
CUresult cuModuleGetFunction(void **f, void *m, const char *name) {
  FAKE_CALL("cuModuleGetFunction");
  Module &module = *static_cast<Module *>(m);
  if (module.code.find(std::string(".entry ") + name) == std::string::npos)
    return kNotFound;
  module.functions.push_back(std::make_unique<std::string>(name));
  *f = module.functions.back().get();
  return 0;
}
CUresult cuFuncSetAttribute(void *, int, int value) {
  FAKE_CALL("cuFuncSetAttribute");
  lastSharedAttribute = value;
  return 0;
}
CUresult cuTensorMapEncodeTiled(void *, int, uint32_t, void *, const uint64_t *, const uint64_t *,
                                const uint32_t *, const uint32_t *, int, int, int, int) {
  return 0;
}
CUresult cuLaunchKernel(void *f, unsigned gx, unsigned gy, unsigned gz, unsigned bx, unsigned, unsigned,
                        unsigned shared, void *, void **params, void **) {
  FAKE_CALL("cuLaunchKernel");
  uint64_t first = 0;
  std::memcpy(&first, params[0], sizeof first);
  lastLaunch = *static_cast<std::string *>(f) + " grid " + std::to_string(gx) + "," + std::to_string(gy) +
               "," + std::to_string(gz) + " block " + std::to_string(bx) + " shared " +
               std::to_string(shared) + " arg0 " + std::to_string(first);
  return 0;
}

#define ENTRY(name)                                                                                          \
  { #name, reinterpret_cast < void *>(name) }
const std::map<std::string, void *> entries = {
    ENTRY(cuInit),
    ENTRY(cuDriverGetVersion),
    ENTRY(cuGetErrorName),
    ENTRY(cuGetErrorString),
    ENTRY(cuDeviceGetCount),
    ENTRY(cuDeviceGet),
    ENTRY(cuDeviceGetName),
    ENTRY(cuDeviceGetUuid),
    ENTRY(cuDeviceGetAttribute),
    ENTRY(cuDeviceTotalMem),
    ENTRY(cuDevicePrimaryCtxRetain),
    ENTRY(cuDevicePrimaryCtxRelease),
    ENTRY(cuDevicePrimaryCtxReset),
    ENTRY(cuCtxSetCurrent),
    ENTRY(cuCtxSynchronize),
    ENTRY(cuMemAlloc),
    ENTRY(cuMemGetInfo),
    ENTRY(cuMemFree),
    ENTRY(cuMemcpyHtoDAsync),
    ENTRY(cuMemcpyDtoHAsync),
    ENTRY(cuMemcpyDtoDAsync),
    ENTRY(cuMemcpyPeerAsync),
    ENTRY(cuDeviceCanAccessPeer),
    ENTRY(cuCtxEnablePeerAccess),
    ENTRY(cuMemsetD8Async),
    ENTRY(cuMemsetD16Async),
    ENTRY(cuMemsetD32Async),
    ENTRY(cuStreamCreate),
    ENTRY(cuStreamDestroy),
    ENTRY(cuStreamSynchronize),
    ENTRY(cuStreamWaitEvent),
    ENTRY(cuEventCreate),
    ENTRY(cuEventDestroy),
    ENTRY(cuEventRecord),
    ENTRY(cuEventSynchronize),
    ENTRY(cuEventElapsedTime),
    ENTRY(cuModuleLoadDataEx),
    ENTRY(cuModuleUnload),
    ENTRY(cuModuleGetFunction),
    ENTRY(cuFuncSetAttribute),
    ENTRY(cuTensorMapEncodeTiled),
    ENTRY(cuLaunchKernel),
};

} // namespace

extern "C" {

__attribute__((visibility("default"))) CUresult cuGetProcAddress_v2(const char *name, void **fn, int,
                                                                    uint64_t, int *status) {
  auto it = entries.find(name);
  *fn = it == entries.end() ? nullptr : it->second;
  if (status)
    *status = it == entries.end() ? 1 : 0;
  return it == entries.end() ? kNotFound : 0;
}

// The next call of entry point `name` returns `result`.
__attribute__((visibility("default"))) void fakeCudaFailNext(const char *name, int result) {
  std::lock_guard lock(mutex);
  failNext[name] = result;
}
// A kernel faulted on device `d`: its context is lost (sticky) until it is reset.
__attribute__((visibility("default"))) void fakeCudaFault(int d) {
  std::lock_guard lock(mutex);
  devices[d].faulted = true;
}
// How many retains device `d`'s primary context holds.
__attribute__((visibility("default"))) int fakeCudaRetains(int d) {
  std::lock_guard lock(mutex);
  return devices[d].retains;
}
// The last launch ("name grid x,y,z block x shared n arg0 v"), and the last shared-memory attribute set.
__attribute__((visibility("default"))) const char *fakeCudaLastLaunch(int *sharedAttribute) {
  std::lock_guard lock(mutex);
  *sharedAttribute = lastSharedAttribute;
  return lastLaunch.c_str();
}

} // extern "C"
