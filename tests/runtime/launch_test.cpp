// Launches of block-IR kernels on the host plugin, and the errors a user can cause.

#include "TestUtil.h"

#include <doctest/doctest.h>

#include <random>

using namespace trident;

namespace {

std::vector<float> randomFloats(size_t n, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<float> dist(-1, 1);
  std::vector<float> v(n);
  for (float &x : v)
    x = dist(rng);
  return v;
}

} // namespace

TEST_CASE("a block-IR kernel runs over 1-D and 2-D grids and matches a float64 reference") {
  Runtime rt(test::testOptions());
  Device dev = rt.device("host:0");
  for (int n : {1, 63, 64, 1000, 4099}) {
    auto x = randomFloats(size_t(n), unsigned(n)), y = randomFloats(size_t(n), unsigned(n) + 1);
    Buffer bx = Buffer::fromHost(dev, std::span<const float>(x));
    Buffer by = Buffer::fromHost(dev, std::span<const float>(y));
    Buffer bo(dev, size_t(n), DType::F32);
    bo.fillBytes(0xff); // NaN poison
    Kernel add = Kernel::fromBlockIR(test::addKernelIR(), "add");
    add.launch(dev, Grid(cdiv(n, 64)), {bx, by, bo, n});
    std::vector<float> out = bo.toHost<float>();
    for (int i = 0; i < n; ++i)
      CHECK(out[size_t(i)] == float(double(x[size_t(i)]) + double(y[size_t(i)])));

    // A 2-D grid with program ids on both axes and num_programs.
    Kernel axpy = Kernel::fromBlockIR(test::axpyKernelIR(), "axpy");
    const int64_t blocks = cdiv(n, 32);
    const int64_t gx = std::max<int64_t>(1, blocks / 3), gy = cdiv(blocks, gx);
    bo.fillBytes(0xff);
    axpy.launch(dev, Grid(gx, gy), {bx, by, bo, 2.5f, n});
    out = bo.toHost<float>();
    for (int i = 0; i < n; ++i) {
      double ref = double(x[size_t(i)]) * 2.5 + double(y[size_t(i)]);
      CHECK(std::abs(out[size_t(i)] - ref) <= 1e-6 * (1 + std::abs(ref)));
    }
  }
}

TEST_CASE("a warm launch is served from the in-memory cache") {
  Runtime rt(test::testOptions());
  Device dev = rt.device("host:0");
  Kernel add = Kernel::fromBlockIR(test::addKernelIR(), "add");
  Buffer b(dev, 128, DType::F32);
  b.fillBytes(0);
  add.launch(dev, Grid(2), {b, b, b, 128});
  CHECK(rt.cacheStats().backendCompiles == 1);
  uint64_t hits = rt.cacheStats().memoryHits;
  for (int i = 0; i < 5; ++i)
    add.launch(dev, Grid(2), {b, b, b, 128});
  CHECK(rt.cacheStats().backendCompiles == 1);
  CHECK(rt.cacheStats().memoryHits == hits + 5);
  // Other options are another specialization.
  add.launch(dev, Grid(2), {b, b, b, 128}, {.numWarps = 8});
  CHECK(rt.cacheStats().backendCompiles == 2);
}

TEST_CASE("grid functions see the launch's integer values by name") {
  Runtime rt(test::testOptions());
  Device dev = rt.device("host:0");
  Kernel add = Kernel::fromBlockIR(test::addKernelIR(), "add");
  const int n = 300;
  auto x = randomFloats(n, 5);
  Buffer bx = Buffer::fromHost(dev, std::span<const float>(x));
  Buffer bo(dev, n, DType::F32);
  int64_t seen = -1;
  add.launch(dev, Grid([&](const Meta &m) -> Dim3 {
               seen = m["%3"];
               return {cdiv(m["%3"], 64)};
             }),
             {bx, bx, bo, n});
  CHECK(seen == n);
  auto out = bo.toHost<float>();
  for (int i = 0; i < n; ++i)
    CHECK(out[size_t(i)] == x[size_t(i)] * 2);
  CHECK_THROWS_WITH_AS(add.launch(dev, Grid([](const Meta &m) -> Dim3 { return {m["BLOCK"]}; }), {bx, bx, bo, n}),
                       doctest::Contains("the grid function asked for 'BLOCK'"), Error);
}

TEST_CASE("launch errors name the problem") {
  ::setenv("TRIDENT_HOST_DEVICES", "2", 1);
  Runtime rt(test::testOptions());
  ::unsetenv("TRIDENT_HOST_DEVICES");
  Device dev = rt.device("host:0"), other = rt.device("host:1");
  Kernel add = Kernel::fromBlockIR(test::addKernelIR(), "add");
  Buffer b(dev, 64, DType::F32), elsewhere(other, 64, DType::F32);
  b.fillBytes(0);

  CHECK_THROWS_WITH_AS(add.launch(dev, Grid(1), {b, b, b, 64, 5}),
                       doctest::Contains("takes 4 parameters"), Error);
  CHECK_THROWS_WITH_AS(add.launch(dev, Grid(1), {b, b, b}), doctest::Contains("missing a value for parameter '%3'"),
                       Error);
  CHECK_THROWS_WITH_AS(add.launch(dev, Grid(1), {b, elsewhere, b, 64}),
                       doctest::Contains("the buffer is on host:1 but the launch is on host:0"), Error);
  CHECK_THROWS_WITH_AS(add.launch(dev, Grid(1), {b, 1.5f, b, 64}),
                       doctest::Contains("expects ptr<f32>"), Error);
  CHECK_THROWS_WITH_AS(add.launch(dev, Grid(0), {b, b, b, 64}), doctest::Contains("zero programs along x"), Error);
  CHECK_THROWS_WITH_AS(add.launch(dev, Grid(1, -2), {b, b, b, 64}),
                       doctest::Contains("a negative programs along y"), Error);
  CHECK_THROWS_WITH_AS(add.launch(dev, Grid(1, 70000), {b, b, b, 64}),
                       doctest::Contains("grid dimension y = 70000 exceeds the limit of host:0 (65535)"), Error);
  CHECK_THROWS_WITH_AS(add.launch(dev, Grid(1), {b, b, b, 64}, {.constexprs = {{"BLOCK", 3}}}),
                       doctest::Contains("has no parameter named 'BLOCK'"), Error);
  CHECK_THROWS_WITH_AS(rt.device("vulkan:7"), doctest::Contains("unknown device 'vulkan:7'"), Error);
  CHECK_THROWS_WITH_AS(Kernel::fromBlockIR(test::addKernelIR(), "mul"),
                       doctest::Contains("no tt.func named 'mul'"), Error);
  CHECK_THROWS_WITH_AS(Kernel::fromFile("/nonexistent/k.py", "k"), doctest::Contains("cannot open kernel file"),
                       Error);
  CHECK_THROWS_WITH_AS(
      Kernel::fromBlockIR("builtin.module ({\n  tt.func {sym_name = \"k\"} ({\n    tt.bogus\n  })\n})", "k"),
      doctest::Contains("does not parse"), Error);
}

TEST_CASE("an out-of-bounds access fails the launch with the kernel's source line") {
  Runtime rt(test::testOptions());
  Device dev = rt.device("host:0");
  Kernel add = Kernel::fromBlockIR(test::addKernelIR(), "add");
  Buffer small(dev, 100, DType::F32), big(dev, 256, DType::F32);
  small.fillBytes(0);
  big.fillBytes(0);
  try {
    add.launch(dev, Grid(4), {small, big, big, 256}); // reads x past its 100 elements
    FAIL("the launch should have failed");
  } catch (const Error &e) {
    CHECK(e.code() == ErrorCode::Launch);
    std::string m = e.what();
    CHECK(m.find("kernel 'add' failed on host:0") != std::string::npos);
    CHECK(m.find("add.py:7") != std::string::npos);
  }
  // The device still works afterwards.
  add.launch(dev, Grid(2), {big, big, big, 100});
}

TEST_CASE("an out-of-bounds access names the program of the whole grid, not of its thread's slice") {
  Runtime rt(test::testOptions());
  Device dev = rt.device("host:0");
  Kernel add = Kernel::fromBlockIR(test::addKernelIR(), "add");
  // 64 elements per program: programs 0 to 3 read x inside its 256 elements, program 4 past them.
  Buffer x(dev, 256, DType::F32), big(dev, 320, DType::F32);
  x.fillBytes(0);
  big.fillBytes(0);
  try {
    add.launch(dev, Grid(5), {x, big, big, 320});
    FAIL("the launch should have failed");
  } catch (const Error &e) {
    CHECK(e.code() == ErrorCode::Launch);
    std::string m = e.what();
    INFO(m);
    CHECK(m.find("add.py:7:8: error: out-of-bounds load") != std::string::npos);
    CHECK(m.find("in program (4, 0, 0)") != std::string::npos);
  }
}
