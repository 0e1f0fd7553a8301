// The loader against stub plugins: each broken plugin is reported with its
// reason and skipped, and the runtime keeps working with the others.

#include "TestUtil.h"
#include "trident/plugin.h"

#include <doctest/doctest.h>

#include <algorithm>

using namespace trident;

namespace {

const PluginReport *report(const Runtime &rt, const std::string &name) {
  for (const PluginReport &r : rt.plugins())
    if (r.name == name)
      return &r;
  return nullptr;
}

bool contains(const std::string &s, const std::string &part) { return s.find(part) != std::string::npos; }

std::string errorOf(auto &&f) {
  try {
    f();
  } catch (const Error &e) {
    return e.what();
  }
  return "";
}

} // namespace

TEST_CASE("stub plugins: every failure case is reported and skipped") {
  Runtime rt(test::testOptions("", {TRIDENT_TEST_STUB_DIR}));

  const PluginReport *major = report(rt, "stub-bad-major");
  REQUIRE(major);
  CHECK_FALSE(major->loaded);
  CHECK(contains(major->reason, "built for plugin ABI 2.0"));
  CHECK(contains(major->reason, "this runtime uses plugin ABI " + std::to_string(TRIDENT_PLUGIN_ABI_MAJOR) + "." +
                                    std::to_string(TRIDENT_PLUGIN_ABI_MINOR)));

  const PluginReport *noEntry = report(rt, "stub-no-entry");
  REQUIRE(noEntry);
  CHECK_FALSE(noEntry->loaded);
  CHECK(contains(noEntry->reason, "exports no 'trident_plugin_entry' symbol"));

  const PluginReport *init = report(rt, "stub-init-fails");
  REQUIRE(init);
  CHECK_FALSE(init->loaded);
  CHECK(contains(init->reason, "initialization failed: stub: the pretend driver libstubdriver.so.1 is not installed"));

  const PluginReport *noDevices = report(rt, "stub-no-devices");
  REQUIRE(noDevices);
  CHECK(noDevices->loaded); // kept for compiling, but it has nothing to launch on
  CHECK(noDevices->deviceCount == 0);
  CHECK(contains(noDevices->reason, "0 devices: stub: the pretend driver found no hardware"));

  const PluginReport *old = report(rt, "stub-old-table");
  REQUIRE(old);
  CHECK(old->loaded);
  CHECK(old->deviceCount == 1);

  // The host plugin still works beside them.
  const PluginReport *host = report(rt, "host");
  REQUIRE(host);
  CHECK(host->loaded);
  CHECK(rt.defaultDevice().name() == "host:0");
  Buffer b(rt.device("host:0"), 16, DType::I32);
  std::vector<int32_t> v(16, 7), back(16, 0);
  b.copyFromHost(std::span<const int32_t>(v));
  b.copyToHost(std::span<int32_t>(back));
  CHECK(back == v);

  // Asking for a device of a skipped plugin by name is an error that says why.
  std::string e = errorOf([&] { rt.device("stub-init-fails:0"); });
  CHECK(contains(e, "unknown device 'stub-init-fails:0'"));
  CHECK(contains(e, "initialization failed"));
  e = errorOf([&] { rt.device("stub-no-devices:0"); });
  CHECK(contains(e, "has no devices"));
  CHECK(contains(e, "found no hardware"));
  e = errorOf([&] { rt.device("cuda:0"); });
  CHECK(contains(e, "unknown device 'cuda:0'"));
  CHECK(contains(e, "host:0"));
}

TEST_CASE("stub plugins: an older, shorter function table loads and its missing entries are unsupported") {
  Runtime rt(test::testOptions("", {TRIDENT_TEST_STUB_DIR}));
  Device old = rt.device("stub-old-table:0");
  CHECK(old.info().name == "Stub device (stub-old-table)");
  CHECK(old.info().target == "stub");

  // Entries inside the table work.
  Buffer b(old, 8, DType::F32);
  std::vector<float> v = {1, 2, 3, 4, 5, 6, 7, 8}, back(8);
  b.copyFromHost(std::span<const float>(v));
  b.copyToHost(std::span<float>(back));
  CHECK(back == v);

  // Entries past its size read as "not supported"; the stub aborts if called.
  std::string e = errorOf([&] { Stream::import(old, nullptr); });
  CHECK(contains(e, "not supported"));
  CHECK(contains(e, "ABI 1.0, does not provide stream_import"));
  e = errorOf([&] { Buffer::import(old, 0x1000, 4, DType::F32); });
  CHECK(contains(e, "does not provide mem_import"));

  // A copy to another plugin's device goes through host memory.
  Buffer h(rt.device("host:0"), 8, DType::F32);
  h.copyFrom(b);
  CHECK(h.toHost<float>() == v);
  b.fillBytes(0);
  b.copyFrom(h); // and back
  CHECK(b.toHost<float>() == v);

  // No launch entry point and no compiler: a clear error, not a crash.
  Kernel k = Kernel::fromBlockIR(test::addKernelIR(), "add");
  e = errorOf([&] { k.launch(old, Grid(1), {b, b, b, 8}); });
  CHECK(contains(e, "stub-old-table plugin"));
  CHECK(contains(e, "compiles nothing"));
}

TEST_CASE("plugins built on the SDK: a wrong major, shorter tables and a failing init are reported; others run") {
  Runtime rt(test::testOptions("", {TRIDENT_TEST_SDK_STUB_DIR}));
  struct Case {
    std::string name, reason;
  };
  const Case refused[] = {
      {"sdk-bad-major", "built for plugin ABI " + std::to_string(TRIDENT_PLUGIN_ABI_MAJOR + 1) + "." +
                            std::to_string(TRIDENT_PLUGIN_ABI_MINOR) + ", but this runtime uses plugin ABI " +
                            std::to_string(TRIDENT_PLUGIN_ABI_MAJOR) + "." +
                            std::to_string(TRIDENT_PLUGIN_ABI_MINOR) + " (a different major version)"},
      {"sdk-short-table", "its function table lacks the required entry 'device_count'"},
      {"sdk-init-fails", "initialization failed: sdk-init-fails: the pretend driver libsdkdriver.so.1 is not installed"},
  };
  for (const Case &c : refused) {
    CAPTURE(c.name);
    const PluginReport *r = report(rt, c.name);
    REQUIRE(r);
    CHECK_FALSE(r->loaded);
    CHECK(r->deviceCount == 0);
    CHECK(contains(r->reason, c.reason));
    CHECK(contains(errorOf([&] { rt.device(c.name + ":0"); }), "was skipped"));
  }

  for (std::string name : {"sdk-ok", "sdk-old-table"}) {
    CAPTURE(name);
    const PluginReport *r = report(rt, name);
    REQUIRE(r);
    CHECK(r->loaded);
    CHECK(r->deviceCount == 1);
    Device d = rt.device(name + ":0");
    CHECK(d.info().name == "SDK stub (" + name + ")");
    CHECK(d.info().target == "sdk-stub");
    Buffer b(d, 8, DType::F32);
    std::vector<float> v = {1, 2, 3, 4, 5, 6, 7, 8};
    b.copyFromHost(std::span<const float>(v));
    CHECK(b.toHost<float>() == v);
    Buffer h(rt.device("host:0"), 8, DType::F32); // another plugin's device: through host memory
    h.copyFrom(b);
    CHECK(h.toHost<float>() == v);
    Kernel k = Kernel::fromBlockIR(test::addKernelIR(), "add");
    std::string e = errorOf([&] { k.launch(d, Grid(1), {b, b, b, 8}); });
    CHECK(contains(e, name + " plugin: compiling kernel 'add' for sdk-stub: not supported"));
    CHECK(contains(e, "does not provide compile"));
  }
  // The ABI 1.0 table: what the SDK filled past it is never read.
  Device old = rt.device("sdk-old-table:0");
  CHECK(contains(errorOf([&] { Stream::import(old, nullptr); }), "ABI 1.0, does not provide stream_import"));
  CHECK(contains(errorOf([&] { Buffer::import(old, 0x1000, 4, DType::F32); }), "does not provide mem_import"));
}

TEST_CASE("TRIDENT_PLUGINS-style filtering loads only the named plugins") {
  RuntimeOptions o = test::testOptions("", {TRIDENT_TEST_STUB_DIR});
  o.pluginNames = std::vector<std::string>{"host"};
  Runtime rt(o);
  REQUIRE(rt.plugins().size() == 1);
  CHECK(rt.plugins()[0].name == "host");
  CHECK(rt.devices().size() == 1);
}

TEST_CASE("a runtime with no plugins reports no devices with a helpful error") {
  test::TempDir empty;
  RuntimeOptions o;
  o.pluginDirs = {empty.path()};
  o.diskCache = false;
  Runtime rt(o);
  CHECK(rt.devices().empty());
  std::string e = errorOf([&] { rt.defaultDevice(); });
  CHECK(contains(e, "no devices"));
  CHECK(contains(e, "trident devices"));
}

TEST_CASE("objects keep their plugin loaded after the runtime is gone") {
  Buffer b;
  {
    Runtime rt(test::testOptions());
    b = Buffer(rt.device("host:0"), 4, DType::I32);
  }
  std::vector<int32_t> v = {1, -2, 3, -4};
  b.copyFromHost(std::span<const int32_t>(v));
  CHECK(b.toHost<int32_t>() == v);
}

TEST_CASE("the environment: TRIDENT_PLUGIN_PATH, TRIDENT_PLUGINS, TRIDENT_DEVICE, TRIDENT_CACHE") {
  ::setenv("TRIDENT_PLUGIN_PATH", (std::string("/nonexistent:") + TRIDENT_TEST_STUB_DIR).c_str(), 1);
  ::setenv("TRIDENT_PLUGINS", "host, stub-recorder", 1);
  ::setenv("TRIDENT_CACHE", "0", 1);
  RuntimeOptions o = RuntimeOptions::fromEnvironment();
  ::unsetenv("TRIDENT_PLUGIN_PATH");
  ::unsetenv("TRIDENT_PLUGINS");
  ::unsetenv("TRIDENT_CACHE");
  CHECK_FALSE(o.diskCache);
  Runtime rt(o);
  REQUIRE(rt.plugins().size() == 2); // found beside the runtime library and on the path
  CHECK(rt.plugins()[0].name == "host");
  CHECK(rt.plugins()[1].name == "stub-recorder");
  CHECK(rt.cacheDir().empty());
  CHECK(rt.defaultDevice().name() == "host:0"); // the stub is not a GPU
  ::setenv("TRIDENT_DEVICE", "stub-recorder:0", 1);
  CHECK(rt.defaultDevice().name() == "stub-recorder:0");
  ::setenv("TRIDENT_DEVICE", "cuda:3", 1);
  CHECK_THROWS_WITH_AS(rt.defaultDevice(), doctest::Contains("unknown device 'cuda:3'"), Error);
  ::unsetenv("TRIDENT_DEVICE");
}
