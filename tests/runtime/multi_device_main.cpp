// runtime_multi_device_tests: the multi-device checks (MultiDevice.h) on devices of
// several plugins, and the checks of one device of a plugin (OutOfMemoryCheck.h),
// which a machine may lack. Each CTest entry names what it needs:
//
//   runtime_multi_device_tests --needs vulkan      -tc='host+vulkan*'
//   runtime_multi_device_tests --needs cuda,cuda   -tc='cuda-peer*'
//   runtime_multi_device_tests --needs cuda,vulkan -tc='cuda+vulkan*'
//   runtime_multi_device_tests --needs vulkan      -tc='vulkan-oom*'
//
// When the machine lacks a device the entry needs, it prints SKIPPED with the
// plugin's reason and exits 77, which CTest reports as skipped (never as passed).
// TRIDENT_HOST_DEVICES=2 is set here, so host:0 and host:1 exist.

#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include "MultiDevice.h"
#include "OutOfMemoryCheck.h"
#include "TestUtil.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <memory>

using namespace trident;

namespace {

std::unique_ptr<Runtime> theRuntime; // made in main, destroyed before it returns

Runtime &runtime() { return *theRuntime; }

std::vector<Device> devicesOf(const std::string &plugin) {
  std::vector<Device> out;
  for (const Device &d : runtime().devices())
    if (d.plugin() == plugin)
      out.push_back(d);
  return out;
}

std::string reasonFor(const std::string &plugin) {
  for (const PluginReport &r : runtime().plugins())
    if (r.name == plugin)
      return !r.loaded         ? "plugin not loaded: " + r.reason
             : r.reason.empty() ? "the plugin is loaded with " + std::to_string(r.deviceCount) + " devices"
                                : r.reason;
  return "the " + plugin + " plugin is not built or not found";
}

// The devices a test case uses: the named ones, in order.
std::vector<Device> pick(std::initializer_list<const char *> names) {
  std::vector<Device> out;
  for (const char *n : names)
    out.push_back(runtime().device(n));
  return out;
}

} // namespace

TEST_CASE("host+vulkan: copy routes and ranged copies between every pair") {
  test::checkCopiesBetweenAll(pick({"host:0", "host:1", "vulkan:0"}), nullptr);
}

TEST_CASE("host+vulkan: a vector split from one thread, gathered on vulkan:0 and on host:0") {
  test::checkSplitFromOneThread(pick({"vulkan:0", "host:0", "host:1"}), 100003, 3);
  test::checkSplitFromOneThread(pick({"host:0", "vulkan:0", "host:1"}), 100003, 4);
}

TEST_CASE("host+vulkan: a vector split from one thread per device") {
  test::checkSplitFromThreads(pick({"host:0", "host:1", "vulkan:0"}), 60001, 8, 3);
}

TEST_CASE("host+vulkan: streams wait for events of the other plugin's devices") {
  test::checkWaitsAcrossDevices(pick({"host:0", "vulkan:0", "host:1"}), 50021, 9);
}

TEST_CASE("cuda-peer: copies, splits and waits between two CUDA devices") {
  std::vector<Device> cuda = pick({"cuda:0", "cuda:1"});
  CopyRoute route = cuda[1].copyRouteFrom(cuda[0]);
  MESSAGE(("cuda:0 -> cuda:1 copies by " + std::string(copyRouteName(route)) +
           (route == CopyRoute::Peer ? "" : " (the driver refuses peer access)")));
  test::checkCopiesBetweenAll(cuda, nullptr);
  test::checkSplitFromOneThread(cuda, (1u << 22) + 3, 13);
  test::checkSplitFromThreads(cuda, (1u << 22) + 5, 14, 3);
  test::checkWaitsAcrossDevices(cuda, (1u << 24) + 1, 15);
}

TEST_CASE("cuda+vulkan: copies, splits and waits between cuda:0 and vulkan:0") {
  std::vector<Device> devs = pick({"cuda:0", "vulkan:0"});
  test::checkCopiesBetweenAll(devs, nullptr);
  test::checkSplitFromOneThread(devs, (1u << 22) + 3, 23);
  test::checkSplitFromThreads(devs, (1u << 22) + 5, 24, 3);
  test::checkWaitsAcrossDevices(devs, (1u << 22) + 1, 25);
}

TEST_CASE("vulkan-oom: an allocation larger than vulkan:0 holds is an out-of-memory error") {
  test::checkOutOfMemory(runtime().device("vulkan:0"));
}

TEST_CASE("cuda-oom: an allocation larger than cuda:0 holds is an out-of-memory error") {
  test::checkOutOfMemory(runtime().device("cuda:0"));
}

TEST_CASE("hip-oom: an allocation larger than hip:0 holds is an out-of-memory error") {
  test::checkOutOfMemory(runtime().device("hip:0"));
}

int main(int argc, char **argv) {
  ::setenv("TRIDENT_HOST_DEVICES", "2", 1);
  std::vector<char *> rest = {argv[0]};
  std::map<std::string, size_t> needed; // plugin -> devices
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--needs") == 0 && i + 1 < argc) {
      std::string list = argv[++i];
      for (size_t start = 0; start <= list.size();) {
        size_t comma = std::min(list.find(',', start), list.size());
        if (comma > start)
          needed[list.substr(start, comma - start)]++;
        start = comma + 1;
      }
    } else {
      rest.push_back(argv[i]);
    }
  }
  theRuntime = std::make_unique<Runtime>(test::testOptions());
  try {
    for (const auto &[plugin, count] : needed) {
      size_t have = devicesOf(plugin).size();
      if (have < count) {
        std::printf("SKIPPED: this test needs %zu %s device%s and the machine has %zu (%s)\n", count,
                    plugin.c_str(), count > 1 ? "s" : "", have, reasonFor(plugin).c_str());
        theRuntime.reset();
        return 77;
      }
    }
  } catch (const std::exception &e) {
    std::printf("error: %s\n", e.what());
    return 1;
  }
  doctest::Context context(int(rest.size()), rest.data());
  int status = context.run();
  theRuntime.reset();
  return status;
}
