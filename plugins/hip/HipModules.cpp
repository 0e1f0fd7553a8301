// Modules (the HIP runtime loads a binary's code object) and launches: the part of
// the HIP plugin that both builds have, with or without the compiler.

#include "HipBinary.h"
#include "HipPlugin.h"

namespace trident::hip {

trident_status moduleLoad(trident_device device, const void *binary, size_t size, trident_module *out) {
  return guarded([&]() -> trident_status {
    std::vector<BinaryKernel> kernels;
    std::string hsaco;
    if (!decodeBinary(std::string_view(static_cast<const char *>(binary), size), kernels, hsaco))
      return fail(TRIDENT_ERROR_INVALID_ARGUMENT,
                  "not a HIP-plugin binary (its header or kernel list is malformed)");
    HipDevice &dev = hipDevice(device);
    if (trident_status s = makeCurrent(dev))
      return s;
    Driver &d = driver();
    auto mod = std::make_unique<trident_module_s>();
    mod->device = &dev;
    if (hipError_t r = d.hipModuleLoadData(&mod->module, hsaco.data()); r != hipSuccess)
      return fail(TRIDENT_ERROR_DEVICE,
                  "the HIP runtime cannot load the code object on " + dev.arch + ": " + d.describe(r));
    for (const BinaryKernel &k : kernels) {
      auto kernel = std::make_unique<trident_kernel_s>();
      kernel->name = k.name;
      kernel->numThreads = k.threads;
      kernel->sharedBytes = k.shared;
      kernel->numParams = k.params;
      if (hipError_t r = d.hipModuleGetFunction(&kernel->function, mod->module, k.name.c_str());
          r != hipSuccess) {
        d.hipModuleUnload(mod->module);
        return check(r, "hipModuleGetFunction(" + k.name + ")");
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
    s = check(driver().hipModuleUnload(module->module), "hipModuleUnload");
  delete module;
  return s;
}

trident_status moduleGetKernel(trident_module module, const char *name, trident_kernel *out) {
  return module->kernels.find(name, out);
}

trident_status launch(trident_stream stream, trident_kernel kernel, const trident_launch_params *params) {
  if (trident_status s = sdk::checkGpuLaunch(kernel->name, kernel->numParams, params))
    return s;
  uint64_t lds = uint64_t(kernel->sharedBytes) + params->dynamic_shared_memory;
  const sdk::GpuStream &s = sdk::gpuStream(stream);
  uint64_t limit = hipDevice(*s.device).facts.sharedMemPerBlock;
  if (limit > 0 && lds > limit)
    return fail(TRIDENT_ERROR_INVALID_ARGUMENT, "kernel '" + kernel->name + "' needs " + std::to_string(lds) +
                                                    " bytes of LDS; the device allows " +
                                                    std::to_string(limit));
  if (trident_status st = makeCurrent(*s.device))
    return st;
  sdk::ArgumentPointers args(*params); // the runtime reads each one's size from the code object
  // The kernel's own LDS is static (in its descriptor); only the launch's extra is dynamic.
  hipError_t r = driver().hipModuleLaunchKernel(
      kernel->function, params->grid[0], params->grid[1], params->grid[2], kernel->numThreads, 1, 1,
      params->dynamic_shared_memory, hipStream(s), args.data(), nullptr);
  if (r != hipSuccess)
    return fail(TRIDENT_ERROR_LAUNCH, "launching '" + kernel->name + "' failed: " + driver().describe(r));
  return TRIDENT_SUCCESS;
}

} // namespace trident::hip
