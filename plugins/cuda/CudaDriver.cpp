#include "CudaDriver.h"
#include "CudaPlugin.h"

#include <cstdlib>
#include <dlfcn.h>
#include <mutex>

namespace trident::cuda {

namespace {

// cuGetProcAddress as CUDA 12 declares it (_v2, with a status out-parameter), and as 11.3 did.
using GetProcAddressV2 = CUresult (*)(const char *, void **, int, uint64_t, int *);
using GetProcAddressV1 = CUresult (*)(const char *, void **, int, uint64_t);

// The SDK's calls whose shapes are CUDA's own: peer access and copies name contexts,
// events are created with flags.
sdk::GpuResult eventCreate(sdk::GpuHandle *event) { return driver().cuEventCreate(event, kEventDefault); }
sdk::GpuResult enablePeer(sdk::GpuDevice &, sdk::GpuDevice &peer) {
  return driver().cuCtxEnablePeerAccess(cudaDevice(peer).primary, 0);
}
sdk::GpuResult copyPeer(sdk::GpuPtr dst, sdk::GpuDevice &dstDevice, sdk::GpuPtr src, sdk::GpuDevice &srcDevice,
                        size_t bytes, sdk::GpuHandle stream) {
  return driver().cuMemcpyPeerAsync(dst, cudaDevice(dstDevice).primary, src, cudaDevice(srcDevice).primary, bytes,
                                    static_cast<CUstream>(stream));
}

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
  // $TRIDENT_CUDA_LIBRARY: another driver library (the tests' stand-in).
  const char *env = std::getenv("TRIDENT_CUDA_LIBRARY");
  std::string library = env && *env ? env : "libcuda.so.1";
  void *lib = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!lib) {
    const char *e = dlerror();
    failure_ = "the CUDA driver (" + library + ") cannot be opened: " + (e ? e : "unknown error");
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
  resolve(cuMemcpyPeerAsync, "cuMemcpyPeerAsync");
  resolve(cuCtxEnablePeerAccess, "cuCtxEnablePeerAccess");
  resolve(cuEventCreate, "cuEventCreate");
  auto call = [&](auto &c, const char *name) {
    c.name = name;
    resolve(c.fn, name);
  };
  call(calls.synchronize, "cuCtxSynchronize");
  call(calls.alloc, "cuMemAlloc");
  call(calls.memInfo, "cuMemGetInfo");
  call(calls.free, "cuMemFree");
  call(calls.copyHtoD, "cuMemcpyHtoDAsync");
  call(calls.copyDtoH, "cuMemcpyDtoHAsync");
  call(calls.copyDtoD, "cuMemcpyDtoDAsync");
  call(calls.fill8, "cuMemsetD8Async");
  call(calls.fill16, "cuMemsetD16Async");
  call(calls.fill32, "cuMemsetD32Async");
  call(calls.streamCreate, "cuStreamCreate");
  call(calls.streamDestroy, "cuStreamDestroy");
  call(calls.streamSynchronize, "cuStreamSynchronize");
  call(calls.streamWaitEvent, "cuStreamWaitEvent");
  call(calls.eventDestroy, "cuEventDestroy");
  call(calls.eventRecord, "cuEventRecord");
  call(calls.eventSynchronize, "cuEventSynchronize");
  call(calls.eventElapsed, "cuEventElapsedTime");
  call(calls.canAccessPeer, "cuDeviceCanAccessPeer");
  calls.eventCreate = {"cuEventCreate", eventCreate};
  calls.enablePeer = {"cuCtxEnablePeerAccess", enablePeer};
  calls.copyPeer = {"cuMemcpyPeerAsync", copyPeer};
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
