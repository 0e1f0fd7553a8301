#pragma once
// Drives the CUDA plugin through its C ABI (as the runtime does), for the plugin
// test and the benchmark: loads the plugin, opens cuda:0 when there is one, and
// compiles, loads and launches block-IR kernels.

#include <trident/plugin.h>

#include <dlfcn.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace trident::test {

// TRIDENT_CUDA_PLUGIN and TRIDENT_KERNELS_DIR in the environment override the build-tree
// paths compiled in (for running the binaries on another machine).
inline const char *envOr(const char *name, const char *fallback) {
  const char *v = std::getenv(name);
  return v && *v ? v : fallback;
}

struct CudaHarness {
  void *lib = nullptr;
  const trident_plugin_api *api = nullptr;
  trident_context ctx = nullptr;
  trident_device device = nullptr;
  trident_stream stream = nullptr;
  std::vector<trident_devptr> owned; // allocations not yet freed
  std::vector<trident_module> modules; // modules not yet unloaded
  std::string target; // "cuda:sm_90" of device 0
  std::string noDeviceReason;

  explicit CudaHarness(const char *pluginPath) {
    pluginPath = envOr("TRIDENT_CUDA_PLUGIN", pluginPath);
    lib = dlopen(pluginPath, RTLD_NOW | RTLD_LOCAL);
    if (!lib)
      throw std::runtime_error(std::string("cannot open the CUDA plugin: ") + dlerror());
    auto entry = reinterpret_cast<trident_plugin_entry_fn>(dlsym(lib, TRIDENT_PLUGIN_ENTRY_SYMBOL));
    if (!entry)
      throw std::runtime_error("the CUDA plugin exports no entry point");
    const trident_plugin_info *info = entry(TRIDENT_PLUGIN_ABI_MAJOR, TRIDENT_PLUGIN_ABI_MINOR);
    api = info->api;
    trident_init_params params{sizeof(trident_init_params), TRIDENT_PLUGIN_ABI_MAJOR,
                               TRIDENT_PLUGIN_ABI_MINOR, "test"};
    check(api->init(&params, &ctx), "init");
    uint32_t count = 0;
    const char *reason = nullptr;
    check(api->device_count(ctx, &count, &reason), "device_count");
    if (count == 0) {
      noDeviceReason = reason ? reason : "";
      return;
    }
    trident_device_props props{};
    props.struct_size = sizeof props;
    check(api->device_props(ctx, 0, &props), "device_props");
    target = props.target;
    check(api->device_open(ctx, 0, &device), "device_open");
    check(api->stream_create(device, &stream), "stream_create");
  }

  // What the tests allocated and loaded is given back before the device closes, so
  // compute-sanitizer's leak check (docs/testing.md) sees the plugin's own leaks only.
  ~CudaHarness() {
    for (trident_devptr p : owned)
      api->mem_free(device, p);
    for (trident_module m : modules)
      api->module_unload(m);
    if (stream)
      api->stream_destroy(stream);
    if (device)
      api->device_close(device);
    if (ctx)
      api->shutdown(ctx);
  }

  bool hasDevice() const { return device != nullptr; }

  void check(trident_status s, const char *what) const {
    if (s != TRIDENT_SUCCESS)
      throw std::runtime_error(std::string(what) + " failed (" + std::to_string(s) +
                               "): " + api->last_error());
  }

  // Compiles `ir` (block IR text) for `forTarget`; `emit` null means a loadable binary.
  std::string compile(const std::string &ir, const std::string &kernel, const std::string &forTarget,
                      const char *emit = nullptr, uint32_t numWarps = 0,
                      trident_kernel_metadata *meta = nullptr) {
    // num_stages 3, as a launch has by default (LaunchOptions): dot loops pipelined.
    trident_compile_options options{sizeof(trident_compile_options), numWarps, 3, 0, emit};
    trident_binary binary{};
    binary.struct_size = sizeof binary;
    check(api->compile(ctx, forTarget.c_str(), ir.data(), ir.size(), kernel.c_str(), &options, &binary),
          "compile");
    std::string out(static_cast<const char *>(binary.data), binary.size);
    if (meta)
      *meta = binary.metadata;
    api->binary_release(ctx, &binary);
    return out;
  }

  struct Loaded {
    trident_module module = nullptr;
    trident_kernel kernel = nullptr;
  };
  Loaded load(const std::string &binary, const std::string &kernel) {
    Loaded l;
    check(api->module_load(device, binary.data(), binary.size(), &l.module), "module_load");
    modules.push_back(l.module);
    check(api->module_get_kernel(l.module, kernel.c_str(), &l.kernel), "module_get_kernel");
    return l;
  }

  trident_devptr alloc(size_t bytes) {
    trident_devptr p = 0;
    check(api->mem_alloc(device, bytes, &p), "mem_alloc");
    owned.push_back(p);
    return p;
  }
  // Frees what alloc or upload gave (the destructor frees the rest).
  trident_status free(trident_devptr p) {
    owned.erase(std::remove(owned.begin(), owned.end(), p), owned.end());
    return api->mem_free(device, p);
  }
  // Unloads what load gave (the destructor unloads the rest).
  trident_status unload(trident_module m) {
    modules.erase(std::remove(modules.begin(), modules.end(), m), modules.end());
    return api->module_unload(m);
  }
  template <class T> trident_devptr upload(const std::vector<T> &v) {
    trident_devptr p = alloc(v.size() * sizeof(T));
    check(api->memcpy_htod(stream, p, v.data(), v.size() * sizeof(T)), "memcpy_htod");
    return p;
  }
  template <class T> std::vector<T> download(trident_devptr p, size_t n) {
    std::vector<T> v(n);
    check(api->memcpy_dtoh(stream, v.data(), p, n * sizeof(T)), "memcpy_dtoh");
    check(api->stream_synchronize(stream), "stream_synchronize");
    return v;
  }

  void launch(trident_kernel k, std::array<uint32_t, 3> grid, const std::vector<trident_kernel_arg> &args) {
    trident_launch_params p{TRIDENT_LAUNCH_ABI_VERSION,
                            {grid[0], grid[1], grid[2]},
                            0,
                            static_cast<uint32_t>(args.size()),
                            args.data()};
    check(api->launch(stream, k, &p), "launch");
  }

  static trident_kernel_arg ptr(trident_devptr p) { return {TRIDENT_ARG_POINTER, 0, p}; }
  static trident_kernel_arg i32(int32_t v) { return {TRIDENT_ARG_I32, 0, static_cast<uint32_t>(v)}; }
};

} // namespace trident::test
