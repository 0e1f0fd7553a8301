#pragma once
// Drives the Vulkan plugin through its C ABI, as the runtime does: loads the
// plugin, opens vulkan:0 when there is one, compiles, loads and launches kernels.

#include <trident/plugin.h>

#include <dlfcn.h>

#include <array>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

namespace trident::test {

struct VulkanHarness {
  void *lib = nullptr;
  const trident_plugin_api *api = nullptr;
  trident_context ctx = nullptr;
  trident_device device = nullptr;
  trident_stream stream = nullptr;
  trident_device_props props{};
  std::string noDeviceReason;

  explicit VulkanHarness(const char *pluginPath) {
    lib = dlopen(pluginPath, RTLD_NOW | RTLD_LOCAL);
    if (!lib)
      throw std::runtime_error(std::string("cannot open the Vulkan plugin: ") + dlerror());
    auto entry = reinterpret_cast<trident_plugin_entry_fn>(dlsym(lib, TRIDENT_PLUGIN_ENTRY_SYMBOL));
    if (!entry)
      throw std::runtime_error("the Vulkan plugin exports no entry point");
    api = entry(TRIDENT_PLUGIN_ABI_MAJOR, TRIDENT_PLUGIN_ABI_MINOR)->api;
    trident_init_params params{sizeof(trident_init_params), TRIDENT_PLUGIN_ABI_MAJOR, TRIDENT_PLUGIN_ABI_MINOR, "test"};
    check(api->init(&params, &ctx), "init");
    uint32_t count = 0;
    const char *reason = nullptr;
    check(api->device_count(ctx, &count, &reason), "device_count");
    if (count == 0) {
      noDeviceReason = reason ? reason : "no reason given";
      return;
    }
    props.struct_size = sizeof props;
    check(api->device_props(ctx, 0, &props), "device_props");
    check(api->device_open(ctx, 0, &device), "device_open");
    check(api->stream_create(device, &stream), "stream_create");
  }
  ~VulkanHarness() {
    if (stream)
      api->stream_destroy(stream);
    if (device)
      api->device_close(device);
    if (ctx)
      api->shutdown(ctx);
    // The plugin stays loaded: unloading it while lavapipe's threads wind down is not worth the risk.
  }
  VulkanHarness(const VulkanHarness &) = delete;

  bool hasDevice() const { return device != nullptr; }
  std::string error() const { return api->last_error(); }
  void check(trident_status s, const std::string &what) const {
    if (s != TRIDENT_SUCCESS)
      throw std::runtime_error(what + " failed (" + std::to_string(s) + "): " + api->last_error());
  }

  // ---- memory ----
  trident_devptr alloc(size_t bytes) {
    trident_devptr p = 0;
    check(api->mem_alloc(device, bytes, &p), "mem_alloc");
    return p;
  }
  void free(trident_devptr p) { check(api->mem_free(device, p), "mem_free"); }
  template <class T> trident_devptr upload(const std::vector<T> &v) {
    trident_devptr p = alloc(v.size() * sizeof(T));
    check(api->memcpy_htod(stream, p, v.data(), v.size() * sizeof(T)), "memcpy_htod");
    return p;
  }
  template <class T> std::vector<T> download(trident_devptr p, size_t n) {
    std::vector<T> v(n);
    check(api->memcpy_dtoh(stream, v.data(), p, n * sizeof(T)), "memcpy_dtoh");
    return v;
  }

  // ---- kernels ----
  struct Kernel {
    trident_module module = nullptr;
    trident_kernel kernel = nullptr;
  };
  // Compiles IR text (block or thread IR) for the device and loads it; throws with the message on failure.
  Kernel load(const std::string &ir, const std::string &name, uint32_t numWarps = 0) {
    std::vector<uint8_t> binary = compile(ir, name, nullptr, numWarps);
    return loadBinary(binary, name);
  }
  Kernel loadBinary(const std::vector<uint8_t> &binary, const std::string &name) {
    Kernel k;
    check(api->module_load(device, binary.data(), binary.size(), &k.module), "module_load");
    check(api->module_get_kernel(k.module, name.c_str(), &k.kernel), "module_get_kernel");
    return k;
  }
  std::vector<uint8_t> compile(const std::string &ir, const std::string &name, const char *emit,
                               uint32_t numWarps = 0, const char *target = nullptr) {
    trident_compile_options o{};
    o.struct_size = sizeof o;
    o.num_warps = numWarps;
    o.emit = emit;
    trident_binary b{};
    b.struct_size = sizeof b;
    check(api->compile(ctx, target ? target : props.target, ir.data(), ir.size(), name.c_str(), &o, &b),
          "compile '" + name + "'");
    std::vector<uint8_t> out(static_cast<const uint8_t *>(b.data), static_cast<const uint8_t *>(b.data) + b.size);
    api->binary_release(ctx, &b);
    return out;
  }
  void unload(Kernel k) { check(api->module_unload(k.module), "module_unload"); }

  static trident_kernel_arg ptr(trident_devptr p) { return {TRIDENT_ARG_POINTER, 0, p}; }
  static trident_kernel_arg i32(int32_t v) { return {TRIDENT_ARG_I32, 0, uint64_t(int64_t(v))}; }
  static trident_kernel_arg i64(int64_t v) { return {TRIDENT_ARG_I64, 0, uint64_t(v)}; }
  static trident_kernel_arg f32(float v) {
    uint32_t bits;
    std::memcpy(&bits, &v, 4);
    return {TRIDENT_ARG_F32, 0, bits};
  }

  trident_status tryLaunch(Kernel k, std::array<uint32_t, 3> grid, const std::vector<trident_kernel_arg> &args) {
    trident_launch_params p{};
    p.version = TRIDENT_LAUNCH_ABI_VERSION;
    p.grid[0] = grid[0];
    p.grid[1] = grid[1];
    p.grid[2] = grid[2];
    p.num_args = uint32_t(args.size());
    p.args = args.data();
    return api->launch(stream, k.kernel, &p);
  }
  void launch(Kernel k, std::array<uint32_t, 3> grid, const std::vector<trident_kernel_arg> &args) {
    check(tryLaunch(k, grid, args), "launch");
  }
  void sync() { check(api->stream_synchronize(stream), "stream_synchronize"); }
};

} // namespace trident::test
