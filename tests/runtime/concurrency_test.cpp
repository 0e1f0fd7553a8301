// Several threads launching on one device, and on several devices at once.

#include "TestUtil.h"

#include <doctest/doctest.h>

#include <atomic>
#include <random>
#include <thread>

using namespace trident;

namespace {

// Runs `iterations` axpy launches with fresh random data on `dev`, checking each
// against a float64 reference; returns the number of wrong elements.
int axpyRounds(const Kernel &axpy, const Device &dev, unsigned seed, int iterations) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1, 1);
  std::uniform_int_distribution<int> sizes(1, 3000);
  int wrong = 0;
  Stream stream(dev);
  for (int it = 0; it < iterations; ++it) {
    int n = sizes(rng);
    float s = dist(rng);
    std::vector<float> x(static_cast<size_t>(n)), y(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
      x[size_t(i)] = dist(rng);
      y[size_t(i)] = dist(rng);
    }
    Buffer bx = Buffer::fromHost(dev, std::span<const float>(x));
    Buffer by = Buffer::fromHost(dev, std::span<const float>(y));
    Buffer bo(dev, size_t(n), DType::F32);
    axpy.launch(stream, Grid(cdiv(n, 32)), {bx, by, bo, s, n});
    std::vector<float> out(static_cast<size_t>(n));
    bo.copyToHostAsync(stream, out.data(), out.size() * 4);
    stream.synchronize();
    for (int i = 0; i < n; ++i) {
      double ref = double(x[size_t(i)]) * s + double(y[size_t(i)]);
      wrong += std::abs(out[size_t(i)] - ref) > 1e-6 * (1 + std::abs(ref));
    }
  }
  return wrong;
}

} // namespace

TEST_CASE("several threads launching on one device get correct results") {
  test::TempDir cache;
  Runtime rt(test::testOptions(cache.path()));
  Device dev = rt.device("host:0");
  Kernel axpy = Kernel::fromBlockIR(test::axpyKernelIR(), "axpy");
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < 6; ++t)
    threads.emplace_back([&, t] { wrong += axpyRounds(axpy, dev, 100 + t, 15); });
  for (auto &t : threads)
    t.join();
  CHECK(wrong == 0);
  // All threads shared one specialization: compiled once.
  CHECK(rt.cacheStats().backendCompiles == 1);
}

TEST_CASE("several devices at once, from several threads, get correct results") {
  ::setenv("TRIDENT_HOST_DEVICES", "3", 1);
  RuntimeOptions options = test::testOptions();
  options.pluginNames = {"host"}; // only the host plugin's devices, whatever else is built
  Runtime rt(options);
  ::unsetenv("TRIDENT_HOST_DEVICES");
  REQUIRE(rt.devices().size() == 3);
  Kernel axpy = Kernel::fromBlockIR(test::axpyKernelIR(), "axpy");
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < 6; ++t)
    threads.emplace_back([&, t] { wrong += axpyRounds(axpy, rt.devices()[t % 3], 200 + t, 10); });
  for (auto &t : threads)
    t.join();
  CHECK(wrong == 0);
  // One binary for the target, loaded on each device (no disk cache: the
  // process-wide binary cache serves the other devices).
  CHECK(rt.cacheStats().backendCompiles == 1);
}

TEST_CASE("one thread splits a vector over several devices") {
  ::setenv("TRIDENT_HOST_DEVICES", "3", 1);
  RuntimeOptions options = test::testOptions();
  options.pluginNames = {"host"}; // only the host plugin's devices, whatever else is built
  Runtime rt(options);
  ::unsetenv("TRIDENT_HOST_DEVICES");
  Kernel add = Kernel::fromBlockIR(test::addKernelIR(), "add");
  const int n = 3000, parts = 3, per = n / parts;
  std::vector<float> x(n), y(n);
  std::mt19937 rng(42);
  std::uniform_real_distribution<float> dist(-1, 1);
  for (int i = 0; i < n; ++i) {
    x[size_t(i)] = dist(rng);
    y[size_t(i)] = dist(rng);
  }
  std::vector<Buffer> bx, by, bo;
  std::vector<Event> done;
  for (int p = 0; p < parts; ++p) {
    Device d = rt.devices()[size_t(p)];
    bx.push_back(Buffer::fromHost(d, std::span<const float>(x.data() + p * per, per)));
    by.push_back(Buffer::fromHost(d, std::span<const float>(y.data() + p * per, per)));
    bo.emplace_back(d, per, DType::F32);
    add.launch(d, Grid(cdiv(per, 64)), {bx.back(), by.back(), bo.back(), per});
    done.emplace_back(d);
    done.back().record();
  }
  // Gather onto device 0 through copies between devices, after waiting for each.
  Buffer all(rt.devices()[0], n, DType::F32);
  std::vector<float> out(n);
  for (int p = 0; p < parts; ++p) {
    done[size_t(p)].synchronize();
    bo[size_t(p)].copyToHost(out.data() + p * per, per * 4);
  }
  for (int i = 0; i < n; ++i)
    CHECK(out[size_t(i)] == float(double(x[size_t(i)]) + double(y[size_t(i)])));
}
