#pragma once
// Internal to the HIP plugin: the handles behind the plugin ABI and the helpers
// every entry point uses.

#include "HipDriver.h"

#include "trident/sdk/GpuModules.h"
#include "trident/sdk/Status.h"

#include <trident/plugin.h>

#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

struct trident_context_s;

struct trident_device_s {
  trident_context_s *ctx = nullptr;
  uint32_t ordinal = 0; // the plugin's
  int hipOrdinal = 0;   // the runtime's (hipSetDevice)
  trident::hip::DeviceFacts facts;
  std::string arch; // "gfx942", from gcnArchName without its feature suffixes
  int opens = 0;    // guarded by the context's mutex
  trident::sdk::ImportTable imported; // what mem_import made usable
};

struct trident_context_s {
  std::mutex mutex;
  std::string reason; // why there are no devices
  std::vector<std::unique_ptr<trident_device_s>> devices;
};

struct trident_stream_s {
  trident_device_s *device = nullptr;
  trident::hip::hipStream_t stream = nullptr;
  bool owned = true; // false for imported streams
};

struct trident_event_s {
  trident_device_s *device = nullptr;
  trident::hip::hipEvent_t event = nullptr;
};

struct trident_kernel_s {
  trident::hip::hipFunction_t function = nullptr;
  std::string name;
  uint32_t numThreads = 0;
  uint32_t sharedBytes = 0; // static LDS, already in the kernel descriptor
  uint32_t numParams = 0;
};

struct trident_module_s {
  trident_device_s *device = nullptr;
  trident::hip::hipModule_t module = nullptr;
  trident::sdk::KernelTable<trident_kernel_s> kernels;
};

namespace trident::hip {

using sdk::fail;    // records the message as this thread's last error
using sdk::guarded; // turns exceptions (e.g. out of host memory) into statuses
// SUCCESS, or DEVICE with the runtime's message prefixed by `what`.
trident_status check(hipError_t r, const char *what);
// Makes the device current on this thread (hipSetDevice, cached per thread).
trident_status makeCurrent(trident_device_s *device);

// The compile/module/launch entry points (HipModules.cpp).
trident_status supportsTarget(trident_context ctx, const char *target);
trident_status compile(trident_context ctx, const char *target, const char *ir, size_t size,
                       const char *kernel, const trident_compile_options *options, trident_binary *out);
trident_status binaryRelease(trident_context ctx, trident_binary *binary);
trident_status moduleLoad(trident_device device, const void *binary, size_t size, trident_module *out);
trident_status moduleUnload(trident_module module);
trident_status moduleGetKernel(trident_module module, const char *name, trident_kernel *out);
trident_status launch(trident_stream stream, trident_kernel kernel, const trident_launch_params *params);

} // namespace trident::hip
