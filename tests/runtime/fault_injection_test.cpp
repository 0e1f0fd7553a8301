// Fault injection: broken builds of the stub plugin (stub_plugin.c), loaded through
// the real loader. Each gives the exact message the runtime must give, naming the
// plugin, its file and what is wrong; afterwards the runtime stays usable (host:0
// still computes), and the plugin's handles are all given back, none released twice
// or made up (the stub counts them), and shutdown runs once.

#include "TestUtil.h"
#include "trident/plugin.h"

#include <doctest/doctest.h>

#include <dlfcn.h>

#include <functional>
#include <optional>

using namespace trident;

namespace {

const std::string kStubDir = TRIDENT_TEST_STUB_DIR;

std::string stubPath(const std::string &c) { return kStubDir + "/libtrident-plugin-stub-" + c + ".so"; }

const PluginReport &reportOf(const Runtime &rt, const std::string &name) {
  for (const PluginReport &r : rt.plugins())
    if (r.name == name)
      return r;
  FAIL("no report for plugin " << name);
  throw 0;
}

// The error `f` throws (its message and code); fails the test when it throws none.
struct Thrown {
  std::string message;
  ErrorCode code = ErrorCode::Internal;
};
template <class F> Thrown thrownBy(F &&f) {
  try {
    f();
  } catch (const Error &e) {
    return {e.what(), e.code()};
  }
  FAIL("no error was thrown");
  return {};
}

// The stub's own account of its handles, read through a second reference to the
// library the runtime loaded (so it stays mapped after the runtime unloads it).
class StubCounts {
public:
  explicit StubCounts(const std::string &path) : handle_(::dlopen(path.c_str(), RTLD_NOW | RTLD_NOLOAD)) {
    REQUIRE_MESSAGE(handle_ != nullptr, "the runtime did not load " << path);
    counts_ = reinterpret_cast<void (*)(int *, int *, int *)>(::dlsym(handle_, "stub_counts"));
    const bool exported = counts_ != nullptr;
    REQUIRE_MESSAGE(exported, "the stub exports no stub_counts");
  }
  ~StubCounts() { ::dlclose(handle_); }
  StubCounts(const StubCounts &) = delete;
  StubCounts &operator=(const StubCounts &) = delete;
  int live() const { return get(0); }
  int badReleases() const { return get(1); }
  int shutdowns() const { return get(2); }

private:
  int get(int which) const {
    int v[3] = {0, 0, 0};
    counts_(&v[0], &v[1], &v[2]);
    return v[which];
  }
  void *handle_;
  void (*counts_)(int *, int *, int *) = nullptr;
};

// host:0 still compiles and computes.
void checkHostWorks(const Runtime &rt) {
  Device host = rt.device("host:0");
  Kernel add = Kernel::fromBlockIR(test::addKernelIR(), "add");
  std::vector<float> x(100, 1.5f), y(100, 2.0f);
  Buffer bx = Buffer::fromHost(host, std::span<const float>(x));
  Buffer by = Buffer::fromHost(host, std::span<const float>(y));
  Buffer out(host, 100, DType::F32);
  add.launch(host, Grid(2), {bx, by, out, 100});
  for (float v : out.toHost<float>())
    REQUIRE(v == 3.5f);
}

std::string unknownDevicePrefix(const std::string &device, const std::string &plugin, const std::string &what) {
  return "unknown device '" + device + "': the " + plugin + " plugin (" + stubPath(plugin.substr(5)) + ") " + what +
         "; devices present:";
}

} // namespace

TEST_CASE("fault injection: plugins refused at load are reported with their file and reason") {
  Runtime rt(test::testOptions("", {kStubDir}));
  const std::string ours =
      std::to_string(TRIDENT_PLUGIN_ABI_MAJOR) + "." + std::to_string(TRIDENT_PLUGIN_ABI_MINOR);
  struct Case {
    const char *name, *reason;
  };
  const std::string badMajor = "built for plugin ABI " + std::to_string(TRIDENT_PLUGIN_ABI_MAJOR + 1) +
                               ".0, but this runtime uses plugin ABI " + ours +
                               " (a different major version); rebuild the plugin against this Trident";
  const Case cases[] = {
      {"bad-major", badMajor.c_str()},
      {"no-entry", "not a Trident plugin: it exports no 'trident_plugin_entry' symbol"},
      {"null-info", "the entry point returned no plugin description"},
      {"short-table", "its function table lacks the required entry 'device_count'"},
      {"init-fails", "initialization failed: stub: the pretend driver libstubdriver.so.1 is not installed"},
  };
  for (const Case &c : cases) {
    const std::string name = std::string("stub-") + c.name;
    CAPTURE(name);
    const PluginReport &r = reportOf(rt, name);
    CHECK_FALSE(r.loaded);
    CHECK(r.path == stubPath(c.name));
    CHECK(r.reason == c.reason);
    CHECK(r.deviceCount == 0);
    // Asking for its device names the plugin, its file and why it was skipped.
    Thrown e = thrownBy([&] { rt.device(name + ":0"); });
    CHECK(e.code == ErrorCode::NotFound);
    CHECK(e.message.starts_with(unknownDevicePrefix(name + ":0", name, std::string("was skipped (") + c.reason + ")")));
  }
  const PluginReport &none = reportOf(rt, "stub-no-devices");
  CHECK(none.loaded);
  Thrown e = thrownBy([&] { rt.device("stub-no-devices:0"); });
  CHECK(e.message.starts_with(unknownDevicePrefix(
      "stub-no-devices:0", "stub-no-devices", "has no devices (0 devices: stub: the pretend driver found no hardware)")));
  checkHostWorks(rt);
}

TEST_CASE("fault injection: a device on which every call fails") {
  std::optional<StubCounts> counts;
  {
    Runtime rt(test::testOptions("", {kStubDir}));
    counts.emplace(stubPath("calls-fail"));
    const PluginReport &r = reportOf(rt, "stub-calls-fail");
    CHECK(r.loaded);
    CHECK(r.deviceCount == 2);
    const std::string lost = "stub: the pretend device was lost (every call fails)";
    const std::string p = "stub-calls-fail plugin: ";

    // Device 1 cannot be opened; asking again gives the same error (no half-open state).
    Device d1 = rt.device("stub-calls-fail:1");
    for (int attempt = 0; attempt < 2; ++attempt) {
      Thrown e = thrownBy([&] { Buffer(d1, 16, DType::F32); });
      CHECK(e.code == ErrorCode::Device);
      CHECK(e.message == p + "opening device stub-calls-fail:1: stub: device 1 cannot be opened (a pretend driver fault)");
    }

    // Device 0 opens; everything after fails, each with what the runtime was doing.
    Device d0 = rt.device("stub-calls-fail:0");
    struct Op {
      const char *what;
      std::function<void()> run;
    };
    Kernel add = Kernel::fromBlockIR(test::addKernelIR(), "add");
    const DevicePtr any{0x1000, DType::F32};
    const Op ops[] = {
        {"allocating 64 bytes (64 B) on stub-calls-fail:0", [&] { Buffer(d0, 16, DType::F32); }},
        {"creating a stream on stub-calls-fail:0", [&] { Stream{d0}; }},
        {"creating an event on stub-calls-fail:0", [&] { Event{d0}; }},
        {"creating the default stream of stub-calls-fail:0", [&] { d0.defaultStream(); }},
        {"synchronizing stub-calls-fail:0", [&] { d0.synchronize(); }},
        {"loading kernel 'add' on stub-calls-fail:0", [&] { add.warmup(d0, std::vector<Arg>{any, any, any, 64}); }},
        {"creating the default stream of stub-calls-fail:0",
         [&] { add.launch(d0, Grid(1), {any, any, any, 64}); }},
    };
    for (const Op &op : ops) {
      CAPTURE(op.what);
      for (int attempt = 0; attempt < 2; ++attempt) {
        Thrown e = thrownBy(op.run);
        CHECK(e.code == ErrorCode::Device);
        CHECK(e.message == p + op.what + ": " + lost);
      }
    }
    // The runtime goes on: the same kernel on host:0, and host:0 in general.
    checkHostWorks(rt);
    CHECK(counts->badReleases() == 0);
  }
  // Every handle it gave out came back (device 0's), nothing it never gave was
  // released (the bogus outputs of failed calls), and shutdown ran once.
  CHECK(counts->live() == 0);
  CHECK(counts->badReleases() == 0);
  CHECK(counts->shutdowns() == 1);
}

TEST_CASE("fault injection: every allocation fails") {
  std::optional<StubCounts> counts;
  {
    Runtime rt(test::testOptions("", {kStubDir}));
    counts.emplace(stubPath("alloc-fails"));
    Device dev = rt.device("stub-alloc-fails:0");
    for (size_t n : {size_t(1024), size_t(1) << 28}) {
      Thrown e = thrownBy([&] { Buffer(dev, n, DType::F32); });
      CHECK(e.code == ErrorCode::OutOfMemory);
      const std::string bytes = std::to_string(n * 4);
      CHECK(e.message == "stub-alloc-fails plugin: allocating " + bytes + " bytes (" +
                             (n == 1024 ? "4.0 KiB" : "1.0 GiB") + ") on stub-alloc-fails:0: out of memory: " +
                             bytes + " bytes requested on Stub device (stub-alloc-fails), 0 bytes free");
    }
    // What does not allocate still works on it; other devices are untouched.
    Stream s(dev);
    s.synchronize();
    dev.synchronize();
    checkHostWorks(rt);
  }
  CHECK(counts->live() == 0);
  CHECK(counts->badReleases() == 0);
  CHECK(counts->shutdowns() == 1);
}

TEST_CASE("fault injection: a launch that fails on the device") {
  std::optional<StubCounts> counts;
  {
    Runtime rt(test::testOptions("", {kStubDir}));
    counts.emplace(stubPath("launch-fails"));
    Device dev = rt.device("stub-launch-fails:0");
    Kernel axpy = Kernel::fromBlockIR(test::axpyKernelIR(), "axpy");
    Buffer rec(dev, 1024, DType::U8), other(dev, 16, DType::F32);
    for (int attempt = 0; attempt < 3; ++attempt) {
      Thrown e = thrownBy([&] { axpy.launch(dev, Grid(3), {rec, other, other, 2.5f, 7}); });
      CHECK(e.code == ErrorCode::Launch);
      CHECK(e.message == "stub-launch-fails plugin: launching kernel 'axpy' on stub-launch-fails:0: stub: kernel "
                         "fault: a pretend device assert in program (2, 0, 0)");
    }
    CHECK(rt.cacheStats().backendCompiles == 1); // compiled once, the failure is the launch's
    // The device is still usable for copies, and the same kernel runs on host:0.
    std::vector<uint8_t> bytes(1024, 9);
    rec.copyFromHost(std::span<const uint8_t>(bytes));
    CHECK(rec.toHost<uint8_t>() == bytes);
    Device host = rt.device("host:0");
    std::vector<float> x(64, 2.0f), y(64, 1.0f);
    Buffer hx = Buffer::fromHost(host, std::span<const float>(x));
    Buffer hy = Buffer::fromHost(host, std::span<const float>(y));
    Buffer ho(host, 64, DType::F32);
    axpy.launch(host, Grid(2), {hx, hy, ho, 3.0f, 64});
    for (float v : ho.toHost<float>())
      CHECK(v == 7.0f);
  }
  CHECK(counts->live() == 0);
  CHECK(counts->badReleases() == 0);
  CHECK(counts->shutdowns() == 1);
}
