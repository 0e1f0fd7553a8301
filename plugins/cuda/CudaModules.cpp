// Modules (the driver loads a binary's PTX or cubin) and launches: the part of the
// CUDA plugin that both builds have, with or without the compiler.

#include "CudaBinary.h"
#include "CudaPlugin.h"

namespace trident::cuda {

trident_status moduleLoad(trident_device device, const void *binary, size_t size, trident_module *out) {
  return guarded([&]() -> trident_status {
    std::vector<BinaryKernel> kernels;
    std::string ptx;
    if (!decodeBinary(std::string_view(static_cast<const char *>(binary), size), kernels, ptx))
      return fail(TRIDENT_ERROR_INVALID_ARGUMENT,
                  "not a CUDA-plugin binary (its header or kernel list is malformed)");
    if (trident_status s = makeCurrent(device))
      return s;
    Driver &d = driver();
    char errorLog[8192] = {0}, infoLog[4096] = {0};
    int options[] = {kJitErrorLogBuffer, kJitErrorLogBufferSize, kJitInfoLogBuffer, kJitInfoLogBufferSize};
    void *values[] = {errorLog, reinterpret_cast<void *>(sizeof errorLog), infoLog,
                      reinterpret_cast<void *>(sizeof infoLog)};
    auto mod = std::make_unique<trident_module_s>();
    mod->device = device;
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
      r = d.cuModuleGetFunction(&kernel->function, mod->module, k.name.c_str());
      if (r != CUDA_SUCCESS) {
        d.cuModuleUnload(mod->module);
        return check(r, ("cuModuleGetFunction(" + k.name + ")").c_str());
      }
      mod->kernels.add(k.name, std::move(kernel));
    }
    *out = mod.release();
    return TRIDENT_SUCCESS;
  });
}

trident_status moduleUnload(trident_module module) {
  trident_status s = makeCurrent(module->device);
  if (s == TRIDENT_SUCCESS)
    s = check(driver().cuModuleUnload(module->module), "cuModuleUnload");
  delete module;
  return s;
}

trident_status moduleGetKernel(trident_module module, const char *name, trident_kernel *out) {
  return module->kernels.find(name, out);
}

trident_status launch(trident_stream stream, trident_kernel kernel, const trident_launch_params *params) {
  if (trident_status s = sdk::checkGpuLaunch(kernel->name, kernel->numParams, params))
    return s;
  if (trident_status s = makeCurrent(stream->device))
    return s;
  Driver &d = driver();
  uint64_t shared = uint64_t(kernel->sharedBytes) + params->dynamic_shared_memory;
  if (shared > static_cast<uint64_t>(kernel->dynamicSharedLimit.load(std::memory_order_relaxed))) {
    int optin = stream->device->maxSharedOptin;
    if (shared > static_cast<uint64_t>(optin))
      return fail(TRIDENT_ERROR_INVALID_ARGUMENT,
                  "kernel '" + kernel->name + "' needs " + std::to_string(shared) +
                      " bytes of shared memory; the device allows " + std::to_string(optin));
    if (trident_status s = check(d.cuFuncSetAttribute(kernel->function, kFuncAttrMaxDynamicSharedSizeBytes,
                                                      static_cast<int>(shared)),
                                 "cuFuncSetAttribute(max dynamic shared memory)"))
      return s;
    kernel->dynamicSharedLimit.store(static_cast<int>(shared), std::memory_order_relaxed);
  }
  sdk::ArgumentPointers args(*params);
  CUresult r = d.cuLaunchKernel(kernel->function, params->grid[0], params->grid[1], params->grid[2],
                                kernel->numThreads, 1, 1, static_cast<unsigned>(shared), stream->stream,
                                args.data(), nullptr);
  if (r != CUDA_SUCCESS)
    return fail(TRIDENT_ERROR_LAUNCH, "launching '" + kernel->name + "' failed: " + d.describe(r));
  return TRIDENT_SUCCESS;
}

} // namespace trident::cuda
