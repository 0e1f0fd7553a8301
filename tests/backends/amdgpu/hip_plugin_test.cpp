// The HIP plugin through the plugin ABI, as the runtime uses it: on this machine
// (no ROCm) it loads and reports zero devices with its reason, yet compiles; with a
// stand-in libamdhip64 (fake_hip/) it enumerates, loads code objects, allocates,
// copies and launches through the HIP module API.
#include <trident/plugin.h>

#include <doctest/doctest.h>

#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace fs = std::filesystem;

namespace {

std::string readFile(const fs::path &p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

struct Plugin {
  void *handle = nullptr;
  const trident_plugin_info *info = nullptr;
  const trident_plugin_api *api = nullptr;
  trident_context ctx = nullptr;

  explicit Plugin(const std::string &path) {
    handle = dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    REQUIRE_MESSAGE(handle != nullptr, dlerror());
    auto entry = reinterpret_cast<trident_plugin_entry_fn>(dlsym(handle, TRIDENT_PLUGIN_ENTRY_SYMBOL));
    REQUIRE(reinterpret_cast<void *>(entry) != nullptr);
    info = entry(TRIDENT_PLUGIN_ABI_MAJOR, TRIDENT_PLUGIN_ABI_MINOR);
    REQUIRE(info != nullptr);
    api = info->api;
    trident_init_params params{sizeof(trident_init_params), TRIDENT_PLUGIN_ABI_MAJOR,
                               TRIDENT_PLUGIN_ABI_MINOR, "test"};
    REQUIRE(api->init(&params, &ctx) == TRIDENT_SUCCESS);
  }
  ~Plugin() {
    if (ctx)
      api->shutdown(ctx);
  }
  std::string error() const { return api->last_error(); }

  // Compiles the vector_add kernel of the op-family tests; the status, `out` filled on success.
  trident_status compileVectorAdd(const char *target, const char *emit, trident_binary &out) const {
    std::string ir = readFile(fs::path(TRIDENT_KERNELS_DIR) / "vector_add.ttir");
    trident_compile_options options{};
    options.struct_size = sizeof options;
    options.emit = emit;
    out = trident_binary{};
    out.struct_size = sizeof out;
    return api->compile(ctx, target, ir.data(), ir.size(), "add_kernel", &options, &out);
  }
};

bool systemHasHipRuntime() {
  for (const char *name : {"libamdhip64.so.6", "libamdhip64.so.5", "libamdhip64.so"})
    if (void *h = dlopen(name, RTLD_NOW | RTLD_LOCAL)) {
      dlclose(h);
      return true;
    }
  return false;
}

bool isAmdgpuElf(const void *data, size_t size) {
  const auto *b = static_cast<const unsigned char *>(data);
  // ELF magic, then e_machine (bytes 18-19) EM_AMDGPU = 224.
  return size > 64 &&
         std::memcmp(b,
                     "\x7f"
                     "ELF",
                     4) == 0 &&
         b[18] == 224 && b[19] == 0;
}

} // namespace

TEST_CASE("the HIP plugin loads without ROCm, reports zero devices and why, and still compiles") {
  ::unsetenv("TRIDENT_HIP_LIBRARY");
  Plugin p(TRIDENT_HIP_PLUGIN);
  CHECK(std::string(p.info->name) == "hip");
  CHECK(p.info->abi_major == TRIDENT_PLUGIN_ABI_MAJOR);
  CHECK(p.api->struct_size == sizeof(trident_plugin_api));
  uint32_t count = 99;
  const char *reason = nullptr;
  REQUIRE(p.api->device_count(p.ctx, &count, &reason) == TRIDENT_SUCCESS);
  REQUIRE(reason != nullptr);
  INFO("reason: " << reason);
  if (!systemHasHipRuntime()) {
    CHECK(count == 0);
    CHECK(std::string(reason).find("libamdhip64") != std::string::npos);
    CHECK(std::string(reason).find("cannot be opened") != std::string::npos);
  } else {
    MESSAGE("a HIP runtime is installed here: the no-ROCm case is checked only as far as it goes");
    if (count == 0)
      CHECK(std::string(reason).size() > 0);
  }
  trident_device_props props{};
  props.struct_size = sizeof props;
  if (count == 0)
    CHECK(p.api->device_props(p.ctx, 0, &props) == TRIDENT_ERROR_NOT_FOUND);

  CHECK(p.api->supports_target(p.ctx, "hip:gfx90a") == TRIDENT_SUCCESS);
  CHECK(p.api->supports_target(p.ctx, "hip:gfx942") == TRIDENT_SUCCESS);
  CHECK(p.api->supports_target(p.ctx, "hip:gfx1100") == TRIDENT_SUCCESS);
  CHECK(p.api->supports_target(p.ctx, "hip:gfx908") == TRIDENT_ERROR_NOT_SUPPORTED);
  CHECK(p.api->supports_target(p.ctx, "cuda:sm_90") == TRIDENT_ERROR_NOT_SUPPORTED);

  // Compiling needs no device.
  trident_binary hsaco;
  REQUIRE_MESSAGE(p.compileVectorAdd("hip:gfx1100", "hsaco", hsaco) == TRIDENT_SUCCESS, p.error());
  CHECK(isAmdgpuElf(hsaco.data, hsaco.size));
  CHECK(hsaco.metadata.threads_per_program == 4 * 32); // four wave32 wavefronts
  p.api->binary_release(p.ctx, &hsaco);
  CHECK(hsaco.data == nullptr);
  trident_binary binary;
  REQUIRE_MESSAGE(p.compileVectorAdd("hip:gfx942", nullptr, binary) == TRIDENT_SUCCESS, p.error());
  std::string_view text(static_cast<const char *>(binary.data), binary.size);
  CHECK(text.starts_with("trident-hip-binary 1\nkernel add_kernel threads 256 shared 0 params 4\nhsaco "));
  CHECK(binary.metadata.threads_per_program == 4 * 64);
  p.api->binary_release(p.ctx, &binary);
  trident_binary llvmText;
  REQUIRE(p.compileVectorAdd("hip:gfx90a", "llvm", llvmText) == TRIDENT_SUCCESS);
  CHECK(std::string_view(static_cast<const char *>(llvmText.data), llvmText.size).find("amdgpu_kernel") !=
        std::string_view::npos);
  p.api->binary_release(p.ctx, &llvmText);

  trident_binary bad;
  CHECK(p.compileVectorAdd("hip:gfx942", "ptx", bad) == TRIDENT_ERROR_NOT_SUPPORTED);
  CHECK(p.error().find("'ptx'") != std::string::npos);
  CHECK(p.compileVectorAdd("hip:gfx908", nullptr, bad) == TRIDENT_ERROR_NOT_SUPPORTED);
  CHECK(p.error().find("gfx908") != std::string::npos);
}

TEST_CASE("the HIP plugin drives a device through the HIP module API (stand-in runtime)") {
  // A copy of the plugin is a separate instance: its runtime is not yet chosen.
  fs::path copy = fs::temp_directory_path() / ("trident_hip_plugin_" + std::to_string(::getpid()) + ".so");
  fs::copy_file(TRIDENT_HIP_PLUGIN, copy, fs::copy_options::overwrite_existing);
  ::setenv("TRIDENT_HIP_LIBRARY", TRIDENT_FAKE_HIP, 1);
  {
    Plugin p(copy.string());
    uint32_t count = 0;
    const char *reason = nullptr;
    REQUIRE(p.api->device_count(p.ctx, &count, &reason) == TRIDENT_SUCCESS);
    REQUIRE(count == 1);
    trident_device_props props{};
    props.struct_size = sizeof props;
    REQUIRE(p.api->device_props(p.ctx, 0, &props) == TRIDENT_SUCCESS);
    CHECK(std::string(props.name) == "Fake AMD Instinct MI300X");
    CHECK(std::string(props.target) == "hip:gfx942"); // from gcnArchName "gfx942:sramecc+:xnack-"
    CHECK(props.warp_size == 64);
    CHECK(props.flags == TRIDENT_DEVICE_IS_GPU);
    CHECK(props.multiprocessor_count == 304);
    CHECK(props.shared_memory_per_program == 64 * 1024);
    CHECK(props.uuid[0] == 0xa0);
    CHECK(props.uuid[15] == 0xaf);

    trident_device dev = nullptr;
    REQUIRE(p.api->device_open(p.ctx, 0, &dev) == TRIDENT_SUCCESS);
    trident_stream stream = nullptr;
    REQUIRE(p.api->stream_create(dev, &stream) == TRIDENT_SUCCESS);

    // Memory: a round trip, a fill, a device-to-device copy.
    std::vector<float> x(1000), back(1000);
    for (size_t i = 0; i < x.size(); ++i)
      x[i] = float(i) * 0.5f;
    trident_devptr bufs[3] = {};
    for (trident_devptr &b : bufs)
      REQUIRE(p.api->mem_alloc(dev, x.size() * sizeof(float), &b) == TRIDENT_SUCCESS);
    REQUIRE(p.api->memcpy_htod(stream, bufs[0], x.data(), x.size() * sizeof(float)) == TRIDENT_SUCCESS);
    REQUIRE(p.api->memcpy_dtod(stream, bufs[1], bufs[0], x.size() * sizeof(float)) == TRIDENT_SUCCESS);
    REQUIRE(p.api->memcpy_dtoh(stream, back.data(), bufs[1], x.size() * sizeof(float)) == TRIDENT_SUCCESS);
    CHECK(back == x);
    REQUIRE(p.api->mem_fill(stream, bufs[2], 0x3f800000u, 4, x.size()) == TRIDENT_SUCCESS);
    REQUIRE(p.api->memcpy_dtoh(stream, back.data(), bufs[2], x.size() * sizeof(float)) == TRIDENT_SUCCESS);
    CHECK(back == std::vector<float>(x.size(), 1.0f));
    CHECK(p.api->mem_fill(stream, bufs[2], 0, 3, 1) == TRIDENT_ERROR_INVALID_ARGUMENT);
    // More than the device holds: out of memory, with what is free.
    trident_devptr huge = 0;
    CHECK(p.api->mem_alloc(dev, size_t(1) << 50, &huge) == TRIDENT_ERROR_OUT_OF_MEMORY);
    CHECK(p.error().starts_with("out of memory: 1.0 PiB requested on hip:0, 192.0 GiB free of 192.0 GiB "
                                "(hipMalloc: "));

    // A module from a code object for the device's own target, and a launch.
    trident_binary binary;
    REQUIRE_MESSAGE(p.compileVectorAdd(props.target, nullptr, binary) == TRIDENT_SUCCESS, p.error());
    trident_module module = nullptr;
    REQUIRE_MESSAGE(p.api->module_load(dev, binary.data, binary.size, &module) == TRIDENT_SUCCESS, p.error());
    trident_kernel kernel = nullptr;
    REQUIRE(p.api->module_get_kernel(module, "add_kernel", &kernel) == TRIDENT_SUCCESS);
    CHECK(p.api->module_get_kernel(module, "mul_kernel", &kernel) == TRIDENT_ERROR_NOT_FOUND);
    REQUIRE(p.api->module_get_kernel(module, "add_kernel", &kernel) == TRIDENT_SUCCESS);

    void *fake = dlopen(TRIDENT_FAKE_HIP, RTLD_NOW | RTLD_NOLOAD);
    REQUIRE(fake != nullptr);
    auto setArgCount = reinterpret_cast<void (*)(size_t)>(dlsym(fake, "fakeHipSetArgCount"));
    auto lastLaunch =
        reinterpret_cast<int (*)(char *, size_t, unsigned *, unsigned *, unsigned *, uint64_t *, size_t *)>(
            dlsym(fake, "fakeHipLastLaunch"));
    REQUIRE(reinterpret_cast<void *>(setArgCount) != nullptr);
    REQUIRE(reinterpret_cast<void *>(lastLaunch) != nullptr);
    setArgCount(4);
    trident_kernel_arg args[4] = {{TRIDENT_ARG_POINTER, 0, bufs[0]},
                                  {TRIDENT_ARG_POINTER, 0, bufs[1]},
                                  {TRIDENT_ARG_POINTER, 0, bufs[2]},
                                  {TRIDENT_ARG_I32, 0, 1000}};
    trident_launch_params launch{TRIDENT_LAUNCH_ABI_VERSION, {1, 1, 1}, 0, 4, args};
    launch.grid[0] = 1; // ceil(1000 / 1024)
    REQUIRE_MESSAGE(p.api->launch(stream, kernel, &launch) == TRIDENT_SUCCESS, p.error());
    char name[64];
    unsigned grid[3], block[3], shared = 99;
    uint64_t seen[8];
    size_t numSeen = 8;
    CHECK(lastLaunch(name, sizeof name, grid, block, &shared, seen, &numSeen) == 1);
    CHECK(std::string(name) == "add_kernel");
    CHECK(grid[0] == 1);
    CHECK(grid[1] == 1);
    CHECK(block[0] == binary.metadata.threads_per_program);
    CHECK(block[0] == 256);
    CHECK(block[1] == 1);
    CHECK(shared == 0); // the kernel's LDS is static, in its descriptor
    REQUIRE(numSeen == 4);
    CHECK(seen[0] == bufs[0]);
    CHECK(seen[2] == bufs[2]);
    CHECK((seen[3] & 0xffffffffu) == 1000);
    launch.num_args = 3;
    CHECK(p.api->launch(stream, kernel, &launch) == TRIDENT_ERROR_INVALID_ARGUMENT);
    launch.num_args = 4;
    launch.dynamic_shared_memory = 65 * 1024;
    CHECK(p.api->launch(stream, kernel, &launch) == TRIDENT_ERROR_INVALID_ARGUMENT);
    CHECK(p.error().find("LDS") != std::string::npos);

    // Events around the work.
    trident_event start = nullptr, end = nullptr;
    REQUIRE(p.api->event_create(dev, &start) == TRIDENT_SUCCESS);
    REQUIRE(p.api->event_create(dev, &end) == TRIDENT_SUCCESS);
    REQUIRE(p.api->event_record(start, stream) == TRIDENT_SUCCESS);
    REQUIRE(p.api->event_record(end, stream) == TRIDENT_SUCCESS);
    REQUIRE(p.api->event_synchronize(end) == TRIDENT_SUCCESS);
    float ms = -1;
    REQUIRE(p.api->event_elapsed_ms(start, end, &ms) == TRIDENT_SUCCESS);
    CHECK(ms >= 0);
    p.api->event_destroy(start);
    p.api->event_destroy(end);
    CHECK(p.api->stream_synchronize(stream) == TRIDENT_SUCCESS);
    CHECK(p.api->module_unload(module) == TRIDENT_SUCCESS);
    p.api->binary_release(p.ctx, &binary);

    // A code object for another architecture is refused by the runtime, with its reason.
    trident_binary other;
    REQUIRE(p.compileVectorAdd("hip:gfx90a", nullptr, other) == TRIDENT_SUCCESS);
    CHECK(p.api->module_load(dev, other.data, other.size, &module) == TRIDENT_ERROR_DEVICE);
    CHECK(p.error().find("hipErrorNoBinaryForGpu") != std::string::npos);
    p.api->binary_release(p.ctx, &other);
    const char junk[] = "not a binary";
    CHECK(p.api->module_load(dev, junk, sizeof junk, &module) == TRIDENT_ERROR_INVALID_ARGUMENT);

    for (trident_devptr b : bufs)
      CHECK(p.api->mem_free(dev, b) == TRIDENT_SUCCESS);
    CHECK(p.api->stream_destroy(stream) == TRIDENT_SUCCESS);
    CHECK(p.api->device_synchronize(dev) == TRIDENT_SUCCESS);
    CHECK(p.api->device_close(dev) == TRIDENT_SUCCESS);
    dlclose(fake);
  }
  ::unsetenv("TRIDENT_HIP_LIBRARY");
  fs::remove(copy);
}

// The HIP plugin built without the compiler (what -DTRIDENT_ENABLE_COMPILER=OFF ships):
// it compiles nothing, yet loads and launches the code object the full plugin wrote;
// and memory from mem_import stays its owner's (mem_free of it only forgets it).
TEST_CASE("the compiler-less HIP plugin loads and launches a code object compiled ahead of time (stand-in)") {
  std::string binary;
  {
    ::unsetenv("TRIDENT_HIP_LIBRARY");
    Plugin full(TRIDENT_HIP_PLUGIN);
    trident_binary compiled;
    REQUIRE_MESSAGE(full.compileVectorAdd("hip:gfx942", nullptr, compiled) == TRIDENT_SUCCESS, full.error());
    binary.assign(static_cast<const char *>(compiled.data), compiled.size);
    full.api->binary_release(full.ctx, &compiled);
  }
  fs::path copy = fs::temp_directory_path() / ("trident_hip_nocompiler_" + std::to_string(::getpid()) + ".so");
  fs::copy_file(TRIDENT_HIP_PLUGIN_NOCOMPILER, copy, fs::copy_options::overwrite_existing);
  ::setenv("TRIDENT_HIP_LIBRARY", TRIDENT_FAKE_HIP, 1);
  {
    Plugin p(copy.string());
    CHECK(std::string(p.info->name) == "hip");
    CHECK(p.api->supports_target(p.ctx, "hip:gfx942") == TRIDENT_ERROR_NOT_SUPPORTED);
    CHECK(p.error().find("built without the compiler") != std::string::npos);
    trident_binary none;
    CHECK(p.compileVectorAdd("hip:gfx942", nullptr, none) == TRIDENT_ERROR_NOT_SUPPORTED);
    uint32_t count = 0;
    const char *reason = nullptr;
    REQUIRE(p.api->device_count(p.ctx, &count, &reason) == TRIDENT_SUCCESS);
    REQUIRE(count == 1);
    trident_device dev = nullptr;
    REQUIRE(p.api->device_open(p.ctx, 0, &dev) == TRIDENT_SUCCESS);
    trident_stream stream = nullptr;
    REQUIRE(p.api->stream_create(dev, &stream) == TRIDENT_SUCCESS);
    trident_devptr bufs[3] = {};
    for (trident_devptr &b : bufs)
      REQUIRE(p.api->mem_alloc(dev, 4000, &b) == TRIDENT_SUCCESS);

    trident_module module = nullptr;
    REQUIRE_MESSAGE(p.api->module_load(dev, binary.data(), binary.size(), &module) == TRIDENT_SUCCESS, p.error());
    trident_kernel kernel = nullptr;
    REQUIRE(p.api->module_get_kernel(module, "add_kernel", &kernel) == TRIDENT_SUCCESS);
    void *fake = dlopen(TRIDENT_FAKE_HIP, RTLD_NOW | RTLD_NOLOAD);
    REQUIRE(fake != nullptr);
    auto setArgCount = reinterpret_cast<void (*)(size_t)>(dlsym(fake, "fakeHipSetArgCount"));
    auto lastLaunch =
        reinterpret_cast<int (*)(char *, size_t, unsigned *, unsigned *, unsigned *, uint64_t *, size_t *)>(
            dlsym(fake, "fakeHipLastLaunch"));
    REQUIRE(reinterpret_cast<void *>(setArgCount) != nullptr);
    REQUIRE(reinterpret_cast<void *>(lastLaunch) != nullptr);
    setArgCount(4);
    trident_kernel_arg args[4] = {{TRIDENT_ARG_POINTER, 0, bufs[0]},
                                  {TRIDENT_ARG_POINTER, 0, bufs[1]},
                                  {TRIDENT_ARG_POINTER, 0, bufs[2]},
                                  {TRIDENT_ARG_I32, 0, 1000}};
    trident_launch_params launch{TRIDENT_LAUNCH_ABI_VERSION, {3, 1, 1}, 0, 4, args};
    REQUIRE_MESSAGE(p.api->launch(stream, kernel, &launch) == TRIDENT_SUCCESS, p.error());
    char name[64];
    unsigned grid[3], block[3], shared = 99;
    uint64_t seen[8];
    size_t numSeen = 8;
    CHECK(lastLaunch(name, sizeof name, grid, block, &shared, seen, &numSeen) >= 1);
    CHECK(std::string(name) == "add_kernel");
    CHECK(grid[0] == 3);
    CHECK(block[0] == 256); // from the binary's kernel line: four wave64 wavefronts
    REQUIRE(numSeen == 4);
    CHECK(seen[1] == bufs[1]);
    CHECK(p.api->module_unload(module) == TRIDENT_SUCCESS);

    // Imported memory: twice imported, twice released, still its owner's to use and free.
    std::vector<float> x(1000, 2.5f), back(1000);
    REQUIRE(p.api->memcpy_htod(stream, bufs[0], x.data(), 4000) == TRIDENT_SUCCESS);
    trident_devptr imported[2] = {};
    for (trident_devptr &i : imported) {
      REQUIRE(p.api->mem_import(dev, bufs[0], 4000, &i) == TRIDENT_SUCCESS);
      CHECK(i == bufs[0]);
    }
    for (trident_devptr i : imported)
      CHECK_MESSAGE(p.api->mem_free(dev, i) == TRIDENT_SUCCESS, p.error());
    REQUIRE(p.api->memcpy_dtoh(stream, back.data(), bufs[0], 4000) == TRIDENT_SUCCESS);
    CHECK(back == x);
    for (trident_devptr b : bufs)
      CHECK_MESSAGE(p.api->mem_free(dev, b) == TRIDENT_SUCCESS, p.error()); // hipFree: the stand-in knows it
    // Freed now: the stand-in refuses a second hipFree, as HIP does.
    CHECK(p.api->mem_free(dev, bufs[0]) == TRIDENT_ERROR_DEVICE);
    CHECK(p.error().find("hipFree") != std::string::npos);
    CHECK(p.api->stream_destroy(stream) == TRIDENT_SUCCESS);
    CHECK(p.api->device_close(dev) == TRIDENT_SUCCESS);
    dlclose(fake);
  }
  ::unsetenv("TRIDENT_HIP_LIBRARY");
  fs::remove(copy);
}
