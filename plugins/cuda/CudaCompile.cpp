// Compilation for the CUDA plugin built with the compiler: block IR -> PTX through
// backends/nvptx, and to a cubin through ptxas when asked. A plugin built without
// the compiler (-DTRIDENT_ENABLE_COMPILER=OFF) has CudaNoCompile.cpp instead and
// only loads and launches (CudaModules.cpp).

#include "CudaBinary.h"
#include "CudaPlugin.h"
#include "Ptxas.h"

#include "trident/backends/nvptx/CodeGen.h"
#include "trident/backends/nvptx/Target.h"
#include "trident/ir/Parser.h"
#include "trident/ir/Verifier.h"

namespace trident::cuda {

namespace {

// The binary of `kernel` from `m`: `code` is the PTX, or the cubin when `isCubin`.
std::string encode(const nvptx::PTXModule &m, const std::string &kernel, const std::string &code, bool isCubin) {
  std::vector<BinaryKernel> kernels;
  for (const nvptx::KernelInfo &k : m.kernels)
    if (k.name == kernel)
      kernels.push_back({k.name, k.numThreads, static_cast<uint32_t>(k.sharedBytes), k.numParams, k.tensorMaps});
  return encodeBinary(kernels, code, isCubin);
}

const char *emitKind(const trident_compile_options *options) {
  if (!options || !TRIDENT_HAS_FIELD(options, trident_compile_options, emit) || !options->emit)
    return "binary";
  return options->emit;
}

void release(trident_binary *b) {
  delete static_cast<std::string *>(b->plugin_data);
  b->plugin_data = nullptr;
  b->data = nullptr;
  b->size = 0;
}

} // namespace

trident_status supportsTarget(trident_context, const char *target) {
  return target && nvptx::architecture(target) ? TRIDENT_SUCCESS : TRIDENT_ERROR_NOT_SUPPORTED;
}

trident_status compile(trident_context, const char *target, const char *ir, size_t size, const char *kernel,
                       const trident_compile_options *options, trident_binary *out) {
  std::optional<TargetDesc> desc = target ? nvptx::targetDesc(target) : std::nullopt;
  if (!desc)
    return fail(TRIDENT_ERROR_NOT_SUPPORTED, std::string("the CUDA plugin does not compile for '") +
                                                 (target ? target : "") +
                                                 "' (it supports cuda:sm_80 and newer)");
  return guarded([&]() -> trident_status {
    Diagnostics diags;
    std::optional<Module> m = parseModule(std::string_view(ir, size), "<block IR>", diags);
    if (!m || !verify(*m, diags))
      return fail(TRIDENT_ERROR_COMPILE,
                  "the block IR of '" + std::string(kernel) + "' is invalid:\n" + diags.str());
    if (!m->lookupFunction(kernel))
      return fail(TRIDENT_ERROR_NOT_FOUND, "the block IR has no tt.func named '" + std::string(kernel) + "'");
    nvptx::PTXOptions ptxOptions;
    ptxOptions.kernel = kernel;
    if (options && TRIDENT_HAS_FIELD(options, trident_compile_options, num_warps))
      ptxOptions.numWarps = options->num_warps;
    if (options && TRIDENT_HAS_FIELD(options, trident_compile_options, num_stages) && options->num_stages > 0)
      ptxOptions.numStages = options->num_stages;
    std::string emit = emitKind(options);
    std::string text;
    trident_kernel_metadata metadata{sizeof(trident_kernel_metadata), 0, 0, 0};
    if (emit == "thread-ir") {
      text = nvptx::emitThreadIR(*m, *desc, ptxOptions, diags);
    } else if (emit == "llvm") {
      text = nvptx::emitLLVM(*m, *desc, ptxOptions, diags);
    } else if (emit == "ptx" || emit == "binary" || emit == "cubin") {
      std::optional<nvptx::PTXModule> ptx = nvptx::compileModuleToPTX(*m, *desc, ptxOptions, diags);
      if (ptx && (emit == "cubin" || (emit == "binary" && cuda::cubinRequested()))) {
        std::string ptxas = cuda::findPtxas(), error;
        if (ptxas.empty())
          return fail(TRIDENT_ERROR_NOT_SUPPORTED, "a cubin was asked for (--emit cubin or TRIDENT_CUDA_CUBIN=1) "
                                                   "but ptxas is not installed: set TRIDENT_PTXAS or install the "
                                                   "CUDA toolkit, or let the driver compile the PTX");
        std::optional<std::string> cubin = cuda::assemble(ptxas, ptx->ptx, nvptx::llvmProcessor(*nvptx::architecture(target)), error);
        if (!cubin)
          return fail(TRIDENT_ERROR_COMPILE, "cannot assemble '" + std::string(kernel) + "': " + error);
        text = emit == "cubin" ? *cubin : encode(*ptx, kernel, *cubin, true);
      } else if (ptx) {
        text = emit == "ptx" ? ptx->ptx : encode(*ptx, kernel, ptx->ptx, false);
      }
      if (ptx) {
        for (const nvptx::KernelInfo &k : ptx->kernels)
          if (k.name == kernel) {
            metadata.threads_per_program = k.numThreads;
            metadata.shared_memory = static_cast<uint32_t>(k.sharedBytes);
          }
      }
    } else {
      return fail(TRIDENT_ERROR_NOT_SUPPORTED,
                  "the CUDA plugin emits 'binary', 'cubin', 'ptx', 'llvm' or 'thread-ir', not '" + emit + "'");
    }
    if (text.empty())
      return fail(TRIDENT_ERROR_COMPILE,
                  "cannot compile '" + std::string(kernel) + "' for " + desc->name + ":\n" + diags.str());
    auto *bytes = new std::string(std::move(text));
    out->data = bytes->data();
    out->size = bytes->size();
    out->plugin_data = bytes;
    if (TRIDENT_HAS_FIELD(out, trident_binary, metadata))
      out->metadata = metadata;
    return TRIDENT_SUCCESS;
  });
}

trident_status binaryRelease(trident_context, trident_binary *binary) {
  release(binary);
  return TRIDENT_SUCCESS;
}

} // namespace trident::cuda
