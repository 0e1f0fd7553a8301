#include "HipDriver.h"

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <mutex>
#include <vector>

namespace trident::hip {

// The two layouts, pinned where ROCm's own headers put gcnArchName (checked against
// hip_runtime_api.h of ROCm 5.2 and the R0600 struct of ROCm 6).
static_assert(offsetof(DevicePropsR0000, gcnArchName) == 396);
static_assert(offsetof(DevicePropsR0600, gcnArchName) == 1160);

namespace {

// Room for the whole struct of any runtime: each writes its full struct, which is
// larger than the prefixes declared here.
constexpr size_t kPropsBufferBytes = 16384;

template <class Props> void readCommon(const Props &p, DeviceFacts &f) {
  f.name.assign(p.name, strnlen(p.name, sizeof p.name));
  f.gcnArchName.assign(p.gcnArchName, strnlen(p.gcnArchName, sizeof p.gcnArchName));
  f.totalGlobalMem = p.totalGlobalMem;
  f.sharedMemPerBlock = p.sharedMemPerBlock;
  f.warpSize = p.warpSize;
  f.maxThreadsPerBlock = p.maxThreadsPerBlock;
  for (int i = 0; i < 3; ++i)
    f.maxGridSize[i] = p.maxGridSize[i];
  f.multiProcessorCount = p.multiProcessorCount;
  f.pciDomainID = p.pciDomainID;
  f.pciBusID = p.pciBusID;
  f.pciDeviceID = p.pciDeviceID;
}

// The SDK's peer copy: HIP names the devices by their ordinals.
sdk::GpuResult copyPeer(sdk::GpuPtr dst, sdk::GpuDevice &dstDevice, sdk::GpuPtr src, sdk::GpuDevice &srcDevice,
                        size_t bytes, sdk::GpuHandle stream) {
  return driver().hipMemcpyPeerAsync(reinterpret_cast<void *>(dst), dstDevice.native,
                                     reinterpret_cast<const void *>(src), srcDevice.native, bytes,
                                     static_cast<hipStream_t>(stream));
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
  std::vector<std::string> names;
  if (const char *env = std::getenv("TRIDENT_HIP_LIBRARY"); env && *env)
    names.push_back(env);
  for (const char *n : {"libamdhip64.so.6", "libamdhip64.so.5", "libamdhip64.so"})
    names.push_back(n);
  void *lib = nullptr;
  std::string tried, firstError;
  for (const std::string &n : names) {
    lib = dlopen(n.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (lib) {
      library_ = n;
      break;
    }
    const char *e = dlerror();
    tried += (tried.empty() ? "" : ", ") + n;
    if (firstError.empty())
      firstError = e ? e : n + ": unknown error";
  }
  if (!lib) {
    // The first error says most: a bad $TRIDENT_HIP_LIBRARY, or ROCm 6 missing.
    failure_ = "the HIP runtime cannot be opened (is ROCm installed? tried " + tried + "): " + firstError;
    reason = failure_;
    return false;
  }
  std::string missing;
  auto resolve = [&](auto &fn, const char *name, bool required = true) {
    void *p = dlsym(lib, name);
    if (!p && required)
      missing += std::string(missing.empty() ? "" : ", ") + name;
    fn = reinterpret_cast<std::remove_reference_t<decltype(fn)>>(p);
  };
  resolve(hipInit, "hipInit");
  resolve(hipRuntimeGetVersion, "hipRuntimeGetVersion");
  resolve(hipGetErrorName, "hipGetErrorName");
  resolve(hipGetErrorString, "hipGetErrorString");
  resolve(hipGetDeviceCount, "hipGetDeviceCount");
  resolve(hipSetDevice, "hipSetDevice");
  resolve(hipMemcpyPeerAsync, "hipMemcpyPeerAsync");
  auto call = [&](auto &c, const char *name, bool required = true) {
    c.name = name;
    resolve(c.fn, name, required);
  };
  call(calls.synchronize, "hipDeviceSynchronize");
  call(calls.alloc, "hipMalloc");
  call(calls.memInfo, "hipMemGetInfo", false);
  call(calls.free, "hipFree");
  call(calls.copyHtoD, "hipMemcpyHtoDAsync");
  call(calls.copyDtoH, "hipMemcpyDtoHAsync");
  call(calls.copyDtoD, "hipMemcpyDtoDAsync");
  call(calls.fill8, "hipMemsetD8Async");
  call(calls.fill16, "hipMemsetD16Async");
  call(calls.fill32, "hipMemsetD32Async");
  call(calls.streamCreate, "hipStreamCreateWithFlags");
  call(calls.streamDestroy, "hipStreamDestroy");
  call(calls.streamSynchronize, "hipStreamSynchronize");
  call(calls.streamWaitEvent, "hipStreamWaitEvent");
  call(calls.eventCreate, "hipEventCreate");
  call(calls.eventDestroy, "hipEventDestroy");
  call(calls.eventRecord, "hipEventRecord");
  call(calls.eventSynchronize, "hipEventSynchronize");
  call(calls.eventElapsed, "hipEventElapsedTime");
  calls.copyPeer = {"hipMemcpyPeerAsync", copyPeer};
  resolve(hipModuleLoadData, "hipModuleLoadData");
  resolve(hipModuleUnload, "hipModuleUnload");
  resolve(hipModuleGetFunction, "hipModuleGetFunction");
  resolve(hipModuleLaunchKernel, "hipModuleLaunchKernel");
  resolve(hipDeviceGetUuid, "hipDeviceGetUuid", false);
  // ROCm 6 names the new layout's entry point; ROCm 5 has only the old layout.
  resolve(getPropertiesR0600_, "hipGetDevicePropertiesR0600", false);
  if (!getPropertiesR0600_) {
    resolve(getPropertiesR0000_, "hipGetDevicePropertiesR0000", false);
    if (!getPropertiesR0000_)
      resolve(getPropertiesR0000_, "hipGetDeviceProperties");
  }
  if (!missing.empty()) {
    failure_ = "the HIP runtime " + library_ + " lacks entry points: " + missing;
    reason = failure_;
    return false;
  }
  loaded_ = true;
  return true;
}

std::string Driver::describe(hipError_t r) const {
  const char *name = hipGetErrorName ? hipGetErrorName(r) : nullptr;
  const char *text = hipGetErrorString ? hipGetErrorString(r) : nullptr;
  std::string out = name ? name : "HIP error " + std::to_string(r);
  if (text)
    out += std::string(": ") + text;
  return out;
}

hipError_t Driver::deviceFacts(int ordinal, DeviceFacts &facts) const {
  std::vector<unsigned char> buffer(kPropsBufferBytes, 0);
  hipError_t r;
  if (getPropertiesR0600_) {
    auto *p = reinterpret_cast<DevicePropsR0600 *>(buffer.data());
    if ((r = getPropertiesR0600_(p, ordinal)) != hipSuccess)
      return r;
    readCommon(*p, facts);
    std::memcpy(facts.uuid, p->uuid, sizeof facts.uuid);
    facts.hasUuid = true;
  } else {
    auto *p = reinterpret_cast<DevicePropsR0000 *>(buffer.data());
    if ((r = getPropertiesR0000_(p, ordinal)) != hipSuccess)
      return r;
    readCommon(*p, facts);
  }
  if (hipDeviceGetUuid && hipDeviceGetUuid(facts.uuid, ordinal) == hipSuccess)
    facts.hasUuid = true;
  return hipSuccess;
}

} // namespace trident::hip
