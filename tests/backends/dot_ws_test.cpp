// Warp specialization (sm_90): benchmarks/matmul_descriptor.py's kernel with
// `tl.range(..., warp_specialize=True)`, lowered to a producer warpgroup issuing the
// tensor copies and consumer warps running wgmma (th.warp_specialize), simulated with
// its regions interleaved against the interpreter; and schedules broken on purpose
// that the simulator must catch (a consumer reading a stage before its "full" phase,
// a producer overwriting one before its "empty" phase, a stage released early).
#include "DotHarness.h"
#include "SampleCases.h"

#include "../core/simt/ThreadSim.h"
#include "trident/backends/nvptx/CodeGen.h"
#include "trident/backends/nvptx/Target.h"
#include "trident/frontend/Frontend.h"
#include "trident/interp/Interpreter.h"
#include "trident/ir/Parser.h"
#include "trident/ir/Printer.h"
#include "trident/ir/Verifier.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <sstream>

using namespace trident;
using namespace trident::test;

namespace {

// benchmarks/matmul_descriptor.py's kernel (without its autotuning), the K loop a
// tl.range whose warp_specialize is WS.
const char *kMatmulDescriptor = R"(
import triton
import triton.language as tl

@triton.jit
def matmul_descriptor_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                             BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr):
    pid = tl.program_id(axis=0)
    tiles_m = tl.cdiv(M, BLOCK_M)
    tiles_n = tl.cdiv(N, BLOCK_N)
    in_group = GROUP_M * tiles_n
    first_m = (pid // in_group) * GROUP_M
    rows = min(tiles_m - first_m, GROUP_M)
    tile_m = first_m + (pid % in_group) % rows
    tile_n = (pid % in_group) // rows
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BLOCK_M, BLOCK_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1], block_shape=[BLOCK_K, BLOCK_N])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])
    row = tile_m * BLOCK_M
    col = tile_n * BLOCK_N
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    for k in tl.range(0, tl.cdiv(K, BLOCK_K), warp_specialize=WS):
        a = a_desc.load([row, k * BLOCK_K])
        b = b_desc.load([k * BLOCK_K, col])
        acc = tl.dot(a, b, acc)
    c_desc.store([row, col], acc.to(c_ptr.dtype.element_ty))
)";

struct WsCase {
  int m, n, k, bm, bn, bk, groupM;
  unsigned warps, stages;
  bool ws = true;
  // C - the column maxima of C's tile: a reduction across the consumer warps through
  // shared memory after the loop, with the consumers' own barriers (exact: no rounding).
  bool columnMaxima = false;
};

struct WsOutcome {
  int specialized = 0, tensorCopies = 0, wgmma = 0, consumerArrivals = 0, setmaxnreg = 0;
  int consumerBarriers = 0; // th.barrier in the consumers' region
  int64_t threads = 0;
};

// Exact in f16: k / 8 for k in [-8, 8]; every product a multiple of 1/64 and every sum
// here exact in f32, so both sides round the same value to f16.
uint16_t halfOf(int eighths) {
  if (eighths == 0)
    return 0;
  float v = std::fabs(float(eighths) / 8.0f);
  int e = 0;
  float m = std::frexp(v, &e); // v = m 2^e, m in [0.5, 1)
  auto mantissa = uint16_t(std::lround((m * 2 - 1) * 1024));
  return uint16_t((eighths < 0 ? 0x8000 : 0) | (e - 1 + 15) << 10 | mantissa);
}

WsOutcome runWs(const WsCase &c, const Mutation *mutation = nullptr) {
  std::string source = kMatmulDescriptor;
  source.replace(source.find("WS"), 2, c.ws ? "True" : "False");
  if (c.columnMaxima) {
    std::string store = "c_desc.store([row, col], acc.to(";
    source.replace(source.find(store), store.size(), "c_desc.store([row, col], (acc - tl.max(acc, axis=0)[None, :]).to(");
  }
  auto size = [](int v) { return std::string(v % 16 == 0 ? "i32:16" : "i32"); };
  std::string signature = "*fp16:16, *fp16:16, *fp16:16, " + size(c.m) + ", " + size(c.n) + ", " + size(c.k) + ", " +
                          std::to_string(c.bm) + ", " + std::to_string(c.bn) + ", " + std::to_string(c.bk) + ", " +
                          std::to_string(c.groupM);
  INFO(signature);
  Diagnostics diags;
  std::optional<Module> m = compileSource(source, "matmul_descriptor.py", "matmul_descriptor_kernel", signature, diags);
  INFO(diags.str());
  REQUIRE(m);

  std::mt19937 gen(7);
  std::uniform_int_distribution<int> dist(-8, 8);
  auto matrix = [&](size_t count) {
    std::vector<uint16_t> v(count);
    for (uint16_t &h : v)
      h = halfOf(dist(gen));
    return v;
  };
  std::vector<uint16_t> a = matrix(size_t(c.m) * c.k), b = matrix(size_t(c.k) * c.n);
  std::vector<uint16_t> ref(size_t(c.m) * c.n, 0x7e00), sim(ref); // NaN: every element must be written
  uint32_t programs = uint32_t(((c.m + c.bm - 1) / c.bm) * ((c.n + c.bn - 1) / c.bn));
  std::array<uint32_t, 3> grid = {programs, 1, 1};

  Interpreter interp;
  interp.addBuffer(a.data(), a.size() * 2);
  interp.addBuffer(b.data(), b.size() * 2);
  interp.addBuffer(ref.data(), ref.size() * 2);
  std::vector<KernelArg> args = {KernelArg::pointer(a.data(), Type::f16()), KernelArg::pointer(b.data(), Type::f16()),
                                 KernelArg::pointer(ref.data(), Type::f16()), KernelArg::i32(c.m),
                                 KernelArg::i32(c.n), KernelArg::i32(c.k)};
  bool interpreted = interp.run(*m, "matmul_descriptor_kernel", args, grid, diags);
  INFO(diags.str());
  REQUIRE(interpreted);

  TargetDesc target = *nvptx::targetDesc("sm_90");
  nvptx::PTXOptions options;
  options.kernel = "matmul_descriptor_kernel";
  options.numWarps = c.warps;
  options.numStages = c.stages;
  std::optional<Module> threadIR = nvptx::lowerToThreadIR(*m, target, options, diags);
  INFO(diags.str());
  REQUIRE(threadIR);
  WsOutcome outcome;
  outcome.threads = threadIR->functions()[0]->intAttr("num_threads");
  threadIR->op()->walk([&](Op *op) {
    outcome.specialized += op->is(OpCode::ThWarpSpecialize);
    outcome.tensorCopies += op->is(OpCode::ThTmaLoad);
    outcome.wgmma += op->is(OpCode::ThWgmma);
    outcome.consumerArrivals += op->is(OpCode::ThMbarrierArrive);
    outcome.setmaxnreg += op->is(OpCode::ThSetMaxNReg);
    outcome.consumerBarriers += op->is(OpCode::ThBarrier) && op->parentOp()->is(OpCode::ThWarpSpecialize);
  });
  if (mutation) {
    std::string text = mutation->edit(print(*threadIR));
    std::optional<Module> mutated = parseModule(text, "mutated.ttir", diags);
    INFO(diags.str());
    REQUIRE(mutated);
    threadIR = std::move(mutated);
  }
  simt::test::ThreadSim simulator(target.warpSize, target.matrixAtoms);
  simulator.addBuffer(a.data(), a.size() * 2);
  simulator.addBuffer(b.data(), b.size() * 2);
  simulator.addBuffer(sim.data(), sim.size() * 2);
  std::vector<uint64_t> simArgs = {reinterpret_cast<uint64_t>(a.data()), reinterpret_cast<uint64_t>(b.data()),
                                   reinterpret_cast<uint64_t>(sim.data()), uint32_t(c.m), uint32_t(c.n),
                                   uint32_t(c.k)};
  std::string error;
  bool ran = simulator.run(*threadIR, "matmul_descriptor_kernel", simArgs, grid, error);
  INFO(error);
  if (mutation) {
    CHECK(!ran);
    CHECK(error.find(mutation->expectError) != std::string::npos);
    return outcome;
  }
  REQUIRE(ran);
  size_t bad = 0, first = 0;
  for (size_t i = 0; i < ref.size(); ++i)
    if (ref[i] != sim[i] && !bad++)
      first = i;
  INFO(bad << " of " << ref.size() << " differ; first at " << first << ": interpreter 0x" << std::hex << ref[first]
            << ", simulator 0x" << sim[first]);
  CHECK(bad == 0);
  return outcome;
}

// The thread IR's lines, the `which`-th of those holding every needle (0: the first;
// -1: the last) changed by `edit`.
std::string editOne(const std::string &text, std::vector<std::string> needles, int which,
                    const std::function<std::string(std::string)> &edit) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  std::vector<size_t> hits;
  for (size_t i = 0; i < lines.size(); ++i)
    if (std::all_of(needles.begin(), needles.end(), [&](const std::string &n) { return lines[i].find(n) != std::string::npos; }))
      hits.push_back(i);
  REQUIRE(!hits.empty());
  size_t at = which < 0 ? hits.back() : hits.at(size_t(which));
  lines[at] = edit(lines[at]);
  std::string out;
  for (const std::string &line : lines)
    out += line + "\n";
  return out;
}

std::string dropped(std::string) { return std::string(); }

} // namespace

TEST_CASE("sm_90 warp specialization: the descriptor matmul on a producer warpgroup and consumer warps") {
  // 4 consumer warps (one warpgroup) and 8 (two), K over several ring laps; 3 and 4 stages.
  WsCase one{128, 256, 512, 64, 128, 64, 8, 4, 3};
  WsOutcome o = runWs(one);
  CHECK(o.specialized == 1);
  CHECK(o.threads == (4 + 4) * 32);
  CHECK(o.tensorCopies == 3); // the producer's loop: A's box, B's two 128-byte columns
  CHECK(o.consumerArrivals == 1);
  CHECK(o.setmaxnreg == 0); // 256 threads: 255 registers each already
  CHECK(o.wgmma > 0);
  WsCase two{256, 256, 384, 128, 256, 64, 8, 8, 4};
  WsOutcome t = runWs(two);
  CHECK(t.threads == (8 + 4) * 32);
  CHECK(t.setmaxnreg == 2); // 384: the producer gives registers to the consumers
  // The flag off: the same kernel as before, no specialization.
  WsCase off = one;
  off.ws = false;
  WsOutcome p = runWs(off);
  CHECK(p.specialized == 0);
  CHECK(p.threads == 4 * 32);
}

TEST_CASE("sm_90 warp specialization: an epilogue through shared memory, ordered by the consumers' barriers") {
  WsCase c{256, 256, 192, 128, 256, 64, 8, 8, 3};
  c.columnMaxima = true;
  WsOutcome o = runWs(c);
  CHECK(o.specialized == 1);
  CHECK(o.consumerBarriers >= 2); // after the loop, and the reduction's own
}

TEST_CASE("sm_90 warp specialization: ragged sizes (partial boxes at every edge, a K tail of zeros)") {
  // K = 200: three full 64-wide k boxes and one of 8 columns (the rest read as zeros);
  // M and N leave partial boxes that the store drops; fewer iterations than stages.
  WsCase ragged{200, 136, 200, 64, 128, 64, 4, 4, 3};
  CHECK(runWs(ragged).specialized == 1);
  WsCase shortLoop{64, 128, 72, 64, 128, 64, 1, 4, 4}; // two iterations, four stages
  CHECK(runWs(shortLoop).specialized == 1);
}

TEST_CASE("sm_90 warp specialization: the simulator fails broken producer/consumer protocols") {
  WsCase c{128, 128, 512, 64, 128, 64, 8, 4, 3};
  // The consumers' wait for a "full" phase gone (the last th.mbarrier_wait: the consumer
  // region comes second): th.wgmma reads a stage the copies have not reached.
  Mutation noFullWait{[](std::string t) { return editOne(t, {"th.mbarrier_wait"}, -1, dropped); },
                      "before any thread wrote it"};
  runWs(c, &noFullWait);
  // The producer's wait for an "empty" phase gone: it refills stage 0 while the copies of
  // its first lap are still unread.
  Mutation noEmptyWait{[](std::string t) { return editOne(t, {"th.mbarrier_wait"}, 0, dropped); },
                       "two asynchronous copies to"};
  runWs(c, &noEmptyWait);
  // The consumers hand a stage back before the th.wgmma reading it retired (their wait
  // leaves two groups in flight, not one): the producer's next copy into the stage is not
  // ordered after those reads.
  Mutation earlyRelease{[](std::string t) {
                          return editOne(t, {"th.wgmma_wait", "pending = 1"}, 0,
                                         [](std::string line) { return replaced(line, "pending = 1", "pending = 2"); });
                        },
                        "is overwritten after the other warp-specialized region read it"};
  runWs(c, &earlyRelease);
  // No arrival on "empty" at all: the producer waits for a phase that never completes
  // while the consumers wait for its copies.
  Mutation noRelease{[](std::string t) { return editOne(t, {"th.mbarrier_arrive"}, 0, dropped); }, "deadlock"};
  runWs(c, &noRelease);
}
