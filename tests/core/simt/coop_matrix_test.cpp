// Dots on cooperative matrices (LowerCoopMatrix.cpp), lowered for a target that lists
// Vulkan-style coopmat shapes and run in the thread-IR simulator, which gives each
// subgroup's tile to all of its invocations (ThreadSim.cpp): the tile offsets in the
// operands' shared arrays, the accumulator carried by the loop, the rounds that move
// the result to the store's layout, and the barriers between them (the simulator
// reports races) are checked against a plain matmul on small integers (exact in any
// order), without a device that has VK_KHR_cooperative_matrix.
#include "../../backends/spirv/CoopMatmulKernel.h"
#include "SimtTestUtil.h"

#include "trident/simt/Barriers.h"

#include "trident/support/FloatFormats.h"

using namespace trident;
using namespace trident::simt::test;

namespace {

TargetDesc coopTarget() {
  TargetDesc t = testTarget();
  t.name = "test (cooperative matrices)";
  t.coopMatrices.push_back({16, 16, 16, Type::f16(), Type::f16(), Type::f32(), Type::f32(), {}});
  return t;
}

// An f16 shape and the bf16 one NVIDIA's driver 580 lists (VK_KHR_shader_bfloat16).
TargetDesc bf16Target() {
  TargetDesc t = coopTarget();
  t.name = "test (cooperative matrices of f16 and bf16)";
  t.coopMatrices.push_back({16, 16, 16, Type::bf16(), Type::bf16(), Type::f32(), Type::f32(), {}});
  return t;
}

// Known layouts (CoopMatrixShape::layouts) of the 16x16x16 shape: NVIDIA's as its driver
// keeps them (measured on the H200), or (`other`) a made-up one (each lane
// eight rows of one column), so that what the lowering does is seen to follow the data.
TargetDesc knownTarget(bool other = false) {
  TargetDesc t = coopTarget();
  t.name = other ? "test (cooperative matrices, made-up layouts)" : "test (cooperative matrices, NVIDIA layouts)";
  CoopLayouts l;
  if (!other) {
    l.acc = {{{0, 1}, {0, 8}, {8, 0}}, {{0, 2}, {0, 4}, {1, 0}, {2, 0}, {4, 0}}};
    l.a = l.acc;
    l.b = {{{1, 0}, {8, 0}, {0, 8}}, {{2, 0}, {4, 0}, {0, 1}, {0, 2}, {0, 4}}};
  } else {
    l.acc = {{{1, 0}, {2, 0}, {4, 0}}, {{0, 1}, {0, 2}, {0, 4}, {0, 8}, {8, 0}}};
    l.a = {{{0, 4}, {0, 1}, {8, 0}}, {{1, 0}, {2, 0}, {4, 0}, {0, 2}, {0, 8}}};
    l.b = {{{0, 1}, {0, 2}, {0, 4}}, {{1, 0}, {2, 0}, {4, 0}, {8, 0}, {0, 8}}};
  }
  t.coopMatrices[0].layouts = l;
  return t;
}

// `format`: A, B and D in f16 or bf16.
void runCase(int M, int N, int K, int BK, unsigned warps, bool initFromC = false, bool doubleInLoop = false,
             const TargetDesc &target = coopTarget(), FloatFormat format = FloatFormat::F16) {
  CAPTURE(target.sharedMemoryBytes);
  CAPTURE(int(target.coopShared));
  CAPTURE(M);
  CAPTURE(N);
  CAPTURE(K);
  CAPTURE(warps);
  CAPTURE(initFromC);
  CAPTURE(doubleInLoop);
  bool bf16 = format == FloatFormat::BF16;
  CAPTURE(bf16);
  Module thread = lowerOrFail(
      trident::test::coopMatmulKernel(M, N, K, BK, initFromC, doubleInLoop, bf16 ? "bf16" : "f16"), warps,
      target);
  if (bf16) // the tiles of A and B are bf16 matrices
    CHECK(print(thread).find("coopmat<16x16xbf16, a>") != std::string::npos);
  // One loop body; each subgroup issues its own tiles.
  CHECK(countOps(thread, "th.coop_mma") == (M / 16) * (N / 16) * (BK / 16) / int(warps));
  // (With known layouts a C becomes tiles by inserts into fills of zeros.)
  bool known = target.coopMatrices[0].layouts.has_value();
  CHECK(countOps(thread, "th.coop_fill") ==
        (initFromC || doubleInLoop ? known ? (M / 16) * (N / 16) / int(warps) : 0 : 1));
  std::mt19937 gen(uint32_t(M * 7 + N + warps));
  std::vector<uint16_t> a(size_t(M * K)), b(size_t(K * N));
  std::vector<int> ia(a.size()), ib(b.size());
  for (size_t i = 0; i < a.size(); ++i)
    a[i] = uint16_t(encodeFloat(ia[i] = int(gen() % 7) - 3, format));
  for (size_t i = 0; i < b.size(); ++i)
    b[i] = uint16_t(encodeFloat(ib[i] = int(gen() % 5) - 2, format));
  std::vector<float> c(size_t(M * N), 0.0f);
  std::vector<int> c0(c.size(), 0);
  if (initFromC)
    for (size_t i = 0; i < c.size(); ++i)
      c[i] = float(c0[i] = int(gen() % 9) - 4);
  std::vector<uint16_t> d(size_t(M * N), 0);
  ThreadSim sim(32);
  sim.setCoopMatrices(target.coopMatrices);
  simulate(thread, "mm", {ptrArg(a.data()), ptrArg(b.data()), ptrArg(c.data()), ptrArg(d.data())}, {1, 1, 1},
           {{a.data(), a.size() * 2}, {b.data(), b.size() * 2}, {c.data(), c.size() * 4}, {d.data(), d.size() * 2}},
           &sim);
  int bad = 0;
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      int sum = c0[size_t(i * N + j)];
      for (int k = 0; k < K; ++k) {
        if (doubleInLoop && k % BK == 0)
          sum *= 2;
        sum += ia[size_t(i * K + k)] * ib[size_t(k * N + j)];
      }
      size_t at = size_t(i * N + j);
      if (c[at] != float(sum) && bad < 6)
        MESSAGE("element (", i, ", ", j, "): expected ", sum, ", got ", c[at]);
      bad += c[at] != float(sum) || d[at] != uint16_t(encodeFloat(sum, format));
    }
  CHECK_MESSAGE(bad == 0, bad, " of ", M * N, " elements wrong");
}

} // namespace

TEST_CASE("dots on cooperative matrices: tiles through shared memory, accumulators carried, results stored") {
  runCase(64, 64, 64, 32, 4);  // 2 x 2 subgroups of 2 x 2 tiles: two rounds back
  runCase(32, 64, 32, 16, 2);  // subgroups along N
  runCase(128, 32, 32, 32, 4); // subgroups along M, 2 x 2 tiles
  runCase(16, 16, 48, 16, 1);  // one tile, three iterations
  runCase(64, 32, 32, 16, 4, true); // the accumulator starts as C: to the tiles through shared memory
  runCase(32, 64, 64, 16, 4, true, true); // doubled each iteration: tiles and back in every one
}

TEST_CASE("known layouts: the result's components read in registers, no shared round trip") {
  for (bool other : {false, true}) {
    CAPTURE(other);
    runCase(64, 64, 64, 32, 4, false, false, knownTarget(other));
    runCase(32, 64, 32, 16, 2, false, false, knownTarget(other));
    runCase(16, 16, 48, 16, 1, false, false, knownTarget(other));
    runCase(64, 32, 32, 16, 4, true, false, knownTarget(other)); // C to the tiles by inserts
    runCase(32, 64, 64, 16, 4, true, true, knownTarget(other));  // doubled: out and back in every iteration
    Module thread = lowerOrFail(trident::test::coopMatmulKernel(64, 64, 64, 32), 4, knownTarget(other));
    CHECK(countOps(thread, "th.coop_store") == 0);
    CHECK(countOps(thread, "th.coop_extract") == 64 * 64 / 4 / 32); // a subgroup's components of its tiles, once
  }
}

TEST_CASE("bf16 dots on bf16 cooperative matrices (VK_KHR_shader_bfloat16)") {
  // The operands' tiles are bf16 matrices loaded from the u16 words of shared memory; the
  // f32 accumulator's D is rounded to bf16 outside the matrices, by the exact integer path.
  runCase(64, 64, 64, 32, 4, false, false, bf16Target(), FloatFormat::BF16);
  runCase(32, 64, 64, 16, 4, true, true, bf16Target(), FloatFormat::BF16);
  // A target with f16 shapes only (no bfloat16 features) keeps multiply-adds for bf16.
  Module plain =
      lowerOrFail(trident::test::coopMatmulKernel(32, 32, 32, 16, false, false, "bf16"), 4, coopTarget());
  CHECK(countOps(plain, "th.coop_mma") == 0);
  runCase(64, 64, 64, 32, 4, false, false, bf16Target()); // f16 dots pick the f16 shape there
}

TEST_CASE("a dot no cooperative matrix fits keeps multiply-adds") {
  TargetDesc t = coopTarget();
  t.coopMatrices[0].resultType = t.coopMatrices[0].cType = Type::f16(); // f16 accumulators only
  Module thread = lowerOrFail(trident::test::coopMatmulKernel(32, 32, 32, 16), 4, t);
  CHECK(countOps(thread, "th.coop_mma") == 0);
}

TEST_CASE("dot operands tile by tile in shared memory where padded rows do not fit") {
  // 64x64x32: padded rows take 9.5 KiB, the operands 8 KiB (one buffer, two barriers an
  // iteration); then the tiled arrangement forced where padding fits (two buffers).
  TargetDesc small = coopTarget();
  small.sharedMemoryBytes = small.maxSharedMemoryBytes = 8 * 1024;
  runCase(64, 64, 64, 32, 4, false, false, small);
  runCase(64, 64, 64, 32, 2, false, false, small);
  TargetDesc tiled = coopTarget();
  tiled.coopShared = CoopSharedLayout::Tiled;
  runCase(64, 64, 64, 32, 4, false, false, tiled);
  runCase(128, 32, 32, 32, 4, false, false, tiled);
  runCase(32, 64, 64, 16, 4, true, true, tiled);
  Module thread = lowerOrFail(trident::test::coopMatmulKernel(64, 64, 64, 32), 4, small);
  CHECK(countOps(thread, "th.coop_load") > 0);
  CHECK(print(thread).find("stride = 16") != std::string::npos); // a tile's rows, one after another
}

namespace {

int countSubgroupBarriers(const Module &m) {
  int n = 0;
  m.op()->walk([&](Op *op) { n += op->is(OpCode::ThBarrier) && op->attr("scope").isString(); });
  return n;
}

} // namespace

TEST_CASE("conversions each subgroup does alone wait with subgroup barriers") {
  TargetDesc t = coopTarget();
  t.subgroupBarriers = true;
  // The same cases pass with their conversions' buffers on subgroup barriers (the
  // simulator reports a race where a warp reads what another wrote without the
  // program's barrier).
  runCase(64, 64, 64, 32, 4, false, false, t);
  runCase(128, 32, 32, 32, 4, false, false, t);
  runCase(32, 64, 64, 16, 4, true, true, t);
  Module thread = lowerOrFail(trident::test::coopMatmulKernel(64, 64, 64, 32), 4, t);
  CHECK(countSubgroupBarriers(thread) > 0); // the epilogue's rounds
  CHECK(countSubgroupBarriers(lowerOrFail(trident::test::coopMatmulKernel(64, 64, 64, 32), 4, coopTarget())) == 0);
  // C's tiles, 64 x 32 on 4 subgroups along M, from a blocked load whose warps hold rows
  // of another subgroup's part: that buffer is not a subgroup's alone.
  Module fromC = lowerOrFail(trident::test::coopMatmulKernel(64, 32, 32, 16, true), 4, t);
  int marked = 0, unmarked = 0;
  fromC.op()->walk([&](Op *op) {
    if (op->is(OpCode::ThSharedAlloc))
      (op->attr("subgroup").isInt() ? marked : unmarked) += 1;
  });
  CHECK(marked > 0);
  CHECK(unmarked > 0);
}

TEST_CASE("a buffer wrongly marked as a subgroup's is a race in the simulator") {
  // Every allocation of the plain case marked {subgroup = 1} and its barriers placed
  // again: the operand arrays, which all subgroups read, then wait for their warp only.
  TargetDesc t = coopTarget();
  t.coopPrefetch = CoopPrefetch::Off;
  Module thread = lowerOrFail(trident::test::coopMatmulKernel(64, 64, 64, 32), 4, t);
  std::vector<Op *> barriers;
  thread.op()->walk([&](Op *op) {
    if (op->is(OpCode::ThSharedAlloc))
      op->setAttr("subgroup", Attribute::integer(1));
    if (op->is(OpCode::ThBarrier))
      barriers.push_back(op);
  });
  for (Op *op : barriers)
    op->erase();
  Op *func = thread.lookupFunction("mm");
  REQUIRE(func);
  simt::insertBarriers(func);
  CHECK(countSubgroupBarriers(thread) > 0);
  std::vector<uint16_t> a(64 * 64, 0x3c00), b(64 * 64, 0x3c00), d(64 * 64, 0);
  std::vector<float> c(64 * 64, 0.0f);
  ThreadSim sim(32);
  for (auto [p, n] : {std::pair<void *, size_t>{a.data(), a.size() * 2}, {b.data(), b.size() * 2},
                      {c.data(), c.size() * 4}, {d.data(), d.size() * 2}})
    sim.addBuffer(p, n);
  std::string error;
  sim.run(thread, "mm", {ptrArg(a.data()), ptrArg(b.data()), ptrArg(c.data()), ptrArg(d.data())}, {1, 1, 1}, error);
  CHECK(error.find("race:") != std::string::npos);
}
