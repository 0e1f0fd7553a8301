// Compilation: block IR text (or thread IR, for tests and tools) -> the SIMT
// lowering with the device's TargetDesc -> SPIR-V (backends/spirv), validated,
// then packed with its launch interface (KernelBinary.h). Needs no device: the
// target string names one found at init, or a compile-only profile (spirv::profileDevice).

#include "KernelBinary.h"
#include "VulkanDevice.h"

#include "trident/backends/spirv/Tools.h"
#include "trident/ir/Parser.h"
#include "trident/ir/Printer.h"
#include "trident/ir/Verifier.h"

#include <cstdlib>
#include <cstring>

namespace trident::vulkan {

namespace {

// The device description for `target`: "vulkan" (generic) or a device's "vulkan:<name>".
// A device's description is read after its cooperative-matrix layout probe (which runs
// once, opening the device, where there are layouts to confirm).
std::optional<spirv::DeviceInfo> deviceFor(const trident_context_s &ctx, std::string_view target) {
  for (const auto &d : ctx.devices)
    if (d->physical->info.name == target) {
      probeCoopLayouts(*d);
      return d->physical->info;
    }
  for (const auto &p : ctx.physical)
    if (p->info.name == target)
      return p->info;
  return spirv::profileDevice(target); // "vulkan", "vulkan:nvidia", "vulkan:lavapipe"
}

struct Output {
  std::vector<uint8_t> bytes;
};

bool optimizeRequested() {
  const char *v = std::getenv("TRIDENT_SPIRV_OPTIMIZE");
  return v && *v && std::strcmp(v, "0") != 0;
}

} // namespace

trident_status supportsTarget(trident_context ctx, const char *target) {
  if (target && deviceFor(*ctx, target))
    return TRIDENT_SUCCESS;
  std::string known = "vulkan, vulkan:nvidia, vulkan:lavapipe";
  for (const auto &p : ctx->physical)
    known += ", " + p->info.name;
  return fail(TRIDENT_ERROR_NOT_SUPPORTED, std::string("the vulkan plugin does not compile for '") +
                                               (target ? target : "") + "' (its targets: " + known + ")");
}

trident_status compile(trident_context ctx, const char *target, const char *ir, size_t size, const char *kernel,
                       const trident_compile_options *options, trident_binary *out) {
  std::optional<spirv::DeviceInfo> device = target ? deviceFor(*ctx, target) : std::nullopt;
  if (!device)
    return supportsTarget(ctx, target);
  const char *emit = options && TRIDENT_HAS_FIELD(options, trident_compile_options, emit) ? options->emit : nullptr;
  std::string kind = emit ? emit : "binary";
  if (kind != "binary" && kind != "spirv" && kind != "spirv-asm" && kind != "thread-ir")
    return fail(TRIDENT_ERROR_NOT_SUPPORTED, "the vulkan plugin does not emit '" + kind +
                                                 "'; it emits binary, spirv, spirv-asm and thread-ir");
  return guarded([&]() -> trident_status {
    Diagnostics diags;
    std::string name = kernel ? kernel : "";
    std::optional<Module> m = parseModule(std::string_view(ir, size), "<kernel IR>", diags);
    if (!m || !verify(*m, diags))
      return fail(TRIDENT_ERROR_COMPILE, "the IR of '" + name + "' is invalid:\n" + diags.str());
    const Op *f = m->lookupFunction(name);
    if (!f)
      return fail(TRIDENT_ERROR_NOT_FOUND, "the IR has no tt.func named '" + name + "'");
    spirv::SpirvOptions opts;
    if (options && TRIDENT_HAS_FIELD(options, trident_compile_options, num_warps))
      opts.numWarps = options->num_warps;
    opts.optimize = optimizeRequested();
    auto output = std::make_unique<Output>();
    if (kind == "thread-ir") {
      std::string text;
      if (spirv::isThreadIR(f)) {
        text = print(*m);
      } else {
        std::optional<Module> t = spirv::lowerToThreadIR(*m, *device, opts, diags);
        if (!t)
          return fail(TRIDENT_ERROR_COMPILE, "cannot compile '" + name + "' for " + device->name + ":\n" + diags.str());
        text = print(*t);
      }
      output->bytes.assign(text.begin(), text.end());
    } else {
      std::optional<spirv::SpirvKernel> k = spirv::compileToSpirv(*m, name, *device, opts, diags);
      if (!k)
        return fail(TRIDENT_ERROR_COMPILE, "cannot compile '" + name + "' for " + device->name + ":\n" + diags.str());
      if (TRIDENT_HAS_FIELD(out, trident_binary, metadata)) {
        out->metadata.struct_size = sizeof(trident_kernel_metadata);
        out->metadata.threads_per_program = k->interface.numThreads;
        out->metadata.shared_memory = k->interface.sharedBytes;
      }
      if (kind == "binary") {
        output->bytes = encodeBinary(*k);
      } else if (kind == "spirv") {
        output->bytes.resize(k->words.size() * 4);
        std::memcpy(output->bytes.data(), k->words.data(), output->bytes.size());
      } else {
        std::string text = spirv::disassemble(k->words);
        output->bytes.assign(text.begin(), text.end());
      }
    }
    out->data = output->bytes.data();
    out->size = output->bytes.size();
    out->plugin_data = output.release();
    return TRIDENT_SUCCESS;
  });
}

trident_status binaryRelease(trident_context, trident_binary *binary) {
  delete static_cast<Output *>(binary->plugin_data);
  binary->plugin_data = nullptr;
  binary->data = nullptr;
  binary->size = 0;
  return TRIDENT_SUCCESS;
}

} // namespace trident::vulkan
