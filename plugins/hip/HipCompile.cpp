// Compilation for the HIP plugin built with the compiler: block IR -> a code object
// through backends/amdgpu. A plugin built without the compiler
// (-DTRIDENT_ENABLE_COMPILER=OFF) has HipNoCompile.cpp instead and only loads and
// launches (HipModules.cpp).

#include "HipBinary.h"
#include "HipPlugin.h"

#include "trident/backends/amdgpu/CodeGen.h"
#include "trident/backends/amdgpu/Target.h"
#include "trident/ir/Parser.h"
#include "trident/ir/Verifier.h"

namespace trident::hip {

namespace {

std::string encode(const amdgpu::HSACOModule &m, const std::string &kernel) {
  std::vector<BinaryKernel> kernels;
  for (const amdgpu::KernelInfo &k : m.kernels)
    if (k.name == kernel)
      kernels.push_back({k.name, k.numThreads, static_cast<uint32_t>(k.sharedBytes), k.numParams, {}});
  return encodeBinary(kernels, m.hsaco);
}

const char *emitKind(const trident_compile_options *options) {
  if (!options || !TRIDENT_HAS_FIELD(options, trident_compile_options, emit) || !options->emit)
    return "binary";
  return options->emit;
}

} // namespace

trident_status supportsTarget(trident_context, const char *target) {
  return target && std::string_view(target).starts_with("hip:") && amdgpu::architecture(target)
             ? TRIDENT_SUCCESS
             : TRIDENT_ERROR_NOT_SUPPORTED;
}

trident_status compile(trident_context ctx, const char *target, const char *ir, size_t size,
                       const char *kernel, const trident_compile_options *options, trident_binary *out) {
  if (supportsTarget(ctx, target) != TRIDENT_SUCCESS)
    return fail(TRIDENT_ERROR_NOT_SUPPORTED, std::string("the HIP plugin does not compile for '") +
                                                 (target ? target : "") +
                                                 "' (it supports hip:gfx90a, hip:gfx942 and hip:gfx1100)");
  std::optional<TargetDesc> desc = amdgpu::targetDesc(target);
  return guarded([&]() -> trident_status {
    Diagnostics diags;
    std::optional<Module> m = parseModule(std::string_view(ir, size), "<block IR>", diags);
    if (!m || !verify(*m, diags))
      return fail(TRIDENT_ERROR_COMPILE,
                  "the block IR of '" + std::string(kernel) + "' is invalid:\n" + diags.str());
    if (!m->lookupFunction(kernel))
      return fail(TRIDENT_ERROR_NOT_FOUND, "the block IR has no tt.func named '" + std::string(kernel) + "'");
    amdgpu::HSACOOptions hsacoOptions;
    hsacoOptions.kernel = kernel;
    if (options && TRIDENT_HAS_FIELD(options, trident_compile_options, num_warps))
      hsacoOptions.numWarps = options->num_warps;
    if (options && TRIDENT_HAS_FIELD(options, trident_compile_options, num_stages) && options->num_stages > 0)
      hsacoOptions.numStages = options->num_stages;
    std::string emit = emitKind(options);
    std::string bytes;
    trident_kernel_metadata metadata{sizeof(trident_kernel_metadata), 0, 0, 0};
    if (emit == "thread-ir") {
      bytes = amdgpu::emitThreadIR(*m, *desc, hsacoOptions, diags);
    } else if (emit == "llvm") {
      bytes = amdgpu::emitLLVM(*m, *desc, hsacoOptions, diags);
    } else if (emit == "amdgcn") {
      bytes = amdgpu::emitAssembly(*m, *desc, hsacoOptions, diags);
    } else if (emit == "hsaco" || emit == "binary") {
      std::optional<amdgpu::HSACOModule> hsaco = amdgpu::compileModuleToHSACO(*m, *desc, hsacoOptions, diags);
      if (hsaco) {
        bytes = emit == "hsaco" ? hsaco->hsaco : encode(*hsaco, kernel);
        for (const amdgpu::KernelInfo &k : hsaco->kernels)
          if (k.name == kernel) {
            metadata.threads_per_program = k.numThreads;
            metadata.shared_memory = static_cast<uint32_t>(k.sharedBytes);
          }
      }
    } else {
      return fail(TRIDENT_ERROR_NOT_SUPPORTED,
                  "the HIP plugin emits 'binary', 'hsaco', 'amdgcn', 'llvm' or 'thread-ir', not '" + emit +
                      "'");
    }
    if (bytes.empty())
      return fail(TRIDENT_ERROR_COMPILE,
                  "cannot compile '" + std::string(kernel) + "' for " + desc->name + ":\n" + diags.str());
    auto *owned = new std::string(std::move(bytes));
    out->data = owned->data();
    out->size = owned->size();
    out->plugin_data = owned;
    if (TRIDENT_HAS_FIELD(out, trident_binary, metadata))
      out->metadata = metadata;
    return TRIDENT_SUCCESS;
  });
}

trident_status binaryRelease(trident_context, trident_binary *binary) {
  delete static_cast<std::string *>(binary->plugin_data);
  binary->plugin_data = nullptr;
  binary->data = nullptr;
  binary->size = 0;
  return TRIDENT_SUCCESS;
}

} // namespace trident::hip
