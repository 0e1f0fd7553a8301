// Host-device allocations (HostDevices.cpp): large ones on transparent huge pages.

#include "trident/sdk/HostDevices.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

using namespace trident;

namespace {

// The VmFlags line of the mapping of /proc/self/smaps holding `address` ("" if none).
std::string vmFlags(uint64_t address) {
  std::ifstream smaps("/proc/self/smaps");
  std::string line;
  bool inside = false;
  while (std::getline(smaps, line)) {
    unsigned long long lo = 0, hi = 0;
    if (std::sscanf(line.c_str(), "%llx-%llx ", &lo, &hi) == 2 && line.find(':') > line.find(' ')) {
      inside = lo <= address && address < hi;
      continue;
    }
    if (inside && line.rfind("VmFlags:", 0) == 0)
      return line;
  }
  return "";
}

bool hugePagesAdvised(uint64_t address) {
  std::istringstream words(vmFlags(address));
  for (std::string w; words >> w;)
    if (w == "hg")
      return true;
  return false;
}

struct Devices {
  trident_plugin_api api{};
  trident_context ctx = nullptr;
  trident_device device = nullptr;
  Devices() {
    api.struct_size = sizeof api;
    sdk::fillHostDeviceApi(api);
    REQUIRE(sdk::initHostDevices({"mine", "MINE_DEVICES", "MINE_THREADS"}, &ctx) == TRIDENT_SUCCESS);
    REQUIRE(api.device_open(ctx, 0, &device) == TRIDENT_SUCCESS);
  }
  ~Devices() {
    api.device_close(device);
    api.shutdown(ctx);
  }
};

} // namespace

TEST_CASE("allocations of 4 MiB or more are on 2 MiB pages advised as huge pages") {
  if (vmFlags(reinterpret_cast<uint64_t>(&vmFlags)).empty()) {
    MESSAGE("SKIPPED: no VmFlags in /proc/self/smaps");
    return;
  }
  Devices d;
  trident_devptr big = 0, small = 0;
  REQUIRE(d.api.mem_alloc(d.device, (size_t(4) << 20) + 100, &big) == TRIDENT_SUCCESS);
  REQUIRE(d.api.mem_alloc(d.device, 1000, &small) == TRIDENT_SUCCESS);
  CHECK(big % (size_t(2) << 20) == 0);
  CHECK(small % 256 == 0);
  CHECK(hugePagesAdvised(big));
  CHECK(hugePagesAdvised(big + (size_t(4) << 20) + 99)); // the last byte's page too
  // The whole allocation is the caller's: writing its last byte is fine.
  reinterpret_cast<char *>(big)[(size_t(4) << 20) + 99] = 1;
  CHECK(d.api.mem_free(d.device, big) == TRIDENT_SUCCESS);
  CHECK(d.api.mem_free(d.device, small) == TRIDENT_SUCCESS);

  setenv("TRIDENT_HUGE_PAGES", "0", 1); // kept on 4 KiB pages
  REQUIRE(d.api.mem_alloc(d.device, size_t(8) << 20, &big) == TRIDENT_SUCCESS);
  unsetenv("TRIDENT_HUGE_PAGES");
  CHECK_FALSE(hugePagesAdvised(big));
  CHECK(d.api.mem_free(d.device, big) == TRIDENT_SUCCESS);
}
