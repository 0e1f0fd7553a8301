// The CPU plugin: device cpu:0 runs kernels compiled for this machine's CPU with
// LLVM (CpuCodeGen.h) and JIT-linked into the process (CpuJit.h); a launch spreads
// ranges of programs over the SDK's thread pool, each worker with its own shared
// memory. Devices, memory, streams and events are the SDK's host-memory devices, so
// memory is host memory and work runs when it is enqueued.
//
// TRIDENT_CPU_DEVICES=N exposes N devices (default 1) sharing one thread pool;
// TRIDENT_CPU_THREADS=N sets the pool's size (default: one per core); kernels compiled
// with `debug` or under TRIDENT_CPU_CHECK=1 check their global accesses (CpuChecks.h).

#include "CpuBinary.h"
#include "CpuChecks.h"
#include "CpuCodeGen.h"
#include "CpuJit.h"
#include "CpuTarget.h"
#include "trident/Version.h"
#include "trident/ir/Parser.h"
#include "trident/sdk/HostDevices.h"
#include "trident/sdk/KernelArgs.h"
#include "trident/sdk/Status.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <optional>

struct trident_module_s;
struct trident_kernel_s {
  trident_module_s *module = nullptr;
  trident::cpu::BinaryKernel info;
  trident::cpu::EntryFunction entry = nullptr;
};
struct trident_module_s {
  trident::sdk::HostDevice *device = nullptr;
  std::unique_ptr<trident::cpu::LoadedObject> object;
  bool checked = false; // compiled with bounds checks (CpuChecks.h)
  std::map<std::string, std::unique_ptr<trident_kernel_s>> kernels;
};

namespace trident::cpu {

namespace {

using sdk::fail;
using sdk::guarded;

trident_status init(const trident_init_params *, trident_context *out) {
  return sdk::initHostDevices({"cpu", "TRIDENT_CPU_DEVICES", "TRIDENT_CPU_THREADS"}, out);
}

trident_status deviceProps(trident_context ctx, uint32_t ordinal, trident_device_props *props) {
  trident_device_props p;
  if (trident_status s = sdk::baseDeviceProps(ctx, ordinal, p))
    return s;
  std::snprintf(p.name, sizeof p.name, "%s (LLVM, %u threads)", hostCpu().name.c_str(), p.multiprocessor_count);
  std::snprintf(p.target, sizeof p.target, "%s", hostTarget().c_str());
  p.shared_memory_per_program = targetDesc().sharedMemoryBytes;
  sdk::writeDeviceProps(p, props);
  return TRIDENT_SUCCESS;
}

trident_status supportsTarget(trident_context, const char *target) {
  if (target && acceptsTarget(target))
    return TRIDENT_SUCCESS;
  return fail(TRIDENT_ERROR_NOT_SUPPORTED, "the CPU plugin compiles for 'cpu' or '" + hostTarget() + "', not '" +
                                               (target ? target : "") + "'");
}

trident_status compileKernel(trident_context ctx, const char *target, const char *ir, size_t size, const char *kernel,
                             const trident_compile_options *options, trident_binary *out) {
  if (supportsTarget(ctx, target) != TRIDENT_SUCCESS)
    return TRIDENT_ERROR_NOT_SUPPORTED;
  return guarded([&]() -> trident_status {
    CompileOptions compile;
    compile.kernel = kernel;
    if (options && TRIDENT_HAS_FIELD(options, trident_compile_options, emit) && options->emit)
      compile.emit = options->emit;
    bool debug = options && TRIDENT_HAS_FIELD(options, trident_compile_options, debug) && options->debug;
    CheckMode checks = checkModeFor(debug);
    compile.boundsChecks = checks != CheckMode::Off;
    if (compile.emit != "binary" && compile.emit != "thread-ir" && compile.emit != "llvm" && compile.emit != "asm")
      return fail(TRIDENT_ERROR_NOT_SUPPORTED,
                  "the CPU plugin emits 'binary', 'asm', 'llvm' or 'thread-ir', not '" + compile.emit + "'");
    Diagnostics diags;
    std::optional<Module> m = parseModule(std::string_view(ir, size), "<block IR>", diags);
    if (!m)
      return fail(TRIDENT_ERROR_COMPILE, "the block IR of '" + std::string(kernel) + "' is invalid:\n" + diags.str());
    if (!m->lookupFunction(kernel))
      return fail(TRIDENT_ERROR_NOT_FOUND, "the block IR has no tt.func named '" + std::string(kernel) + "'");
    std::optional<CompiledModule> compiled = cpu::compile(*m, compile, diags);
    if (!compiled)
      return fail(TRIDENT_ERROR_COMPILE, "cannot compile '" + std::string(kernel) + "' for " + hostTarget() + ":\n" +
                                             diags.str());
    std::string bytes;
    if (compile.emit == "binary") {
      Binary binary;
      binary.cpu = hostCpu().name;
      binary.features = hostCpu().features;
      binary.checks = checks;
      for (const KernelInfo &k : compiled->kernels) {
        BinaryKernel bk{k.name, k.sharedBytes, {}};
        for (Type t : k.params)
          bk.argumentCodes.push_back(sdk::argumentCode(t));
        binary.kernels.push_back(std::move(bk));
      }
      binary.object = std::move(compiled->output);
      bytes = writeBinary(binary);
    } else {
      bytes = std::move(compiled->output);
    }
    auto *held = new std::string(std::move(bytes));
    out->data = held->data();
    out->size = held->size();
    out->plugin_data = held;
    if (TRIDENT_HAS_FIELD(out, trident_binary, metadata)) {
      out->metadata.struct_size = sizeof(trident_kernel_metadata);
      out->metadata.threads_per_program = 1;
      uint64_t shared = 0;
      for (const KernelInfo &k : compiled->kernels)
        if (k.name == kernel)
          shared = k.sharedBytes;
      out->metadata.shared_memory = uint32_t(shared);
    }
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

// Serializes JIT linking: LLJIT instances are independent, but LLVM's target
// initialization and the process symbol search are shared.
std::mutex jitMutex;

trident_status moduleLoad(trident_device device, const void *data, size_t size, trident_module *out) {
  return guarded([&]() -> trident_status {
    std::string why;
    std::optional<Binary> binary = readBinary(std::string_view(static_cast<const char *>(data), size), why);
    if (!binary)
      return fail(TRIDENT_ERROR_INVALID_ARGUMENT, why);
    if (binary->cpu != hostCpu().name || binary->features != hostCpu().features)
      return fail(TRIDENT_ERROR_INVALID_ARGUMENT, "the binary was compiled for CPU '" + binary->cpu +
                                                      "' with other features than this host's '" + hostCpu().name +
                                                      "'; compile it again here");
    if (std::string refusal = checkModeRefusal(binary->checks); !refusal.empty())
      return fail(TRIDENT_ERROR_INVALID_ARGUMENT, refusal);
    auto mod = std::make_unique<trident_module_s>();
    mod->device = sdk::fromHandle(device);
    mod->checked = binary->checks != CheckMode::Off;
    std::lock_guard lock(jitMutex);
    mod->object = LoadedObject::load(binary->object, why);
    if (!mod->object)
      return fail(TRIDENT_ERROR_INVALID_ARGUMENT, why);
    for (BinaryKernel &k : binary->kernels) {
      auto kernel = std::make_unique<trident_kernel_s>();
      kernel->module = mod.get();
      kernel->entry = mod->object->entry(k.name, why);
      if (!kernel->entry)
        return fail(TRIDENT_ERROR_INVALID_ARGUMENT, why);
      kernel->info = std::move(k);
      std::string name = kernel->info.name;
      mod->kernels.emplace(name, std::move(kernel));
    }
    *out = mod.release();
    return TRIDENT_SUCCESS;
  });
}

trident_status moduleUnload(trident_module module) {
  std::lock_guard lock(jitMutex);
  delete module;
  return TRIDENT_SUCCESS;
}

trident_status moduleGetKernel(trident_module module, const char *name, trident_kernel *out) {
  auto it = module->kernels.find(name);
  if (it == module->kernels.end())
    return fail(TRIDENT_ERROR_NOT_FOUND, "the module has no kernel named '" + std::string(name) + "'");
  *out = it->second.get();
  return TRIDENT_SUCCESS;
}

// A worker's shared memory, reused across launches (1024-byte aligned, as swizzled
// tiles need).
void *sharedMemory(size_t bytes) {
  struct Buffer {
    void *data = nullptr;
    size_t size = 0;
    ~Buffer() { std::free(data); }
  };
  thread_local Buffer buffer;
  if (bytes > buffer.size) {
    std::free(buffer.data);
    buffer.size = (bytes + 1023) / 1024 * 1024;
    buffer.data = std::aligned_alloc(1024, buffer.size);
    if (!buffer.data) {
      buffer.size = 0;
      throw std::bad_alloc();
    }
  }
  return buffer.data;
}

trident_status launch(trident_stream stream, trident_kernel kernel, const trident_launch_params *params) {
  if (trident_status s = sdk::checkLaunch("cpu", params))
    return s;
  sdk::HostDevice &d = sdk::streamDevice(stream);
  if (kernel->module->device != &d)
    return fail(TRIDENT_ERROR_INVALID_ARGUMENT, "kernel '" + kernel->info.name + "' was loaded on " +
                                                    kernel->module->device->name + ", not on " + d.name);
  if (trident_status s = sdk::checkArgumentCodes(kernel->info.name, kernel->info.argumentCodes, *params))
    return s;
  return guarded([&]() -> trident_status {
    sdk::ThreadPool &pool = sdk::threadPool(d.context);
    int64_t total = int64_t(params->grid[0]) * params->grid[1] * params->grid[2];
    // Several ranges per thread, so that programs of uneven cost still balance.
    int64_t chunks = std::min<int64_t>(total, int64_t(pool.concurrency()) * 8);
    size_t shared = std::max<size_t>(kernel->info.sharedBytes + params->dynamic_shared_memory, 16);
    std::atomic<bool> failed{false};
    std::mutex errorMutex;
    std::string error;
    std::optional<LaunchChecks> checks;
    if (kernel->module->checked)
      checks.emplace(d, *params);
    pool.parallelFor(size_t(chunks), [&](size_t c) {
      if (failed.load() || (checks && checks->failed()))
        return;
      int64_t begin = total * int64_t(c) / chunks, end = total * int64_t(c + 1) / chunks;
      void *memory = nullptr;
      try {
        memory = sharedMemory(shared);
      } catch (const std::bad_alloc &) {
        std::lock_guard lock(errorMutex);
        if (!failed.exchange(true))
          error = "out of host memory for " + std::to_string(shared) + " bytes of shared memory";
        return;
      }
      {
        LaunchChecks::Scope scope(checks ? &*checks : nullptr);
        kernel->entry(params->args, begin, end, params->grid, memory);
      }
      std::string assertion = takeAssertFailure();
      if (!assertion.empty()) {
        std::lock_guard lock(errorMutex);
        if (!failed.exchange(true))
          error = assertion;
      }
    });
    if (checks && checks->failed()) // the violation stopped the programs: it comes first
      return fail(TRIDENT_ERROR_LAUNCH, "kernel '" + kernel->info.name + "' failed on " + d.name + ": " +
                                            checks->error());
    if (failed)
      return fail(TRIDENT_ERROR_LAUNCH, "kernel '" + kernel->info.name + "' failed on " + d.name + ": " + error);
    return TRIDENT_SUCCESS;
  });
}

const trident_plugin_api api = [] {
  trident_plugin_api a{};
  sdk::fillHostDeviceApi(a);
  a.init = init;
  a.device_props = deviceProps;
  a.supports_target = supportsTarget;
  a.compile = compileKernel;
  a.binary_release = binaryRelease;
  a.module_load = moduleLoad;
  a.module_unload = moduleUnload;
  a.module_get_kernel = moduleGetKernel;
  a.launch = launch;
  return a;
}();

const trident_plugin_info info = {sizeof(trident_plugin_info), TRIDENT_PLUGIN_ABI_MAJOR, TRIDENT_PLUGIN_ABI_MINOR,
                                  "cpu", TRIDENT_VERSION_STRING, &api};

} // namespace

} // namespace trident::cpu

extern "C" TRIDENT_PLUGIN_EXPORT const trident_plugin_info *trident_plugin_entry(uint32_t, uint32_t) {
  return &trident::cpu::info;
}
