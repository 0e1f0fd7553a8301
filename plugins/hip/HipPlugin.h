#pragma once
// Internal to the HIP plugin: its devices, modules and kernels and the helpers
// every entry point uses.

#include "HipDriver.h"

#include "trident/sdk/GpuDriver.h"
#include "trident/sdk/GpuModules.h"
#include "trident/sdk/Status.h"

#include <trident/plugin.h>

#include <memory>
#include <string>
#include <vector>

namespace trident::hip {

// A device: the SDK's (GpuDevice::native is the runtime's ordinal, for hipSetDevice)
// with what is HIP's.
struct HipDevice : sdk::GpuDevice {
  DeviceFacts facts;
  std::string arch; // "gfx942", from gcnArchName without its feature suffixes
};

inline HipDevice &hipDevice(sdk::GpuDevice &d) { return static_cast<HipDevice &>(d); }
inline HipDevice &hipDevice(trident_device d) { return hipDevice(sdk::gpuDevice(d)); }
inline hipStream_t hipStream(const sdk::GpuStream &s) { return static_cast<hipStream_t>(s.native); }

} // namespace trident::hip

struct trident_kernel_s {
  trident::hip::hipFunction_t function = nullptr;
  std::string name;
  uint32_t numThreads = 0;
  uint32_t sharedBytes = 0; // static LDS, already in the kernel descriptor
  uint32_t numParams = 0;
};

struct trident_module_s {
  trident::hip::HipDevice *device = nullptr;
  trident::hip::hipModule_t module = nullptr;
  trident::sdk::KernelTable<trident_kernel_s> kernels;
};

namespace trident::hip {

using sdk::fail;    // records the message as this thread's last error
using sdk::guarded; // turns exceptions (e.g. out of host memory) into statuses
// The runtime as the SDK sees it: names, result codes, hooks and calls.
const sdk::GpuDriver &gpu();
// SUCCESS, or DEVICE with the runtime's message prefixed by `what`.
inline trident_status check(hipError_t r, const std::string &what) { return gpu().check(r, what); }
// Makes the device current on this thread (hipSetDevice, cached per thread).
trident_status makeCurrent(sdk::GpuDevice &device);

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
