#pragma once
// Internal to the HIP plugin: the handles behind the plugin ABI and the helpers
// every entry point uses.

#include "HipDriver.h"

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
  // Addresses made usable by mem_import, each with how many imports hold it: mem_free
  // of one only forgets it (the memory belongs to whoever allocated it). Guarded by
  // the context's mutex.
  std::map<uint64_t, uint32_t> imported;
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
  std::map<std::string, std::unique_ptr<trident_kernel_s>> kernels;
};

namespace trident::hip {

// Records `message` as this thread's last error and returns `status`.
trident_status fail(trident_status status, std::string message);
// SUCCESS, or DEVICE with the runtime's message prefixed by `what`.
trident_status check(hipError_t r, const char *what);
// Makes the device current on this thread (hipSetDevice, cached per thread).
trident_status makeCurrent(trident_device_s *device);
// Runs `f`, turning exceptions (e.g. out of host memory) into statuses.
template <class F> trident_status guarded(F &&f) {
  try {
    return f();
  } catch (const std::bad_alloc &) {
    return fail(TRIDENT_ERROR_OUT_OF_MEMORY, "out of host memory");
  } catch (const std::exception &e) {
    return fail(TRIDENT_ERROR_INTERNAL, e.what());
  }
}

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
