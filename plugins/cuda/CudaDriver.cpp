#include "CudaDriver.h"

#include <dlfcn.h>
#include <mutex>

namespace trident::cuda {

namespace {

// cuGetProcAddress as CUDA 12 declares it (_v2, with a status out-parameter), and as 11.3 did.
using GetProcAddressV2 = CUresult (*)(const char *, void **, int, uint64_t, int *);
using GetProcAddressV1 = CUresult (*)(const char *, void **, int, uint64_t);

} // namespace

Driver &driver() {
  static Driver d;
  return d;
}

bool Driver::load(std::string &reason) {
  static std::mutex mutex;
  std::lock_guard lock(mutex);
  if (loaded_ || !failure_.empty()) {
    reason = failure_;
    return loaded_;
  }
  void *lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *e = dlerror();
    failure_ = std::string("the CUDA driver (libcuda.so.1) cannot be opened: ") + (e ? e : "unknown error");
    reason = failure_;
    return false;
  }
  auto v2 = reinterpret_cast<GetProcAddressV2>(dlsym(lib, "cuGetProcAddress_v2"));
  auto v1 = reinterpret_cast<GetProcAddressV1>(dlsym(lib, "cuGetProcAddress"));
  if (!v2 && !v1) {
    failure_ = "the CUDA driver is too old: it has no cuGetProcAddress (CUDA 12 or newer is needed)";
    reason = failure_;
    return false;
  }
  std::string missing;
  auto resolve = [&](auto &fn, const char *name) {
    void *p = nullptr;
    int status = 0;
    CUresult r = v2 ? v2(name, &p, kPinnedApiVersion, 0, &status) : v1(name, &p, kPinnedApiVersion, 0);
    if (r != CUDA_SUCCESS || !p)
      missing += std::string(missing.empty() ? "" : ", ") + name;
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(p);
  };
  resolve(cuInit, "cuInit");
  resolve(cuDriverGetVersion, "cuDriverGetVersion");
  resolve(cuGetErrorName, "cuGetErrorName");
  resolve(cuGetErrorString, "cuGetErrorString");
  resolve(cuDeviceGetCount, "cuDeviceGetCount");
  resolve(cuDeviceGet, "cuDeviceGet");
  resolve(cuDeviceGetName, "cuDeviceGetName");
  resolve(cuDeviceGetUuid, "cuDeviceGetUuid");
  resolve(cuDeviceGetAttribute, "cuDeviceGetAttribute");
  resolve(cuDeviceTotalMem, "cuDeviceTotalMem");
  resolve(cuDevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain");
  resolve(cuDevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease");
  resolve(cuCtxSetCurrent, "cuCtxSetCurrent");
  resolve(cuCtxSynchronize, "cuCtxSynchronize");
  resolve(cuMemAlloc, "cuMemAlloc");
  resolve(cuMemGetInfo, "cuMemGetInfo");
  resolve(cuMemFree, "cuMemFree");
  resolve(cuMemcpyHtoDAsync, "cuMemcpyHtoDAsync");
  resolve(cuMemcpyDtoHAsync, "cuMemcpyDtoHAsync");
  resolve(cuMemcpyDtoDAsync, "cuMemcpyDtoDAsync");
  resolve(cuMemcpyPeerAsync, "cuMemcpyPeerAsync");
  resolve(cuDeviceCanAccessPeer, "cuDeviceCanAccessPeer");
  resolve(cuCtxEnablePeerAccess, "cuCtxEnablePeerAccess");
  resolve(cuMemsetD8Async, "cuMemsetD8Async");
  resolve(cuMemsetD16Async, "cuMemsetD16Async");
  resolve(cuMemsetD32Async, "cuMemsetD32Async");
  resolve(cuStreamCreate, "cuStreamCreate");
  resolve(cuStreamDestroy, "cuStreamDestroy");
  resolve(cuStreamSynchronize, "cuStreamSynchronize");
  resolve(cuStreamWaitEvent, "cuStreamWaitEvent");
  resolve(cuEventCreate, "cuEventCreate");
  resolve(cuEventDestroy, "cuEventDestroy");
  resolve(cuEventRecord, "cuEventRecord");
  resolve(cuEventSynchronize, "cuEventSynchronize");
  resolve(cuEventElapsedTime, "cuEventElapsedTime");
  resolve(cuModuleLoadDataEx, "cuModuleLoadDataEx");
  resolve(cuModuleUnload, "cuModuleUnload");
  resolve(cuModuleGetFunction, "cuModuleGetFunction");
  resolve(cuFuncSetAttribute, "cuFuncSetAttribute");
  resolve(cuTensorMapEncodeTiled, "cuTensorMapEncodeTiled");
  resolve(cuLaunchKernel, "cuLaunchKernel");
  // Optional: only the recovery from a kernel fault uses it (CudaPlugin.cpp, deviceOpen).
  {
    std::string required = missing;
    resolve(cuDevicePrimaryCtxReset, "cuDevicePrimaryCtxReset");
    missing = required;
  }
  if (!missing.empty()) {
    failure_ = "the CUDA driver lacks entry points at API version " + std::to_string(kPinnedApiVersion) +
               ": " + missing;
    reason = failure_;
    return false;
  }
  loaded_ = true;
  return true;
}

std::string Driver::describe(CUresult r) const {
  const char *name = nullptr, *text = nullptr;
  if (cuGetErrorName)
    cuGetErrorName(r, &name);
  if (cuGetErrorString)
    cuGetErrorString(r, &text);
  std::string out = name ? name : "CUDA error " + std::to_string(r);
  if (text)
    out += std::string(": ") + text;
  return out;
}

} // namespace trident::cuda
