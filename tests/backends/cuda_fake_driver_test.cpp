// The CUDA plugin's driver glue against a stand-in libcuda (fake_cuda/FakeCuda.cpp,
// chosen with $TRIDENT_CUDA_LIBRARY), so that it runs without a GPU: devices and their
// primary contexts, memory and out of memory, copies, fills, streams, events, peer
// access between two devices, a module and a launch, and kernel faults (sticky driver
// errors) as Launch errors wherever they surface, with the poisoned context reset at
// the next open. The compiler-less plugin: nothing here compiles.

#include <trident/plugin.h>

#include <doctest/doctest.h>

#include <dlfcn.h>

#include <cstdlib>
#include <string>
#include <vector>

namespace {

struct Fake {
  void *handle = nullptr;
  void (*failNext)(const char *, int) = nullptr;
  void (*fault)(int) = nullptr;
  int (*retains)(int) = nullptr;
  const char *(*lastLaunch)(int *) = nullptr;
};

struct Plugin {
  void *handle = nullptr;
  const trident_plugin_api *api = nullptr;
  trident_context ctx = nullptr;
  Fake fake;

  Plugin() {
    ::setenv("TRIDENT_CUDA_LIBRARY", TRIDENT_FAKE_CUDA, 1);
    handle = dlopen(TRIDENT_CUDA_PLUGIN_NOCOMPILER, RTLD_NOW | RTLD_LOCAL);
    REQUIRE_MESSAGE(handle != nullptr, dlerror());
    auto entry = reinterpret_cast<trident_plugin_entry_fn>(dlsym(handle, TRIDENT_PLUGIN_ENTRY_SYMBOL));
    REQUIRE(reinterpret_cast<void *>(entry) != nullptr);
    api = entry(TRIDENT_PLUGIN_ABI_MAJOR, TRIDENT_PLUGIN_ABI_MINOR)->api;
    trident_init_params params{sizeof(trident_init_params), TRIDENT_PLUGIN_ABI_MAJOR,
                               TRIDENT_PLUGIN_ABI_MINOR, "test"};
    REQUIRE(api->init(&params, &ctx) == TRIDENT_SUCCESS);
    // The plugin opened the stand-in; find its controls there.
    fake.handle = dlopen(TRIDENT_FAKE_CUDA, RTLD_NOW | RTLD_NOLOAD);
    REQUIRE(fake.handle != nullptr);
    fake.failNext = reinterpret_cast<void (*)(const char *, int)>(dlsym(fake.handle, "fakeCudaFailNext"));
    fake.fault = reinterpret_cast<void (*)(int)>(dlsym(fake.handle, "fakeCudaFault"));
    fake.retains = reinterpret_cast<int (*)(int)>(dlsym(fake.handle, "fakeCudaRetains"));
    fake.lastLaunch = reinterpret_cast<const char *(*)(int *)>(dlsym(fake.handle, "fakeCudaLastLaunch"));
    REQUIRE(reinterpret_cast<void *>(fake.failNext) != nullptr);
    REQUIRE(reinterpret_cast<void *>(fake.fault) != nullptr);
    REQUIRE(reinterpret_cast<void *>(fake.retains) != nullptr);
    REQUIRE(reinterpret_cast<void *>(fake.lastLaunch) != nullptr);
  }
  ~Plugin() {
    api->shutdown(ctx);
    dlclose(fake.handle);
    ::unsetenv("TRIDENT_CUDA_LIBRARY");
  }
  std::string error() const { return api->last_error(); }
  trident_device open(uint32_t ordinal) {
    trident_device d = nullptr;
    REQUIRE_MESSAGE(api->device_open(ctx, ordinal, &d) == TRIDENT_SUCCESS, error());
    return d;
  }
  trident_stream stream(trident_device d) {
    trident_stream s = nullptr;
    REQUIRE_MESSAGE(api->stream_create(d, &s) == TRIDENT_SUCCESS, error());
    return s;
  }
};

} // namespace

TEST_CASE("the CUDA plugin on a stand-in driver: devices, memory, copies, fills, streams and events") {
  Plugin p;
  uint32_t count = 0;
  const char *reason = nullptr;
  REQUIRE(p.api->device_count(p.ctx, &count, &reason) == TRIDENT_SUCCESS);
  REQUIRE(count == 2);
  trident_device_props props{};
  props.struct_size = sizeof props;
  REQUIRE(p.api->device_props(p.ctx, 1, &props) == TRIDENT_SUCCESS);
  CHECK(std::string(props.name) == "Fake NVIDIA H200 1");
  CHECK(std::string(props.target) == "cuda:sm_90");
  CHECK(props.multiprocessor_count == 132);
  CHECK(props.shared_memory_per_program == 227 * 1024);
  CHECK(props.global_memory == size_t(4) << 30);
  CHECK(props.uuid[0] == 0xc1);
  CHECK(p.api->device_props(p.ctx, 2, &props) == TRIDENT_ERROR_NOT_FOUND);
  CHECK(p.error() == "no CUDA device 2");

  trident_device dev = p.open(0);
  CHECK(p.fake.retains(0) == 1);
  CHECK(p.open(0) == dev);
  CHECK(p.fake.retains(0) == 1); // one retain for all opens
  trident_stream stream = p.stream(dev);

  std::vector<float> x(1000), back(1000);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = float(i) * 0.25f;
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
  REQUIRE(p.api->mem_fill(stream, bufs[2], 0xbeef, 2, 2) == TRIDENT_SUCCESS);
  REQUIRE(p.api->mem_fill(stream, bufs[2], 0x7f, 1, 1) == TRIDENT_SUCCESS);
  unsigned char bytes[4] = {};
  REQUIRE(p.api->memcpy_dtoh(stream, bytes, bufs[2], 4) == TRIDENT_SUCCESS);
  CHECK(bytes[0] == 0x7f);
  CHECK(bytes[1] == 0xbe);
  CHECK(bytes[2] == 0xef);
  CHECK(bytes[3] == 0xbe);
  CHECK(p.api->mem_fill(stream, bufs[2], 0, 3, 1) == TRIDENT_ERROR_INVALID_ARGUMENT);

  // More than the device holds: out of memory, naming the device, the size and what is free.
  trident_devptr huge = 0;
  CHECK(p.api->mem_alloc(dev, size_t(5) << 30, &huge) == TRIDENT_ERROR_OUT_OF_MEMORY);
  CHECK(p.error().starts_with("out of memory: 5.0 GiB requested on cuda:0, 4.0 GiB free of 4.0 GiB "
                              "(cuMemAlloc: CUDA_ERROR_OUT_OF_MEMORY: fake CUDA driver error)"));
  p.fake.failNext("cuMemcpyHtoDAsync", 1);
  CHECK(p.api->memcpy_htod(stream, bufs[0], x.data(), 4) == TRIDENT_ERROR_DEVICE);
  CHECK(p.error() == "cuMemcpyHtoDAsync failed: CUDA_ERROR_INVALID_VALUE: fake CUDA driver error");

  trident_event start = nullptr, end = nullptr;
  REQUIRE(p.api->event_create(dev, &start) == TRIDENT_SUCCESS);
  REQUIRE(p.api->event_create(dev, &end) == TRIDENT_SUCCESS);
  REQUIRE(p.api->event_record(start, stream) == TRIDENT_SUCCESS);
  REQUIRE(p.api->event_record(end, stream) == TRIDENT_SUCCESS);
  REQUIRE(p.api->stream_wait_event(stream, end) == TRIDENT_SUCCESS);
  REQUIRE(p.api->event_synchronize(end) == TRIDENT_SUCCESS);
  float ms = -1;
  REQUIRE(p.api->event_elapsed_ms(start, end, &ms) == TRIDENT_SUCCESS);
  CHECK(ms >= 0);
  CHECK(p.api->event_destroy(start) == TRIDENT_SUCCESS);
  CHECK(p.api->event_destroy(end) == TRIDENT_SUCCESS);
  CHECK(p.api->stream_synchronize(stream) == TRIDENT_SUCCESS);
  CHECK(p.api->device_synchronize(dev) == TRIDENT_SUCCESS);

  // A module (the stand-in takes any code naming its entries) and a launch.
  std::string binary = "trident-cuda-binary 1\nkernel add threads 128 shared 0 params 2\nptx\n.entry add\n";
  trident_module module = nullptr;
  REQUIRE_MESSAGE(p.api->module_load(dev, binary.data(), binary.size(), &module) == TRIDENT_SUCCESS,
                  p.error());
  trident_kernel kernel = nullptr;
  REQUIRE(p.api->module_get_kernel(module, "add", &kernel) == TRIDENT_SUCCESS);
  trident_kernel_arg args[2] = {{TRIDENT_ARG_POINTER, 0, bufs[0]}, {TRIDENT_ARG_I32, 0, 1000}};
  trident_launch_params launch{TRIDENT_LAUNCH_ABI_VERSION, {8, 1, 1}, 64 * 1024, 2, args};
  REQUIRE_MESSAGE(p.api->launch(stream, kernel, &launch) == TRIDENT_SUCCESS, p.error());
  int sharedAttribute = 0;
  CHECK(std::string(p.fake.lastLaunch(&sharedAttribute)) ==
        "add grid 8,1,1 block 128 shared 65536 arg0 " + std::to_string(bufs[0]));
  CHECK(sharedAttribute == 64 * 1024); // above 48 KiB: raised with cuFuncSetAttribute
  launch.dynamic_shared_memory = 228 * 1024;
  CHECK(p.api->launch(stream, kernel, &launch) == TRIDENT_ERROR_INVALID_ARGUMENT);
  CHECK(p.api->module_unload(module) == TRIDENT_SUCCESS);

  for (trident_devptr b : bufs)
    CHECK(p.api->mem_free(dev, b) == TRIDENT_SUCCESS);
  CHECK(p.api->mem_free(dev, bufs[0]) == TRIDENT_ERROR_DEVICE); // freed already
  CHECK(p.error().starts_with("cuMemFree failed: CUDA_ERROR_INVALID_VALUE"));
  CHECK(p.api->stream_destroy(stream) == TRIDENT_SUCCESS);
  CHECK(p.api->device_close(dev) == TRIDENT_SUCCESS);
  CHECK(p.fake.retains(0) == 1);
  CHECK(p.api->device_close(dev) == TRIDENT_SUCCESS);
  CHECK(p.fake.retains(0) == 0); // released at the last close
  CHECK(p.api->device_close(dev) == TRIDENT_ERROR_INVALID_ARGUMENT);
  CHECK(p.error() == "CUDA device 0 is not open");
  trident_devptr none = 0;
  CHECK(p.api->mem_alloc(dev, 4, &none) == TRIDENT_ERROR_INVALID_ARGUMENT);
  CHECK(p.error() == "CUDA device 0 is not open");
}

TEST_CASE("the CUDA plugin on a stand-in driver: peer access and peer copies between two devices") {
  Plugin p;
  trident_device d0 = p.open(0), d1 = p.open(1);
  uint32_t direct = 0;
  REQUIRE_MESSAGE(p.api->device_peer_access(d1, d0, &direct) == TRIDENT_SUCCESS, p.error());
  CHECK(direct == 1);
  trident_stream s1 = p.stream(d1), s0 = p.stream(d0);
  trident_devptr a = 0, b = 0;
  REQUIRE(p.api->mem_alloc(d0, 64, &a) == TRIDENT_SUCCESS);
  REQUIRE(p.api->mem_alloc(d1, 64, &b) == TRIDENT_SUCCESS);
  std::vector<int> x(16, 42), back(16);
  REQUIRE(p.api->memcpy_htod(s0, a, x.data(), 64) == TRIDENT_SUCCESS);
  REQUIRE_MESSAGE(p.api->memcpy_peer(s1, b, d0, a, 64) == TRIDENT_SUCCESS, p.error());
  REQUIRE(p.api->memcpy_dtoh(s1, back.data(), b, 64) == TRIDENT_SUCCESS);
  CHECK(back == x);
  // Closing device 0 forgets the pair; reopened, enabling again meets "already enabled",
  // which is no error.
  p.api->mem_free(d0, a);
  p.api->stream_destroy(s0);
  p.api->device_close(d0);
  CHECK(p.api->device_peer_access(d1, d0, &direct) == TRIDENT_ERROR_INVALID_ARGUMENT);
  CHECK(p.error() == "peer access between CUDA devices 0 and 1 needs both open");
  d0 = p.open(0);
  REQUIRE_MESSAGE(p.api->device_peer_access(d1, d0, &direct) == TRIDENT_SUCCESS, p.error());
  CHECK(direct == 1);
  p.api->mem_free(d1, b);
  p.api->stream_destroy(s1);
  p.api->device_close(d0);
  p.api->device_close(d1);
}

TEST_CASE(
    "the CUDA plugin on a stand-in driver: kernel faults are Launch errors and the next open recovers") {
  Plugin p;
  trident_device dev = p.open(0);
  trident_stream stream = p.stream(dev);
  trident_devptr buf = 0;
  REQUIRE(p.api->mem_alloc(dev, 256, &buf) == TRIDENT_SUCCESS);
  p.fake.fault(0); // a kernel ran off its buffer
  // Each of the driver's sticky errors, wherever it surfaces, is a Launch error.
  trident_devptr more = 0;
  CHECK(p.api->mem_alloc(dev, 256, &more) == TRIDENT_ERROR_LAUNCH);
  CHECK(p.error().starts_with("cuMemAlloc of 256 bytes failed: CUDA_ERROR_ILLEGAL_ADDRESS"));
  CHECK(p.error().find("a kernel failed while running") != std::string::npos);
  CHECK(p.api->stream_synchronize(stream) == TRIDENT_ERROR_LAUNCH);
  CHECK(p.error().starts_with("cuStreamSynchronize failed: CUDA_ERROR_ILLEGAL_ADDRESS"));
  int host = 0;
  CHECK(p.api->memcpy_dtoh(stream, &host, buf, 4) == TRIDENT_ERROR_LAUNCH);
  CHECK(p.api->device_synchronize(dev) == TRIDENT_ERROR_LAUNCH);
  for (int sticky : {700, 702, 710, 714, 715, 716, 717, 718, 719}) {
    p.fake.failNext("cuEventCreate", sticky);
    trident_event e = nullptr;
    CHECK_MESSAGE(p.api->event_create(dev, &e) == TRIDENT_ERROR_LAUNCH, sticky);
  }
  for (int other : {1, 701, 703, 713, 720}) {
    p.fake.failNext("cuMemsetD8Async", other);
    CHECK_MESSAGE(p.api->mem_fill(stream, buf, 0, 1, 1) != TRIDENT_ERROR_LAUNCH, other);
  }
  // Everything closed, the next open resets the poisoned primary context and works.
  p.api->stream_destroy(stream);
  p.api->mem_free(dev, buf);
  CHECK(p.api->device_close(dev) == TRIDENT_SUCCESS);
  dev = p.open(0);
  REQUIRE(p.api->mem_alloc(dev, 256, &buf) == TRIDENT_SUCCESS);
  CHECK(p.api->mem_free(dev, buf) == TRIDENT_SUCCESS);
  CHECK(p.api->device_close(dev) == TRIDENT_SUCCESS);
}
