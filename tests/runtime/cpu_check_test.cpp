// The CPU plugin's bounds checks (plugins/cpu/CpuChecks.h): with the compile option
// `debug` or TRIDENT_CPU_CHECK=1 every global access of a cpu:0 kernel is checked
// against its launch's pointer arguments; without them kernels are unchecked.
// Skipped (with a message) in builds without the CPU plugin.

#include "TestUtil.h"

#include <doctest/doctest.h>

#include <cstdio>
#include <cstdlib>

using namespace trident;

namespace {

bool hasCpu(const Runtime &rt) {
  for (const Device &d : rt.devices())
    if (d.name() == "cpu:0")
      return true;
  MESSAGE("no cpu:0 in this build (no LLVM): the CPU plugin's checks are not tested");
  return false;
}

// Sets TRIDENT_CPU_CHECK for the scope.
struct CheckEnvironment {
  explicit CheckEnvironment(const char *value) { ::setenv("TRIDENT_CPU_CHECK", value, 1); }
  ~CheckEnvironment() { ::unsetenv("TRIDENT_CPU_CHECK"); }
};

std::string hex(uint64_t v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

// out[p * 64 + i] = p for the program p = x + y * gx + z * gx * gy of a 3-D grid,
// every lane, no mask.
std::string programIndexKernelIR() {
  return R"(builtin.module ({
  tt.func {sym_name = "index"} ({
  ^(%out: ptr<i32>):
    %x = tt.get_program_id {axis = 0} : i32
    %y = tt.get_program_id {axis = 1} : i32
    %z = tt.get_program_id {axis = 2} : i32
    %gx = tt.get_num_programs {axis = 0} : i32
    %gy = tt.get_num_programs {axis = 1} : i32
    %gxy = arith.muli %gx, %gy : i32
    %zz = arith.muli %z, %gxy : i32
    %yy = arith.muli %y, %gx : i32
    %xy = arith.addi %x, %yy : i32
    %p = arith.addi %xy, %zz : i32
    %c64 = arith.constant {value = 64} : i32
    %start = arith.muli %p, %c64 : i32
    %range = tt.make_range {end = 64, start = 0} : block<64xi32>
    %base = tt.splat %start : block<64xi32>
    %offs = arith.addi %base, %range : block<64xi32>
    %os = tt.splat %out : block<64xptr<i32>>
    %op = tt.addptr %os, %offs : block<64xptr<i32>>
    %v = tt.splat %p : block<64xi32>
    tt.store %op, %v loc("index.py":5:4)
    tt.return
  })
})
)";
}

// counts[at + i] += 1 for i < 16, atomically.
std::string atomicKernelIR() {
  return R"(builtin.module ({
  tt.func {sym_name = "bump"} ({
  ^(%counts: ptr<i32>, %at: i32):
    %r = tt.make_range {end = 16, start = 0} : block<16xi32>
    %as = tt.splat %at : block<16xi32>
    %o = arith.addi %as, %r : block<16xi32>
    %cs = tt.splat %counts : block<16xptr<i32>>
    %cp = tt.addptr %cs, %o : block<16xptr<i32>>
    %one = arith.constant {value = 1} : block<16xi32>
    %old = tt.atomic_rmw %cp, %one {kind = "add", scope = "gpu", sem = "acq_rel"} : block<16xi32> loc("bump.py":9:10)
    tt.return
  })
})
)";
}

std::string launchError(const std::function<void()> &launch) {
  try {
    launch();
  } catch (const Error &e) {
    CHECK(e.code() == ErrorCode::Launch);
    return e.what();
  }
  FAIL("the launch should have failed");
  return {};
}

} // namespace

TEST_CASE("cpu:0 with TRIDENT_CPU_CHECK=1: an out-of-bounds load names the kernel, line, program, address and buffer") {
  CheckEnvironment on("1");
  Runtime rt(test::testOptions());
  if (!hasCpu(rt))
    return;
  Device dev = rt.device("cpu:0");
  Kernel add = Kernel::fromBlockIR(test::addKernelIR(), "add");
  // 64 elements per program: programs 0 to 3 read x inside its 256 elements, program 4 past them.
  Buffer x(dev, 256, DType::F32), big(dev, 320, DType::F32);
  x.fillBytes(0);
  big.fillBytes(0);
  std::string m = launchError([&] { add.launch(dev, Grid(5), {x, big, big, 320}); });
  INFO(m);
  CHECK(m.find("kernel 'add' failed on cpu:0: add.py:7:8: error: out-of-bounds load: ") != std::string::npos);
  CHECK(m.find("address " + hex(x.address() + 1024) + " is 4 bytes past the end of the buffer of argument 0 (the "
               "1024-byte allocation at " +
               hex(x.address()) + " of cpu:0)") != std::string::npos);
  CHECK(m.find("in program (4, 0, 0)") != std::string::npos);
  // The device still works, and in-bounds launches of the checked kernel pass.
  add.launch(dev, Grid(4), {x, big, big, 256});
}

TEST_CASE("cpu:0 with checks: the program of a 3-D grid, a store, an atomic and a buffer two arguments share") {
  CheckEnvironment on("1");
  Runtime rt(test::testOptions());
  if (!hasCpu(rt))
    return;
  Device dev = rt.device("cpu:0");
  Kernel index = Kernel::fromBlockIR(programIndexKernelIR(), "index");
  // Grid (3, 2, 4): 24 programs; the buffer holds 23 of them, so only program (2, 1, 3) writes past it.
  Buffer out(dev, 23 * 64, DType::I32);
  std::string m = launchError([&] { index.launch(dev, Grid(3, 2, 4), {out}); });
  INFO(m);
  CHECK(m.find("kernel 'index' failed on cpu:0: index.py:5:4: error: out-of-bounds store: ") != std::string::npos);
  CHECK(m.find("in program (2, 1, 3)") != std::string::npos);
  Buffer whole(dev, 24 * 64, DType::I32);
  index.launch(dev, Grid(3, 2, 4), {whole});
  std::vector<int32_t> got = whole.toHost<int32_t>();
  for (size_t i = 0; i < got.size(); i += 64)
    CHECK(got[i] == int32_t(i / 64));

  Kernel bump = Kernel::fromBlockIR(atomicKernelIR(), "bump");
  Buffer counts(dev, 32, DType::I32);
  counts.fillBytes(0);
  bump.launch(dev, Grid(1), {counts, 16});
  m = launchError([&] { bump.launch(dev, Grid(1), {counts, -2}); });
  INFO(m);
  CHECK(m.find("bump.py:9:10: error: out-of-bounds atomic_rmw: address " + hex(counts.address() - 8) +
               " is 8 bytes before the start of the buffer of argument 0") != std::string::npos);
  CHECK(counts.toHost<int32_t>()[0] == 0); // stopped before its first access

  // Two arguments in one allocation name it once.
  Kernel add = Kernel::fromBlockIR(test::addKernelIR(), "add");
  Buffer y(dev, 100, DType::F32);
  y.fillBytes(0);
  m = launchError([&] { add.launch(dev, Grid(2), {y, y, y, 128}); });
  CHECK(m.find("the buffer of arguments 0, 1 and 2 (the 400-byte allocation") != std::string::npos);
}

TEST_CASE("cpu:0 with checks: in-bounds and masked kernels pass, with TRIDENT_CPU_CHECK or the debug option") {
  Runtime rt(test::testOptions());
  if (!hasCpu(rt))
    return;
  Device dev = rt.device("cpu:0");
  Kernel add = Kernel::fromBlockIR(test::addKernelIR(), "add");
  // 100 elements, two programs of 64: program 1's lanes 36 to 63 point past the buffers, masked off.
  std::vector<float> xs(100), ys(100);
  for (int i = 0; i < 100; ++i) {
    xs[size_t(i)] = float(i);
    ys[size_t(i)] = 0.5f * float(i);
  }
  Buffer x = Buffer::fromHost(dev, std::span<const float>(xs)), y = Buffer::fromHost(dev, std::span<const float>(ys));
  Buffer out(dev, 100, DType::F32);
  auto run = [&](bool debug) {
    out.fillBytes(0xff);
    add.launch(dev, Grid(2), {x, y, out, 100}, {.debug = debug});
    std::vector<float> got = out.toHost<float>();
    for (int i = 0; i < 100; ++i)
      CHECK(got[size_t(i)] == 1.5f * float(i));
  };
  {
    CheckEnvironment on("1");
    run(false);
  }
  run(true);
  // The debug option alone checks too.
  Buffer small(dev, 64, DType::F32);
  small.fillBytes(0);
  std::string m = launchError([&] { add.launch(dev, Grid(2), {small, x, out, 100}, {.debug = true}); });
  CHECK(m.find("add.py:7:8: error: out-of-bounds load") != std::string::npos);
  CHECK(m.find("in program (1, 0, 0)") != std::string::npos);
}

TEST_CASE("cpu:0 without checks compiles no check, and a cached binary of the other mode is compiled again") {
  Runtime plain(test::testOptions());
  if (!hasCpu(plain))
    return;
  ArtifactRequest request{.target = "cpu", .emit = "llvm"};
  auto text = [&](const Runtime &rt, bool debug) {
    request.debug = debug;
    Artifact a = compileArtifact(rt, test::addKernelIR(), "add", request);
    return std::string(a.bytes.begin(), a.bytes.end());
  };
  CHECK(text(plain, false).find("trident_cpu_check") == std::string::npos);
  CHECK(text(plain, true).find("trident_cpu_check") != std::string::npos);
  {
    CheckEnvironment on("1");
    CHECK(text(plain, false).find("trident_cpu_check") != std::string::npos);
  }
  {
    CheckEnvironment off("0");
    CHECK(text(plain, false).find("trident_cpu_check") == std::string::npos);
  }

  // One disk cache across the modes: each switch compiles the kernel again.
  test::TempDir cache;
  auto launch = [&](Runtime &rt) {
    Kernel add = Kernel::fromBlockIR(test::addKernelIR(), "add");
    Device dev = rt.device("cpu:0");
    Buffer b(dev, 128, DType::F32);
    b.fillBytes(0);
    add.launch(dev, Grid(2), {b, b, b, 128});
    return rt.cacheStats().backendCompiles;
  };
  {
    Runtime rt(test::testOptions(cache.path()));
    CHECK(launch(rt) == 1);
  }
  {
    CheckEnvironment on("1");
    Runtime rt(test::testOptions(cache.path()));
    CHECK(launch(rt) == 1); // the unchecked binary is refused
    Device dev = rt.device("cpu:0");
    Kernel add = Kernel::fromBlockIR(test::addKernelIR(), "add");
    Buffer small(dev, 64, DType::F32);
    small.fillBytes(0);
    std::string m = launchError([&] { add.launch(dev, Grid(2), {small, small, small, 128}); });
    CHECK(m.find("out-of-bounds load") != std::string::npos);
  }
  {
    Runtime rt(test::testOptions(cache.path()));
    CHECK(launch(rt) == 1); // and the checked one
  }
  {
    Runtime rt(test::testOptions(cache.path()));
    CHECK(launch(rt) == 0); // the unchecked one is in the cache again
  }
}
