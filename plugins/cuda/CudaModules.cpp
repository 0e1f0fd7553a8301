// Modules (the driver loads a binary's PTX or cubin) and launches: the part of the
// CUDA plugin that both builds have, with or without the compiler.

#include "CudaBinary.h"
#include "CudaPlugin.h"

#include <algorithm>

namespace trident::cuda {

trident_status moduleLoad(trident_device device, const void *binary, size_t size, trident_module *out) {
  return guarded([&]() -> trident_status {
    std::vector<BinaryKernel> kernels;
    std::string ptx;
    if (!decodeBinary(std::string_view(static_cast<const char *>(binary), size), kernels, ptx))
      return fail(TRIDENT_ERROR_INVALID_ARGUMENT,
                  "not a CUDA-plugin binary (its header or kernel list is malformed)");
    CudaDevice &dev = cudaDevice(device);
    if (trident_status s = makeCurrent(dev))
      return s;
    Driver &d = driver();
    char errorLog[8192] = {0}, infoLog[4096] = {0};
    int options[] = {kJitErrorLogBuffer, kJitErrorLogBufferSize, kJitInfoLogBuffer, kJitInfoLogBufferSize};
    void *values[] = {errorLog, reinterpret_cast<void *>(sizeof errorLog), infoLog,
                      reinterpret_cast<void *>(sizeof infoLog)};
    auto mod = std::make_unique<trident_module_s>();
    mod->device = &dev;
    CUresult r = d.cuModuleLoadDataEx(&mod->module, ptx.c_str(), 4, options, values);
    if (r != CUDA_SUCCESS)
      return fail(TRIDENT_ERROR_DEVICE, "the CUDA driver cannot load the module: " + d.describe(r) +
                                            (errorLog[0] ? std::string("\n") + errorLog : std::string()));
    for (const BinaryKernel &k : kernels) {
      auto kernel = std::make_unique<trident_kernel_s>();
      kernel->name = k.name;
      kernel->numThreads = k.threads;
      kernel->sharedBytes = k.shared;
      kernel->numParams = k.params;
      kernel->tensorMaps = k.tensorMaps;
      r = d.cuModuleGetFunction(&kernel->function, mod->module, k.name.c_str());
      if (r != CUDA_SUCCESS) {
        d.cuModuleUnload(mod->module);
        return check(r, "cuModuleGetFunction(" + k.name + ")");
      }
      mod->kernels.add(k.name, std::move(kernel));
    }
    *out = mod.release();
    return TRIDENT_SUCCESS;
  });
}

trident_status moduleUnload(trident_module module) {
  trident_status s = makeCurrent(*module->device);
  if (s == TRIDENT_SUCCESS)
    s = check(driver().cuModuleUnload(module->module), "cuModuleUnload");
  delete module;
  return s;
}

trident_status moduleGetKernel(trident_module module, const char *name, trident_kernel *out) {
  return module->kernels.find(name, out);
}

namespace {

// A CUtensorMap: 128 bytes, 64-byte aligned.
struct TensorMapStorage {
  alignas(64) unsigned char bytes[128];
};
constexpr size_t kTensorMapWords = 19, kMaxTensorMaps = 16;

// The address of a zeroed 16-byte element on `device`, made at its first use and freed
// when the device closes (CudaPlugin.cpp). The device's context is current.
trident_status zeroElement(CudaDevice &device, uint64_t &out) {
  std::lock_guard<std::mutex> lock(device.zeroMutex);
  if (!device.zero) {
    const sdk::GpuCalls &c = driver().calls;
    sdk::GpuPtr p = 0;
    if (trident_status s = check(c.alloc.fn(&p, 16), c.alloc.name))
      return s;
    if (trident_status s = check(c.fill8.fn(p, 0, 16, nullptr), c.fill8.name))
      return s;
    if (trident_status s = check(c.synchronize.fn(), c.synchronize.name))
      return s;
    device.zero = p;
  }
  out = uint64_t(device.zero);
  return TRIDENT_SUCCESS;
}

// Map `m` of `kernel` (its words: simt/Tma.h) for this launch's arguments.
trident_status encodeTensorMap(CudaDevice &device, const trident_kernel_s &kernel, size_t m,
                               const trident_launch_params *params, TensorMapStorage &out) {
  const int64_t *w = kernel.tensorMaps.data() + m * kTensorMapWords;
  int64_t rank = w[0], bytes = w[1], swizzle = w[2];
  auto value = [&](int64_t ref, uint64_t &v) {
    if (ref < 0) {
      v = uint64_t(-1 - ref);
      return true;
    }
    if (uint64_t(ref) >= params->num_args)
      return false;
    v = params->args[ref].bits;
    return true;
  };
  uint64_t base = 0;
  if (rank < 1 || rank > 5 || !value(w[3], base))
    return fail(TRIDENT_ERROR_INVALID_ARGUMENT, "kernel '" + kernel.name + "' has a malformed tensor map");
  // CUDA lists dimensions innermost first; strides in bytes, for all but the innermost.
  uint64_t dims[5], strides[5];
  uint32_t box[5], elementStrides[5];
  bool empty = false;
  for (int64_t k = 0; k < rank; ++k) {
    size_t at = size_t(rank - 1 - k);
    uint64_t size = 0, stride = 0;
    if (!value(w[4 + k], size) || !value(w[9 + k], stride))
      return fail(TRIDENT_ERROR_INVALID_ARGUMENT, "kernel '" + kernel.name + "' has a malformed tensor map");
    if (int64_t(size) < 0 || size > (uint64_t(1) << 32))
      return fail(TRIDENT_ERROR_INVALID_ARGUMENT,
                  "kernel '" + kernel.name + "': a tensor descriptor's size " + std::to_string(int64_t(size)) +
                      " is outside what the tensor-copy engine takes (0 .. 2^32); launch with TRIDENT_CUDA_TMA=off");
    empty = empty || size == 0;
    dims[at] = size;
    if (at)
      strides[at - 1] = stride * uint64_t(bytes);
    box[at] = uint32_t(w[14 + k]);
    elementStrides[at] = 1;
  }
  // The engine wants every stride a multiple of 16 bytes. A dimension of one element has
  // no use for its stride (only coordinate 0 is in bounds), so it gets the smallest
  // valid one; a tensor with no elements reads nothing but the zero fill, so its map
  // is one element of a zeroed device buffer, every box coordinate but 0 out of bounds
  // and that one zero too.
  if (empty) {
    if (trident_status st = zeroElement(device, base))
      return st;
    for (int64_t k = 0; k < rank; ++k) {
      dims[k] = 1;
      if (k)
        strides[k - 1] = 16;
    }
  }
  for (int64_t k = 1; k < rank; ++k)
    if (dims[k] == 1)
      strides[k - 1] = (((k == 1 ? uint64_t(bytes) : strides[k - 2]) * dims[k - 1]) + 15) / 16 * 16;
  int dataType = bytes == 1 ? 0 : bytes == 2 ? 1 : bytes == 4 ? 2 : 4; // UINT8/16/32/64: copies move bits
  int swizzleMode = swizzle == 128 ? 3 : swizzle == 64 ? 2 : swizzle == 32 ? 1 : 0;
  constexpr int kL2Promotion128B = 2, kInterleaveNone = 0, kOobFillZero = 0;
  Driver &d = driver();
  CUresult r = d.cuTensorMapEncodeTiled(out.bytes, dataType, uint32_t(rank), reinterpret_cast<void *>(base), dims,
                                        strides, box, elementStrides, kInterleaveNone, swizzleMode, kL2Promotion128B,
                                        kOobFillZero);
  if (r != CUDA_SUCCESS)
    return fail(TRIDENT_ERROR_INVALID_ARGUMENT, "kernel '" + kernel.name +
                                                    "': cuTensorMapEncodeTiled refused a tensor descriptor "
                                                    "(base, sizes or strides): " +
                                                    d.describe(r));
  return TRIDENT_SUCCESS;
}

} // namespace

trident_status launch(trident_stream stream, trident_kernel kernel, const trident_launch_params *params) {
  if (trident_status s = sdk::checkGpuLaunch(kernel->name, kernel->numParams, params))
    return s;
  const sdk::GpuStream &s = sdk::gpuStream(stream);
  if (trident_status st = makeCurrent(*s.device))
    return st;
  Driver &d = driver();
  uint64_t shared = uint64_t(kernel->sharedBytes) + params->dynamic_shared_memory;
  if (shared > static_cast<uint64_t>(kernel->dynamicSharedLimit.load(std::memory_order_relaxed))) {
    int optin = cudaDevice(*s.device).maxSharedOptin;
    if (shared > static_cast<uint64_t>(optin))
      return fail(TRIDENT_ERROR_INVALID_ARGUMENT,
                  "kernel '" + kernel->name + "' needs " + std::to_string(shared) +
                      " bytes of shared memory; the device allows " + std::to_string(optin));
    if (trident_status st = check(d.cuFuncSetAttribute(kernel->function, kFuncAttrMaxDynamicSharedSizeBytes,
                                                       static_cast<int>(shared)),
                                  "cuFuncSetAttribute(max dynamic shared memory)"))
      return st;
    kernel->dynamicSharedLimit.store(static_cast<int>(shared), std::memory_order_relaxed);
  }
  sdk::ArgumentPointers own(*params);
  void **args = own.data();
  // Tensor maps, after the kernel's own parameters, made from its arguments.
  size_t numMaps = kernel->tensorMaps.size() / kTensorMapWords;
  TensorMapStorage maps[kMaxTensorMaps];
  std::vector<void *> withMaps;
  if (numMaps) {
    if (numMaps > kMaxTensorMaps)
      return fail(TRIDENT_ERROR_INVALID_ARGUMENT, "kernel '" + kernel->name + "' has too many tensor maps");
    for (size_t m = 0; m < numMaps; ++m)
      if (trident_status st = encodeTensorMap(cudaDevice(*s.device), *kernel, m, params, maps[m]))
        return st;
    withMaps.assign(args, args + params->num_args);
    for (size_t m = 0; m < numMaps; ++m)
      withMaps.push_back(maps[m].bytes);
    args = withMaps.data();
  }
  CUresult r = d.cuLaunchKernel(kernel->function, params->grid[0], params->grid[1], params->grid[2],
                                kernel->numThreads, 1, 1, static_cast<unsigned>(shared), cudaStream(s), args,
                                nullptr);
  if (r != CUDA_SUCCESS)
    return fail(TRIDENT_ERROR_LAUNCH, "launching '" + kernel->name + "' failed: " + d.describe(r));
  return TRIDENT_SUCCESS;
}

} // namespace trident::cuda
