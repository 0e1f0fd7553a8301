#pragma once
// The part of the CUDA driver API the plugin uses, declared here (no CUDA SDK is
// needed to build) and resolved at run time: libcuda.so.1 through dlopen, each
// entry point through cuGetProcAddress at a pinned API version, so the plugin
// gets the same signatures from every CUDA 12 or 13 driver.

#include "trident/sdk/GpuDriver.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace trident::cuda {

// Driver types, by their ABI: handles are opaque pointers, results are ints.
using CUresult = int;
using CUdevice = int;
using CUdeviceptr = unsigned long long;
using CUcontext = struct CUctx_st *;
using CUmodule = struct CUmod_st *;
using CUfunction = struct CUfunc_st *;
using CUstream = struct CUstream_st *;
using CUevent = struct CUevent_st *;

constexpr CUresult CUDA_SUCCESS = 0;
constexpr CUresult CUDA_ERROR_OUT_OF_MEMORY = 2;
constexpr CUresult CUDA_ERROR_NO_DEVICE = 100;
constexpr CUresult CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED = 704;

// Device attributes (CUdevice_attribute values).
enum : int {
  kAttrMaxThreadsPerBlock = 1,
  kAttrMaxGridDimX = 5,
  kAttrMaxGridDimY = 6,
  kAttrMaxGridDimZ = 7,
  kAttrMaxSharedMemoryPerBlock = 8,
  kAttrWarpSize = 10,
  kAttrMultiprocessorCount = 16,
  kAttrComputeCapabilityMajor = 75,
  kAttrComputeCapabilityMinor = 76,
  kAttrMaxSharedMemoryPerBlockOptin = 97,
};
constexpr int kFuncAttrMaxDynamicSharedSizeBytes = 8; // CUfunction_attribute
// JIT options of cuModuleLoadDataEx (CUjit_option values).
enum : int {
  kJitInfoLogBuffer = 3,
  kJitInfoLogBufferSize = 4,
  kJitErrorLogBuffer = 5,
  kJitErrorLogBufferSize = 6
};
constexpr unsigned kStreamNonBlocking = 1;
constexpr unsigned kEventDefault = 0;

// The API version every entry point is resolved at: CUDA 12.0.
constexpr int kPinnedApiVersion = 12000;

struct Driver {
  // Opens libcuda.so.1 and resolves every entry point; false with `reason` when the
  // driver is missing or too old. Idempotent.
  bool load(std::string &reason);
  // "CUDA_ERROR_OUT_OF_MEMORY: out of memory" (the driver's own name and message).
  std::string describe(CUresult r) const;

  CUresult (*cuInit)(unsigned flags) = nullptr;
  CUresult (*cuDriverGetVersion)(int *version) = nullptr;
  CUresult (*cuGetErrorName)(CUresult, const char **) = nullptr;
  CUresult (*cuGetErrorString)(CUresult, const char **) = nullptr;
  CUresult (*cuDeviceGetCount)(int *) = nullptr;
  CUresult (*cuDeviceGet)(CUdevice *, int ordinal) = nullptr;
  CUresult (*cuDeviceGetName)(char *, int, CUdevice) = nullptr;
  CUresult (*cuDeviceGetUuid)(unsigned char uuid[16], CUdevice) = nullptr;
  CUresult (*cuDeviceGetAttribute)(int *, int attribute, CUdevice) = nullptr;
  CUresult (*cuDeviceTotalMem)(size_t *, CUdevice) = nullptr;
  CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *, CUdevice) = nullptr;
  CUresult (*cuDevicePrimaryCtxRelease)(CUdevice) = nullptr;
  CUresult (*cuDevicePrimaryCtxReset)(CUdevice) = nullptr; // optional (null if the driver lacks it)
  CUresult (*cuCtxSetCurrent)(CUcontext) = nullptr;
  CUresult (*cuMemcpyPeerAsync)(CUdeviceptr, CUcontext, CUdeviceptr, CUcontext, size_t, CUstream) = nullptr;
  CUresult (*cuCtxEnablePeerAccess)(CUcontext peer, unsigned flags) = nullptr;
  CUresult (*cuEventCreate)(sdk::GpuHandle *, unsigned flags) = nullptr;
  CUresult (*cuModuleLoadDataEx)(CUmodule *, const void *, unsigned, int *options, void **values) = nullptr;
  CUresult (*cuModuleUnload)(CUmodule) = nullptr;
  CUresult (*cuModuleGetFunction)(CUfunction *, CUmodule, const char *) = nullptr;
  CUresult (*cuFuncSetAttribute)(CUfunction, int attribute, int value) = nullptr;
  // Fills a 128-byte tensor map (CUtensorMap) for the tensor-copy engine.
  CUresult (*cuTensorMapEncodeTiled)(void *map, int dataType, uint32_t rank, void *address, const uint64_t *dims,
                                     const uint64_t *strides, const uint32_t *box, const uint32_t *elementStrides,
                                     int interleave, int swizzle, int l2Promotion, int oobFill) = nullptr;
  CUresult (*cuLaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                             CUstream, void **params, void **extra) = nullptr;
  // Memory, copies, fills, streams, events and synchronization, for the SDK
  // (trident/sdk/GpuDriver.h): the entry points as resolved, but peer copies, peer
  // access and event creation, which go through the plugin (CudaPlugin.cpp).
  sdk::GpuCalls calls;

private:
  bool loaded_ = false;
  std::string failure_;
};

// The process's driver (loaded on first use).
Driver &driver();

} // namespace trident::cuda
