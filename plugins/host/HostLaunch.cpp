// Compilation, modules and launches of the host plugin. A host "binary" is the
// kernel's block IR text behind a one-line header; loading it parses and verifies
// it, and a launch runs boxes of the grid (Interpreter::ProgramBox) in the
// reference interpreter on the thread pool.

#include "HostDevice.h"
#include "trident/sdk/KernelArgs.h"

#include "trident/interp/Interpreter.h"
#include "trident/ir/Parser.h"
#include "trident/ir/Verifier.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <optional>

struct trident_kernel_s {
  trident_module_s *module = nullptr;
  std::string name;
  std::vector<trident::Type> params; // the kernel's own parameters, without the slice ones
};

struct trident_module_s {
  trident::sdk::HostDevice *device = nullptr;
  std::optional<trident::Module> module;
  bool serial = false; // run programs one at a time (the kernel uses atomics)
  std::mutex mutex;
  std::map<std::string, std::unique_ptr<trident_kernel_s>> kernels;
};

namespace trident::host {

namespace {

constexpr std::string_view kHeader = "// trident-host-binary 1\n";

struct Slot {
  Interpreter interp;
  uint64_t generation = ~uint64_t(0);
};

// True when a function of `m` uses atomics (such kernels run their programs one
// at a time: the interpreter's atomics are not atomic across threads).
bool usesAtomics(const Module &m) {
  bool found = false;
  m.op()->walk([&](Op *op) { found |= op->is(OpCode::AtomicRMW) || op->is(OpCode::AtomicCAS); });
  return found;
}

// The first tl.inline_asm_elementwise of `m`: its assembly is for a GPU, so the
// interpreter refuses the kernel when it is compiled.
const Op *inlineAsmOf(const Module &m) {
  const Op *found = nullptr;
  m.op()->walk([&](Op *op) {
    if (!found && op->is(OpCode::ElementwiseInlineAsm))
      found = op;
  });
  return found;
}

} // namespace

using sdk::HostDevice;
using sdk::hex;

// Interpreters of one device, reused across launches; each knows the device's
// allocations as of the generation it last synchronized with.
class InterpreterPool : public sdk::DeviceExtension {
public:
  std::unique_ptr<Slot> acquire(HostDevice &d) {
    std::unique_ptr<Slot> slot;
    {
      std::lock_guard lock(mutex_);
      if (!free_.empty()) {
        slot = std::move(free_.back());
        free_.pop_back();
      }
    }
    if (!slot)
      slot = std::make_unique<Slot>();
    if (slot->generation != d.generation.load()) {
      uint64_t gen = 0;
      auto allocations = d.snapshot(gen);
      slot->interp.clearBuffers();
      for (const auto &[base, bytes] : allocations)
        slot->interp.addBuffer(reinterpret_cast<void *>(base), bytes,
                               "the " + std::to_string(bytes) + "-byte allocation at " + hex(base) + " of " + d.name);
      slot->generation = gen;
    }
    return slot;
  }
  void release(std::unique_ptr<Slot> slot) {
    std::lock_guard lock(mutex_);
    free_.push_back(std::move(slot));
  }

private:
  std::mutex mutex_;
  std::vector<std::unique_ptr<Slot>> free_;
};

namespace {
// The device's interpreters, made on first use.
InterpreterPool &interpreters(HostDevice &d) {
  std::lock_guard lock(d.mutex);
  if (!d.extension)
    d.extension = std::make_unique<InterpreterPool>();
  return static_cast<InterpreterPool &>(*d.extension);
}
} // namespace

trident_status hostSupportsTarget(trident_context, const char *target) {
  if (target && std::strcmp(target, "host") == 0)
    return TRIDENT_SUCCESS;
  return fail(TRIDENT_ERROR_NOT_SUPPORTED, std::string("the host plugin compiles only for target 'host', not '") +
                                               (target ? target : "") + "'");
}

trident_status hostCompile(trident_context ctx, const char *target, const char *ir, size_t size, const char *kernel,
                           const trident_compile_options *options, trident_binary *out) {
  if (hostSupportsTarget(ctx, target) != TRIDENT_SUCCESS)
    return TRIDENT_ERROR_NOT_SUPPORTED;
  const char *emit = options && TRIDENT_HAS_FIELD(options, trident_compile_options, emit) ? options->emit : nullptr;
  if (emit && std::strcmp(emit, "binary") != 0)
    return fail(TRIDENT_ERROR_NOT_SUPPORTED,
                std::string("the host plugin does not emit '") + emit + "'; it runs block IR and emits only 'binary'");
  return guarded([&]() -> trident_status {
    Diagnostics diags;
    std::string_view text(ir, size);
    std::optional<Module> m = parseModule(text, "<block IR>", diags);
    if (!m || !verify(*m, diags))
      return fail(TRIDENT_ERROR_COMPILE, "the block IR of '" + std::string(kernel) + "' is invalid:\n" + diags.str());
    if (!m->lookupFunction(kernel))
      return fail(TRIDENT_ERROR_NOT_FOUND, "the block IR has no tt.func named '" + std::string(kernel) + "'");
    if (const Op *asm_ = inlineAsmOf(*m)) {
      diags.error(asm_->loc(), "tl.inline_asm_elementwise is not supported for target 'host' (the reference "
                               "interpreter): its assembly is for a GPU target (PTX on cuda)");
      return fail(TRIDENT_ERROR_COMPILE, diags.str());
    }
    auto *bytes = new std::string(kHeader);
    bytes->append(text);
    out->data = bytes->data();
    out->size = bytes->size();
    out->plugin_data = bytes;
    if (TRIDENT_HAS_FIELD(out, trident_binary, metadata)) {
      out->metadata.struct_size = sizeof(trident_kernel_metadata);
      out->metadata.threads_per_program = 1;
      out->metadata.shared_memory = 0;
    }
    return TRIDENT_SUCCESS;
  });
}

trident_status hostBinaryRelease(trident_context, trident_binary *binary) {
  delete static_cast<std::string *>(binary->plugin_data);
  binary->plugin_data = nullptr;
  binary->data = nullptr;
  binary->size = 0;
  return TRIDENT_SUCCESS;
}

trident_status hostModuleLoad(trident_device device, const void *binary, size_t size, trident_module *out) {
  return guarded([&]() -> trident_status {
    std::string_view text(static_cast<const char *>(binary), size);
    if (!text.starts_with(kHeader))
      return fail(TRIDENT_ERROR_INVALID_ARGUMENT, "not a host-plugin binary (its header is missing)");
    Diagnostics diags;
    std::optional<Module> m = parseModule(text, "<host binary>", diags);
    if (!m || !verify(*m, diags))
      return fail(TRIDENT_ERROR_INVALID_ARGUMENT, "the host binary does not hold valid block IR:\n" + diags.str());
    auto mod = std::make_unique<trident_module_s>();
    mod->device = sdk::fromHandle(device);
    mod->serial = usesAtomics(*m);
    mod->module = std::move(m);
    *out = mod.release();
    return TRIDENT_SUCCESS;
  });
}

trident_status hostModuleUnload(trident_module module) {
  delete module;
  return TRIDENT_SUCCESS;
}

trident_status hostModuleGetKernel(trident_module module, const char *name, trident_kernel *out) {
  return guarded([&]() -> trident_status {
    std::lock_guard lock(module->mutex);
    auto it = module->kernels.find(name);
    if (it == module->kernels.end()) {
      Op *f = module->module->lookupFunction(name);
      if (!f)
        return fail(TRIDENT_ERROR_NOT_FOUND, "the module has no kernel named '" + std::string(name) + "'");
      auto k = std::make_unique<trident_kernel_s>();
      k->module = module;
      k->name = name;
      k->params = func::argumentTypes(f);
      it = module->kernels.emplace(name, std::move(k)).first;
    }
    *out = it->second.get();
    return TRIDENT_SUCCESS;
  });
}

namespace {

using Box = Interpreter::ProgramBox;

// Splits programs [begin, end) (linear, x fastest) into boxes of whole rows where possible.
void boxesOf(uint64_t begin, uint64_t end, const uint32_t grid[3], std::vector<Box> &out) {
  uint64_t gx = grid[0], gy = grid[1];
  while (begin < end) {
    uint32_t x = uint32_t(begin % gx), y = uint32_t((begin / gx) % gy), z = uint32_t(begin / (gx * gy));
    if (x != 0 || end - begin < gx) {
      uint32_t n = uint32_t(std::min<uint64_t>(gx - x, end - begin));
      out.push_back({{x, y, z}, {n, 1, 1}});
      begin += n;
    } else {
      uint32_t rows = uint32_t(std::min<uint64_t>((end - begin) / gx, gy - y));
      out.push_back({{0, y, z}, {uint32_t(gx), rows, 1}});
      begin += uint64_t(rows) * gx;
    }
  }
}

} // namespace

trident_status hostLaunch(trident_stream stream, trident_kernel kernel, const trident_launch_params *params) {
  if (trident_status s = sdk::checkLaunch("host", params))
    return s;
  HostDevice &d = sdk::streamDevice(stream);
  trident_module_s &mod = *kernel->module;
  if (mod.device != &d)
    return fail(TRIDENT_ERROR_INVALID_ARGUMENT, "kernel '" + kernel->name + "' was loaded on " + mod.device->name +
                                                    ", not on " + d.name);
  if (trident_status s = sdk::checkArguments(kernel->name, kernel->params, *params))
    return s;
  return guarded([&]() -> trident_status {
    size_t n = kernel->params.size();
    std::vector<KernelArg> args(n);
    for (size_t i = 0; i < n; ++i)
      args[i] = KernelArg{kernel->params[i], params->args[i].bits};
    const std::array<uint32_t, 3> grid{params->grid[0], params->grid[1], params->grid[2]};

    uint64_t total = uint64_t(params->grid[0]) * params->grid[1] * params->grid[2];
    sdk::ThreadPool &pool = sdk::threadPool(d.context);
    InterpreterPool &slots = interpreters(d);
    uint64_t chunks = mod.serial ? 1 : std::min<uint64_t>(total, uint64_t(pool.concurrency()) * 4);
    std::vector<std::vector<Box>> work(chunks);
    for (uint64_t c = 0; c < chunks; ++c)
      boxesOf(total * c / chunks, total * (c + 1) / chunks, params->grid, work[c]);

    std::atomic<bool> failed{false};
    std::mutex errorMutex;
    std::string error;
    auto runChunk = [&](size_t c) {
      if (failed.load())
        return;
      std::unique_ptr<Slot> slot = slots.acquire(d);
      for (const Box &box : work[c]) {
        Diagnostics diags;
        if (!slot->interp.run(*mod.module, kernel->name, args, grid, box, diags)) {
          std::lock_guard lock(errorMutex);
          if (!failed.exchange(true))
            error = diags.str();
          break;
        }
        if (failed.load())
          break;
      }
      slots.release(std::move(slot));
    };
    pool.parallelFor(chunks, runChunk);
    if (failed)
      return fail(TRIDENT_ERROR_LAUNCH, "kernel '" + kernel->name + "' failed on " + d.name + ": " + error);
    return TRIDENT_SUCCESS;
  });
}

} // namespace trident::host
