// Several host devices used together (TRIDENT_HOST_DEVICES=3): copy routes,
// ranged copies between devices, a vector split from one thread and from several,
// and streams waiting on other devices' events. The same checks run on host +
// vulkan and on CUDA devices in runtime_multi_device_tests (multi_device_main.cpp).

#include "MultiDevice.h"
#include "TestUtil.h"

#include <doctest/doctest.h>

#include <cstdlib>

using namespace trident;

namespace {

// A runtime with only the host plugin and three host devices.
std::unique_ptr<Runtime> threeHostDevices() {
  ::setenv("TRIDENT_HOST_DEVICES", "3", 1);
  RuntimeOptions options = test::testOptions();
  options.pluginNames = {"host"}; // whatever else is built, only host devices
  auto rt = std::make_unique<Runtime>(options);
  ::unsetenv("TRIDENT_HOST_DEVICES");
  return rt;
}

} // namespace

TEST_SUITE("multi-device (host devices)") {

TEST_CASE("copy routes and ranged copies between host devices") {
  auto rt = threeHostDevices();
  REQUIRE(rt->devices().size() == 3);
  CHECK(std::string(copyRouteName(CopyRoute::Peer)) == "peer");
  CHECK(std::string(copyRouteName(CopyRoute::Host)) == "host");
  CHECK(std::string(copyRouteName(CopyRoute::SameDevice)) == "same device");
  const CopyRoute peer = CopyRoute::Peer; // host devices share one address space
  test::checkCopiesBetweenAll(rt->devices(), &peer);
  // The answer is stable (asked once per pair, then remembered).
  CHECK(rt->device("host:2").copyRouteFrom(rt->device("host:0")) == CopyRoute::Peer);
}

TEST_CASE("a copy between devices refuses a stream of the wrong device and null handles") {
  auto rt = threeHostDevices();
  Device d0 = rt->device("host:0"), d1 = rt->device("host:1");
  Buffer a(d0, 16, DType::F32), b(d1, 16, DType::F32);
  CHECK_THROWS_WITH_AS(b.copyFromAsync(Stream(d0), a), doctest::Contains("a stream of host:0 cannot copy into"),
                       Error);
  CHECK_THROWS_WITH_AS(b.copyFrom(Buffer()), doctest::Contains("null Buffer"), Error);
  CHECK_THROWS_WITH_AS(d1.copyRouteFrom(Device()), doctest::Contains("null Device"), Error);
  Buffer small(d1, 8, DType::F32);
  CHECK_THROWS_WITH_AS(small.copyFrom(a), doctest::Contains("cannot copy a buffer of 16 fp32 on host:0"), Error);
}

TEST_CASE("a vector split over host devices from one thread, gathered through waits and copies") {
  auto rt = threeHostDevices();
  test::checkSplitFromOneThread(rt->devices(), 30011, 5);
  // Uneven: more devices than some shares need.
  test::checkSplitFromOneThread(rt->devices(), 7, 6);
}

TEST_CASE("a vector split over host devices from one thread per device") {
  auto rt = threeHostDevices();
  test::checkSplitFromThreads(rt->devices(), 20000, 11, 4);
}

TEST_CASE("streams of one host device wait for events of another") {
  auto rt = threeHostDevices();
  test::checkWaitsAcrossDevices(rt->devices(), 5003, 21);
}

} // TEST_SUITE
