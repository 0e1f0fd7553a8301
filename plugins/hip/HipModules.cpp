// Compilation (block IR -> a code object through backends/amdgpu), the plugin's
// binary format, modules (the HIP runtime loads the code object) and launches.
//
// A binary is a text header, one line per kernel, then the code object's bytes:
//   trident-hip-binary 1
//   kernel add_kernel threads 256 shared 0 params 4
//   hsaco 5120
//   \x7fELF...

#include "HipPlugin.h"

#include "trident/backends/amdgpu/CodeGen.h"
#include "trident/backends/amdgpu/Target.h"
#include "trident/ir/Parser.h"
#include "trident/ir/Verifier.h"

#include <cstring>
#include <sstream>

namespace trident::hip {

namespace {

constexpr std::string_view kHeader = "trident-hip-binary 1\n";

struct BinaryKernel {
  std::string name;
  uint32_t threads = 0, shared = 0, params = 0;
};

std::string encode(const amdgpu::HSACOModule &m, const std::string &kernel) {
  std::string out(kHeader);
  for (const amdgpu::KernelInfo &k : m.kernels)
    if (k.name == kernel)
      out += "kernel " + k.name + " threads " + std::to_string(k.numThreads) + " shared " +
             std::to_string(k.sharedBytes) + " params " + std::to_string(k.numParams) + "\n";
  out += "hsaco " + std::to_string(m.hsaco.size()) + "\n";
  out += m.hsaco;
  return out;
}

// Splits a binary into its kernels and its code object.
bool decode(std::string_view binary, std::vector<BinaryKernel> &kernels, std::string &hsaco) {
  if (!binary.starts_with(kHeader))
    return false;
  binary.remove_prefix(kHeader.size());
  while (!binary.empty()) {
    size_t eol = binary.find('\n');
    if (eol == std::string_view::npos)
      return false;
    std::istringstream fields{std::string(binary.substr(0, eol))};
    binary.remove_prefix(eol + 1);
    std::string word;
    fields >> word;
    if (word == "hsaco") {
      size_t bytes = 0;
      if (!(fields >> bytes) || bytes != binary.size())
        return false;
      hsaco.assign(binary);
      return true;
    }
    std::string threadsWord, sharedWord, paramsWord;
    BinaryKernel k;
    if (word != "kernel" ||
        !(fields >> k.name >> threadsWord >> k.threads >> sharedWord >> k.shared >> paramsWord >> k.params))
      return false;
    kernels.push_back(k);
  }
  return false;
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

trident_status moduleLoad(trident_device device, const void *binary, size_t size, trident_module *out) {
  return guarded([&]() -> trident_status {
    std::vector<BinaryKernel> kernels;
    std::string hsaco;
    if (!decode(std::string_view(static_cast<const char *>(binary), size), kernels, hsaco))
      return fail(TRIDENT_ERROR_INVALID_ARGUMENT,
                  "not a HIP-plugin binary (its header or kernel list is malformed)");
    if (trident_status s = makeCurrent(device))
      return s;
    Driver &d = driver();
    auto mod = std::make_unique<trident_module_s>();
    mod->device = device;
    if (hipError_t r = d.hipModuleLoadData(&mod->module, hsaco.data()); r != hipSuccess)
      return fail(TRIDENT_ERROR_DEVICE,
                  "the HIP runtime cannot load the code object on " + device->arch + ": " + d.describe(r));
    for (const BinaryKernel &k : kernels) {
      auto kernel = std::make_unique<trident_kernel_s>();
      kernel->name = k.name;
      kernel->numThreads = k.threads;
      kernel->sharedBytes = k.shared;
      kernel->numParams = k.params;
      if (hipError_t r = d.hipModuleGetFunction(&kernel->function, mod->module, k.name.c_str());
          r != hipSuccess) {
        d.hipModuleUnload(mod->module);
        return check(r, ("hipModuleGetFunction(" + k.name + ")").c_str());
      }
      mod->kernels[k.name] = std::move(kernel);
    }
    *out = mod.release();
    return TRIDENT_SUCCESS;
  });
}

trident_status moduleUnload(trident_module module) {
  trident_status s = makeCurrent(module->device);
  if (s == TRIDENT_SUCCESS)
    s = check(driver().hipModuleUnload(module->module), "hipModuleUnload");
  delete module;
  return s;
}

trident_status moduleGetKernel(trident_module module, const char *name, trident_kernel *out) {
  auto it = module->kernels.find(name);
  if (it == module->kernels.end())
    return fail(TRIDENT_ERROR_NOT_FOUND, std::string("the module has no kernel '") + name + "'");
  *out = it->second.get();
  return TRIDENT_SUCCESS;
}

trident_status launch(trident_stream stream, trident_kernel kernel, const trident_launch_params *params) {
  if (!params || params->version != TRIDENT_LAUNCH_ABI_VERSION)
    return fail(TRIDENT_ERROR_INVALID_ARGUMENT, "launch parameters of another launch ABI version");
  if (params->grid[0] == 0 || params->grid[1] == 0 || params->grid[2] == 0)
    return fail(TRIDENT_ERROR_INVALID_ARGUMENT, "every grid dimension must be at least 1");
  if (params->num_args != kernel->numParams)
    return fail(TRIDENT_ERROR_INVALID_ARGUMENT, "kernel '" + kernel->name + "' takes " +
                                                    std::to_string(kernel->numParams) + " arguments, got " +
                                                    std::to_string(params->num_args));
  uint64_t lds = uint64_t(kernel->sharedBytes) + params->dynamic_shared_memory;
  uint64_t limit = stream->device->facts.sharedMemPerBlock;
  if (limit > 0 && lds > limit)
    return fail(TRIDENT_ERROR_INVALID_ARGUMENT, "kernel '" + kernel->name + "' needs " + std::to_string(lds) +
                                                    " bytes of LDS; the device allows " +
                                                    std::to_string(limit));
  if (trident_status s = makeCurrent(stream->device))
    return s;
  // The runtime reads each argument's size from the code object's metadata: point at
  // the low bytes of each argument's 64 bits (little-endian).
  std::vector<void *> args(params->num_args);
  for (uint32_t i = 0; i < params->num_args; ++i)
    args[i] = const_cast<uint64_t *>(&params->args[i].bits);
  // The kernel's own LDS is static (in its descriptor); only the launch's extra is dynamic.
  hipError_t r = driver().hipModuleLaunchKernel(
      kernel->function, params->grid[0], params->grid[1], params->grid[2], kernel->numThreads, 1, 1,
      params->dynamic_shared_memory, stream->stream, args.data(), nullptr);
  if (r != hipSuccess)
    return fail(TRIDENT_ERROR_LAUNCH, "launching '" + kernel->name + "' failed: " + driver().describe(r));
  return TRIDENT_SUCCESS;
}

} // namespace trident::hip
