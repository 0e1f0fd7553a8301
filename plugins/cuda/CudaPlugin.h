#pragma once
// Internal to the CUDA plugin: its devices, modules and kernels and the helpers
// every entry point uses.

#include "CudaDriver.h"

#include "trident/sdk/GpuDriver.h"
#include "trident/sdk/GpuModules.h"
#include "trident/sdk/Status.h"

#include <trident/plugin.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

namespace trident::cuda {

// A device: the SDK's (GpuDevice::native is its CUdevice) with what is CUDA's.
struct CudaDevice : sdk::GpuDevice {
  CUcontext primary = nullptr; // the primary context while opened
  int computeMajor = 0, computeMinor = 0;
  int maxSharedOptin = 0;
  std::mutex zeroMutex;
  sdk::GpuPtr zero = 0; // 16 zero bytes: the map of an empty tensor descriptor (CudaModules.cpp)
};

inline CudaDevice &cudaDevice(sdk::GpuDevice &d) { return static_cast<CudaDevice &>(d); }
inline CudaDevice &cudaDevice(trident_device d) { return cudaDevice(sdk::gpuDevice(d)); }
inline CUstream cudaStream(const sdk::GpuStream &s) { return static_cast<CUstream>(s.native); }

} // namespace trident::cuda

struct trident_kernel_s {
  trident::cuda::CUfunction function = nullptr;
  std::string name;
  uint32_t numThreads = 0;
  uint32_t sharedBytes = 0;
  uint32_t numParams = 0;
  std::vector<int64_t> tensorMaps; // built at each launch from the arguments (CudaModules.cpp)
  std::atomic<int> dynamicSharedLimit{48 * 1024}; // raised by cuFuncSetAttribute as launches need
};

struct trident_module_s {
  trident::cuda::CudaDevice *device = nullptr;
  trident::cuda::CUmodule module = nullptr;
  trident::sdk::KernelTable<trident_kernel_s> kernels;
};

namespace trident::cuda {

using sdk::fail;    // records the message as this thread's last error
using sdk::guarded; // turns exceptions (e.g. out of host memory) into statuses
// The driver as the SDK sees it: names, result codes, hooks and calls.
const sdk::GpuDriver &gpu();
// A driver error a kernel fault left (sticky: the context is lost).
bool kernelFault(CUresult r);
// Success, or the failure of `what`: Launch for a kernel fault, Device otherwise.
inline trident_status check(CUresult r, const std::string &what) { return gpu().check(r, what); }
// Makes the device's context current on this thread (cached per thread).
trident_status makeCurrent(sdk::GpuDevice &device);

// The compile/module/launch entry points (CudaModules.cpp).
trident_status supportsTarget(trident_context ctx, const char *target);
trident_status compile(trident_context ctx, const char *target, const char *ir, size_t size,
                       const char *kernel, const trident_compile_options *options, trident_binary *out);
trident_status binaryRelease(trident_context ctx, trident_binary *binary);
trident_status moduleLoad(trident_device device, const void *binary, size_t size, trident_module *out);
trident_status moduleUnload(trident_module module);
trident_status moduleGetKernel(trident_module module, const char *name, trident_kernel *out);
trident_status launch(trident_stream stream, trident_kernel kernel, const trident_launch_params *params);

} // namespace trident::cuda
