// Buffers, streams and events on the host plugin; several host devices.

#include "OutOfMemoryCheck.h"
#include "TestUtil.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <random>

using namespace trident;

TEST_CASE("an allocation larger than the host's memory is an out-of-memory error, not a crash") {
  Runtime rt(test::testOptions());
  test::checkOutOfMemory(rt.device("host:0"));
}

TEST_CASE("an allocation larger than the host's memory on cpu:0 is an out-of-memory error too") {
  Runtime rt(test::testOptions());
  bool present = false;
  for (const Device &d : rt.devices())
    present = present || d.name() == "cpu:0";
  if (!present) {
    MESSAGE("no cpu:0 in this build (no LLVM): its out-of-memory path is not tested");
    return;
  }
  test::checkOutOfMemory(rt.device("cpu:0"));
}

TEST_CASE("buffers copy to and from the host, fill, and check sizes") {
  Runtime rt(test::testOptions());
  Device dev = rt.device("host:0");
  std::mt19937 rng(1234);
  std::uniform_real_distribution<double> dist(-10, 10);
  std::vector<double> v(1000);
  for (double &x : v)
    x = dist(rng);
  Buffer b = Buffer::fromHost(dev, std::span<const double>(v));
  CHECK(b.size() == 1000);
  CHECK(b.bytes() == 8000);
  CHECK(b.dtype() == DType::F64);
  CHECK(b.device() == dev);
  CHECK(b.address() % 256 == 0);
  CHECK(b.toHost<double>() == v);

  // Partial copies with offsets.
  double part[3] = {1.5, 2.5, 3.5};
  b.copyFromHost(part, sizeof part, 8 * 10);
  std::vector<double> back = b.toHost<double>();
  CHECK(back[9] == v[9]);
  CHECK(back[10] == 1.5);
  CHECK(back[12] == 3.5);
  CHECK(back[13] == v[13]);

  b.fillBytes(0);
  for (double x : b.toHost<double>())
    CHECK(x == 0.0);

  // Device-to-device on one device.
  Buffer c(dev, 1000, DType::F64);
  b.copyFromHost(std::span<const double>(v));
  c.copyFrom(b);
  CHECK(c.toHost<double>() == v);

  // Mismatches are errors with the sizes in the message.
  std::vector<float> wrong(10);
  CHECK_THROWS_WITH_AS(b.copyFromHost(std::span<const float>(wrong)),
                       doctest::Contains("host elements of 4 bytes do not match"), Error);
  std::vector<double> tooMany(1001);
  CHECK_THROWS_WITH_AS(b.copyFromHost(std::span<const double>(tooMany)),
                       doctest::Contains("does not fit a buffer of 1000 fp64 on host:0"), Error);
  CHECK_THROWS_WITH_AS(b.copyFromHost(part, sizeof part, 8 * 999), doctest::Contains("does not fit"), Error);
  Buffer small(dev, 10, DType::F64);
  CHECK_THROWS_WITH_AS(small.copyFrom(b), doctest::Contains("cannot copy"), Error);
  Buffer null;
  CHECK_THROWS_WITH_AS(null.size(), doctest::Contains("null Buffer"), Error);
}

TEST_CASE("streams and events order and time work") {
  Runtime rt(test::testOptions());
  Device dev = rt.device("host:0");
  Stream s(dev);
  CHECK(s.device() == dev);
  Event start(dev), stop(dev);
  std::vector<float> v(4096, 2.0f), back(4096);
  Buffer b(dev, 4096, DType::F32);
  start.record(s);
  b.copyFromHostAsync(s, v.data(), v.size() * 4);
  b.copyToHostAsync(s, back.data(), back.size() * 4);
  stop.record(s);
  s.synchronize();
  stop.synchronize();
  CHECK(back == v);
  float ms = Event::elapsedMs(start, stop);
  CHECK(ms >= 0.0f);
  CHECK(ms < 10000.0f);
  Event never(dev);
  CHECK_THROWS_WITH_AS(Event::elapsedMs(start, never), doctest::Contains("never recorded"), Error);
  // Streams of one device wait on events of another.
  Stream s2(dev);
  s2.wait(stop);
  s2.synchronize();
}

TEST_CASE("several host devices: separate memory, copies between them, and clear errors") {
  ::setenv("TRIDENT_HOST_DEVICES", "3", 1);
  RuntimeOptions options = test::testOptions();
  options.pluginNames = {"host"}; // only the host plugin's devices, whatever else is built
  Runtime rt(options);
  ::unsetenv("TRIDENT_HOST_DEVICES");
  REQUIRE(rt.devices().size() == 3);
  Device d0 = rt.device("host:0"), d1 = rt.device("host:1"), d2 = rt.device("host:2");
  CHECK(d0.info().uuidString() != d1.info().uuidString());
  CHECK(rt.device(d2.info().uuidString()) == d2); // lookup by UUID

  std::vector<int64_t> v(333);
  for (size_t i = 0; i < v.size(); ++i)
    v[i] = int64_t(i * i) - 5000;
  Buffer a = Buffer::fromHost(d0, std::span<const int64_t>(v));
  Buffer b(d1, 333, DType::I64);
  b.copyFrom(a); // a peer copy inside the host plugin
  CHECK(b.toHost<int64_t>() == v);
  Buffer c(d2, 333, DType::I64);
  c.copyFromAsync(d2.defaultStream(), b);
  d2.defaultStream().synchronize();
  CHECK(c.toHost<int64_t>() == v);

  // A stream of one device cannot copy another device's buffer.
  Stream s1(d1);
  std::vector<int64_t> back(333);
  CHECK_THROWS_WITH_AS(a.copyToHostAsync(s1, back.data(), 333 * 8),
                       doctest::Contains("a stream of host:1 cannot copy into or out of"), Error);
  // An event of host:0 recorded on a stream of host:1.
  Event e(d0);
  CHECK_THROWS_WITH_AS(e.record(s1), doctest::Contains("create the event on the stream's device"), Error);
  // Events of two devices cannot be timed against each other.
  Event e1(d1);
  e.record();
  e1.record();
  CHECK_THROWS_WITH_AS(Event::elapsedMs(e, e1), doctest::Contains("two events of one device"), Error);
  // Cross-device waits work.
  s1.wait(e);
  s1.synchronize();
}

TEST_CASE("imported host memory is usable and not freed by Trident") {
  Runtime rt(test::testOptions());
  Device dev = rt.device("host:0");
  std::vector<float> external(64, 3.0f);
  {
    Buffer b = Buffer::import(dev, reinterpret_cast<uint64_t>(external.data()), external.size(), DType::F32);
    CHECK(b.address() == reinterpret_cast<uint64_t>(external.data()));
    std::vector<float> v(64, 9.0f);
    b.copyFromHost(std::span<const float>(v));
    Stream s = Stream::import(dev, nullptr);
    s.synchronize();
  }
  CHECK(external[0] == 9.0f); // written through, and still ours after the Buffer is gone
  CHECK(external[63] == 9.0f);
}

TEST_CASE("dtype names and half conversions") {
  CHECK(dtypeName(DType::F32) == "fp32");
  CHECK(parseDType("float16") == DType::F16);
  CHECK(parseDType("bf16") == DType::BF16);
  CHECK_FALSE(parseDType("fp99").has_value());
  CHECK(dtypeBytes(DType::BF16) == 2);
  std::mt19937 rng(7);
  std::uniform_real_distribution<float> dist(-60000, 60000);
  for (int i = 0; i < 1000; ++i) {
    float f = dist(rng);
    float h = halfToFloat(floatToHalf(f));
    CHECK(std::abs(h - f) <= std::abs(f) * 0.0005f + 1e-7f); // 11-bit precision
    float b = bfloat16ToFloat(floatToBFloat16(f));
    CHECK(std::abs(b - f) <= std::abs(f) * 0.004f);
  }
  CHECK(floatToHalf(1.0f) == 0x3c00);
  CHECK(floatToHalf(65504.0f) == 0x7bff);
  CHECK(floatToHalf(1e6f) == 0x7c00);
  CHECK(halfToFloat(0x0001) == 5.9604644775390625e-08f);
  CHECK(floatToHalf(5.9604644775390625e-08f) == 0x0001);
}
