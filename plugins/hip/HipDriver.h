#pragma once
// The part of the HIP runtime API the plugin uses, declared here (no ROCm SDK is
// needed to build) and resolved at run time from libamdhip64 through dlopen:
// version 6, then 5, then the unversioned name ($TRIDENT_HIP_LIBRARY first when set).
//
// hipDeviceProp_t changed layout in ROCm 6 (the "R0600" layout); both layouts are
// declared below up to the fields the plugin reads, and the entry point that fills
// each (hipGetDevicePropertiesR0600, else R0000 / plain) decides which one is read.

#include "trident/sdk/GpuDriver.h"

#include <cstddef>
#include <cstdint>
#include <string>

namespace trident::hip {

// HIP types, by their ABI: handles are opaque pointers, errors are ints.
using hipError_t = int;
using hipDeviceptr_t = void *;
using hipModule_t = struct ihipModule_t *;
using hipFunction_t = struct ihipModuleSymbol_t *;
using hipStream_t = struct ihipStream_t *;
using hipEvent_t = struct ihipEvent_t *;

constexpr hipError_t hipSuccess = 0;
constexpr hipError_t hipErrorOutOfMemory = 2;
constexpr hipError_t hipErrorNoDevice = 100;
constexpr unsigned hipStreamNonBlocking = 1;

// hipDeviceProp_t as ROCm 5 lays it out (hipDeviceProp_tR0000), up to gcnArchName.
struct DevicePropsR0000 {
  char name[256];
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;
  int memoryClockRate;
  int memoryBusWidth;
  size_t totalConstMem;
  int major;
  int minor;
  int multiProcessorCount;
  int l2CacheSize;
  int maxThreadsPerMultiProcessor;
  int computeMode;
  int clockInstructionRate;
  uint32_t arch; // hipDeviceArch_t: 32 bits of feature flags
  int concurrentKernels;
  int pciDomainID;
  int pciBusID;
  int pciDeviceID;
  size_t maxSharedMemoryPerMultiProcessor;
  int isMultiGpuBoard;
  int canMapHostMemory;
  int gcnArch;
  char gcnArchName[256];
};

// hipDeviceProp_t as ROCm 6 lays it out (hipDeviceProp_tR0600), up to gcnArchName.
struct DevicePropsR0600 {
  char name[256];
  uint8_t uuid[16];
  char luid[8];
  unsigned luidDeviceNodeMask;
  size_t totalGlobalMem;
  size_t sharedMemPerBlock;
  int regsPerBlock;
  int warpSize;
  size_t memPitch;
  int maxThreadsPerBlock;
  int maxThreadsDim[3];
  int maxGridSize[3];
  int clockRate;
  size_t totalConstMem;
  int major;
  int minor;
  size_t textureAlignment;
  size_t texturePitchAlignment;
  int deviceOverlap;
  int multiProcessorCount;
  int kernelExecTimeoutEnabled, integrated, canMapHostMemory, computeMode;
  int maxTexture1D, maxTexture1DMipmap, maxTexture1DLinear;
  int maxTexture2D[2], maxTexture2DMipmap[2], maxTexture2DLinear[3], maxTexture2DGather[2];
  int maxTexture3D[3], maxTexture3DAlt[3], maxTextureCubemap;
  int maxTexture1DLayered[2], maxTexture2DLayered[3], maxTextureCubemapLayered[2];
  int maxSurface1D, maxSurface2D[2], maxSurface3D[3];
  int maxSurface1DLayered[2], maxSurface2DLayered[3], maxSurfaceCubemap, maxSurfaceCubemapLayered[2];
  size_t surfaceAlignment;
  int concurrentKernels, ECCEnabled, pciBusID, pciDeviceID, pciDomainID, tccDriver, asyncEngineCount;
  int unifiedAddressing, memoryClockRate, memoryBusWidth, l2CacheSize, persistingL2CacheMaxSize;
  int maxThreadsPerMultiProcessor, streamPrioritiesSupported, globalL1CacheSupported, localL1CacheSupported;
  size_t sharedMemPerMultiprocessor;
  int regsPerMultiprocessor, managedMemory, isMultiGpuBoard, multiGpuBoardGroupID, hostNativeAtomicSupported;
  int singleToDoublePrecisionPerfRatio, pageableMemoryAccess, concurrentManagedAccess,
      computePreemptionSupported;
  int canUseHostPointerForRegisteredMem, cooperativeLaunch, cooperativeMultiDeviceLaunch;
  size_t sharedMemPerBlockOptin;
  int pageableMemoryAccessUsesHostPageTables, directManagedMemAccessFromHost, maxBlocksPerMultiProcessor;
  int accessPolicyMaxWindowSize;
  size_t reservedSharedMemPerBlock;
  int hostRegisterSupported, sparseHipArraySupported, hostRegisterReadOnlySupported;
  int timelineSemaphoreInteropSupported, memoryPoolsSupported, gpuDirectRDMASupported;
  unsigned gpuDirectRDMAFlushWritesOptions;
  int gpuDirectRDMAWritesOrdering;
  unsigned memoryPoolSupportedHandleTypes;
  int deferredMappingHipArraySupported, ipcEventSupported, clusterLaunch, unifiedFunctionPointers;
  int reserved[63];
  int hipReserved[32];
  char gcnArchName[256];
};

// What the plugin reads of a device, whichever layout the runtime filled.
struct DeviceFacts {
  std::string name;
  std::string gcnArchName; // "gfx942:sramecc+:xnack-"
  uint8_t uuid[16] = {};
  bool hasUuid = false;
  size_t totalGlobalMem = 0;
  size_t sharedMemPerBlock = 0;
  int warpSize = 0;
  int maxThreadsPerBlock = 0;
  int maxGridSize[3] = {};
  int multiProcessorCount = 0;
  int pciDomainID = 0, pciBusID = 0, pciDeviceID = 0;
};

struct Driver {
  // Opens libamdhip64 and resolves every entry point; false with `reason` when the
  // runtime is missing or lacks one. Idempotent.
  bool load(std::string &reason);
  // "hipErrorOutOfMemory: out of memory" (the runtime's own name and message).
  std::string describe(hipError_t r) const;
  // The facts of device `ordinal` from hipGetDeviceProperties in the runtime's layout.
  hipError_t deviceFacts(int ordinal, DeviceFacts &facts) const;
  // The library that was opened ("libamdhip64.so.6").
  const std::string &libraryName() const { return library_; }

  hipError_t (*hipInit)(unsigned flags) = nullptr;
  hipError_t (*hipRuntimeGetVersion)(int *version) = nullptr;
  const char *(*hipGetErrorName)(hipError_t) = nullptr;
  const char *(*hipGetErrorString)(hipError_t) = nullptr;
  hipError_t (*hipGetDeviceCount)(int *) = nullptr;
  hipError_t (*hipSetDevice)(int) = nullptr;
  hipError_t (*hipMemcpyPeerAsync)(void *, int, const void *, int, size_t, hipStream_t) = nullptr;
  hipError_t (*hipModuleLoadData)(hipModule_t *, const void *) = nullptr;
  hipError_t (*hipModuleUnload)(hipModule_t) = nullptr;
  hipError_t (*hipModuleGetFunction)(hipFunction_t *, hipModule_t, const char *) = nullptr;
  hipError_t (*hipModuleLaunchKernel)(hipFunction_t, unsigned, unsigned, unsigned, unsigned, unsigned,
                                      unsigned, unsigned sharedMemBytes, hipStream_t, void **params,
                                      void **extra) = nullptr;
  // Optional: hipDeviceGetUuid (absent from old runtimes).
  hipError_t (*hipDeviceGetUuid)(uint8_t uuid[16], int device) = nullptr;
  // Memory, copies, fills, streams, events and synchronization, for the SDK
  // (trident/sdk/GpuDriver.h): the entry points as resolved (hipMemGetInfo, of the
  // current device, is optional), but peer copies, which go through the plugin.
  sdk::GpuCalls calls;

private:
  hipError_t (*getPropertiesR0600_)(DevicePropsR0600 *, int) = nullptr;
  hipError_t (*getPropertiesR0000_)(DevicePropsR0000 *, int) = nullptr;
  bool loaded_ = false;
  std::string failure_;
  std::string library_;
};

// The process's HIP runtime (loaded on first use).
Driver &driver();

} // namespace trident::hip
