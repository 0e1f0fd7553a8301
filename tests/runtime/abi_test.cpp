// The launch ABI as the runtime packs it, checked through the recorder stub
// plugin, and the warm launch path's promise: no heap allocation.

#include "TestUtil.h"
#include "trident/plugin.h"

#include <doctest/doctest.h>

#include <bit>
#include <cstring>

using namespace trident;

namespace {

struct Record {
  uint32_t version, grid[3], dynamicShared, numArgs;
  trident_kernel_arg args[16];
};

Record readRecord(const Buffer &b) {
  Record r{};
  std::vector<uint8_t> bytes(b.bytes());
  b.copyToHost(bytes.data(), bytes.size());
  std::memcpy(&r, bytes.data(), std::min(sizeof r, bytes.size()));
  return r;
}

} // namespace

TEST_CASE("the runtime packs launches as the launch ABI says") {
  Runtime rt(test::testOptions("", {TRIDENT_TEST_STUB_DIR}));
  Device dev = rt.device("stub-recorder:0");
  Buffer rec(dev, 1024, DType::U8), other(dev, 16, DType::F16);
  Kernel k = Kernel::fromBlockIR(test::axpyKernelIR(), "axpy"); // 5 runtime parameters
  k.launch(dev, Grid(3, 2, 7), {rec, other, DevicePtr{0x1234560, DType::I8}, 2.5f, -7},
           {.dynamicSharedMemory = 4096});
  Record r = readRecord(rec);
  CHECK(r.version == TRIDENT_LAUNCH_ABI_VERSION);
  CHECK(r.grid[0] == 3);
  CHECK(r.grid[1] == 2);
  CHECK(r.grid[2] == 7);
  CHECK(r.dynamicShared == 4096);
  REQUIRE(r.numArgs == 5);
  CHECK(r.args[0].type == TRIDENT_ARG_POINTER);
  CHECK(r.args[0].bits == rec.address());
  CHECK(r.args[1].type == TRIDENT_ARG_POINTER);
  CHECK(r.args[1].bits == other.address());
  CHECK(r.args[2].bits == 0x1234560);
  CHECK(r.args[3].type == TRIDENT_ARG_F32);
  CHECK(r.args[3].bits == std::bit_cast<uint32_t>(2.5f));
  CHECK(r.args[4].type == TRIDENT_ARG_I32);
  CHECK(int64_t(r.args[4].bits) == -7); // sign-extended

  // Scalars of every kernel type.
  k.launch(dev, Grid(1), {rec, int64_t(-3), uint16_t(65535), 1.0, Arg::f16(1.5f)});
  r = readRecord(rec);
  REQUIRE(r.numArgs == 5);
  CHECK(r.args[1].type == TRIDENT_ARG_I64);
  CHECK(int64_t(r.args[1].bits) == -3);
  CHECK(r.args[2].type == TRIDENT_ARG_I16);
  CHECK(r.args[2].bits == 65535); // zero-extended
  CHECK(r.args[3].type == TRIDENT_ARG_F64);
  CHECK(r.args[3].bits == std::bit_cast<uint64_t>(1.0));
  CHECK(r.args[4].type == TRIDENT_ARG_F16);
  CHECK(r.args[4].bits == 0x3e00);
  k.launch(dev, Grid(1), {rec, true, int8_t(-1), Arg::bf16(-2.0f), uint64_t(1) << 40});
  r = readRecord(rec);
  CHECK(r.args[1].type == TRIDENT_ARG_I1);
  CHECK(r.args[1].bits == 1);
  CHECK(r.args[2].type == TRIDENT_ARG_I8);
  CHECK(int64_t(r.args[2].bits) == -1);
  CHECK(r.args[3].type == TRIDENT_ARG_BF16);
  CHECK(r.args[3].bits == 0xc000);
  CHECK(r.args[4].type == TRIDENT_ARG_I64);
  CHECK(r.args[4].bits == uint64_t(1) << 40);
}

TEST_CASE("a warm launch allocates nothing on the heap") {
  Runtime rt(test::testOptions("", {TRIDENT_TEST_STUB_DIR}));
  Device dev = rt.device("stub-recorder:0");
  Buffer rec(dev, 1024, DType::U8), other(dev, 16, DType::F32);
  Kernel k = Kernel::fromBlockIR(test::axpyKernelIR(), "axpy");
  Stream s = dev.defaultStream();
  k.launch(s, Grid(4), {rec, other, other, 1.0f, 100}); // compiles
  long before = test::allocationCount();
  for (int i = 0; i < 100; ++i)
    k.launch(s, Grid(4), {rec, other, other, float(i), 100 + i});
  CHECK(test::allocationCount() - before == 0);
  // A grid function with a small capture does not allocate either.
  int n = 5000;
  before = test::allocationCount();
  k.launch(s, Grid([&](const Meta &) -> Dim3 { return {cdiv(n, 32)}; }), {rec, other, other, 1.0f, n});
  CHECK(test::allocationCount() - before == 0);
  CHECK(readRecord(rec).grid[0] == uint32_t(cdiv(n, 32)));
  CHECK(rt.cacheStats().backendCompiles == 1);
  // The counter does see the runtime's allocations: a cold launch makes some.
  before = test::allocationCount();
  k.launch(s, Grid(4), {rec, other, other, 1.0f, 100}, {.numWarps = 2});
  CHECK(test::allocationCount() - before > 0);
}
