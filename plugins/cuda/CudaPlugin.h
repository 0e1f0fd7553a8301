#pragma once
// Internal to the CUDA plugin: the handles behind the plugin ABI and the helpers
// every entry point uses.

#include "CudaDriver.h"

#include "trident/sdk/GpuModules.h"
#include "trident/sdk/Status.h"

#include <trident/plugin.h>

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

struct trident_context_s;

struct trident_device_s {
  trident_context_s *ctx = nullptr;
  uint32_t ordinal = 0;
  trident::cuda::CUdevice device = 0;
  trident::cuda::CUcontext context = nullptr; // the primary context while opened
  int opens = 0;                              // guarded by the context's mutex
  trident::sdk::ImportTable imported; // what mem_import made usable
  int computeMajor = 0, computeMinor = 0;
  int maxSharedOptin = 0;
  // Peer access from this device's context to others', by their ordinal: true when
  // enabled, false when the driver refuses the pair. Guarded by the context's
  // mutex; forgotten when either context is released.
  std::map<uint32_t, bool> peers;
};

struct trident_context_s {
  std::mutex mutex;
  std::string reason; // why there are no devices
  std::vector<std::unique_ptr<trident_device_s>> devices;
};

struct trident_stream_s {
  trident_device_s *device = nullptr;
  trident::cuda::CUstream stream = nullptr;
  bool owned = true; // false for imported streams
};

struct trident_event_s {
  trident_device_s *device = nullptr;
  trident::cuda::CUevent event = nullptr;
};

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
  trident_device_s *device = nullptr;
  trident::cuda::CUmodule module = nullptr;
  trident::sdk::KernelTable<trident_kernel_s> kernels;
};

namespace trident::cuda {

using sdk::fail;    // records the message as this thread's last error
using sdk::guarded; // turns exceptions (e.g. out of host memory) into statuses
// A driver error a kernel fault left (sticky: the context is lost).
bool kernelFault(CUresult r);
// Success, or the failure of `what`: Launch for a kernel fault, Device otherwise.
trident_status check(CUresult r, const char *what);
// Makes the device's context current on this thread (cached per thread).
trident_status makeCurrent(trident_device_s *device);

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
