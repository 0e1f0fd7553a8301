// Loop-carried accumulators whose initial value is a constant take the layout of what
// the loop body adds into them (a load's, a reduction's), so no iteration converts them
// through shared memory; the thread IR still computes what a float64 reference does.
#include "SimtTestUtil.h"

#include "trident/simt/LayoutAssignment.h"

#include <algorithm>
#include <cmath>
#include <limits>

using namespace trident;
using namespace trident::simt;
using namespace trident::simt::test;

namespace {

// How many ops named `name` lie inside an scf.for or scf.while.
int insideLoops(const Module &m, std::string_view name) {
  int n = 0;
  m.op()->walk([&](Op *op) {
    if (op->name() != name)
      return;
    for (Op *p = op->parentOp(); p; p = p->parentOp())
      if (p->is(OpCode::For) || p->is(OpCode::While)) {
        ++n;
        return;
      }
  });
  return n;
}

// The first op named `name` in `f`.
Op *findOp(Op *f, std::string_view name) {
  Op *found = nullptr;
  f->walk([&](Op *op) {
    if (!found && op->name() == name)
      found = op;
  });
  REQUIRE(found);
  return found;
}

constexpr int64_t kBlock = 2048;

// The layer-norm pattern: out[0] = sum of x[i]^2, out[1] = max of x[i] for i < n (a
// multiple of 16), two accumulators of a 2048-wide block carried by one loop, reduced
// after it. The loads are 4 wide; the zeros and -inf the accumulators start from have
// no layout of their own.
const char *kSumMax = R"(builtin.module ({
  tt.func {arg_divisibility = [16, 16, 16], sym_name = "sum_max"} ({
  ^(%x: ptr<f32>, %out: ptr<f32>, %n: i32):
    %r = tt.make_range {end = 2048, start = 0} : block<2048xi32>
    %xs = tt.splat %x : block<2048xptr<f32>>
    %ns = tt.splat %n : block<2048xi32>
    %zero = arith.constant {value = 0.0} : block<2048xf32>
    %ninf = arith.constant {value = -inf} : block<2048xf32>
    %other = arith.constant {value = 0.0} : block<2048xf32>
    %c0 = arith.constant {value = 0} : i32
    %cb = arith.constant {value = 2048} : i32
    %sum, %max = scf.for %c0, %n, %cb, %zero, %ninf : block<2048xf32>, block<2048xf32> ({
    ^(%off: i32, %s: block<2048xf32>, %m: block<2048xf32>):
      %offs = tt.splat %off : block<2048xi32>
      %cols = arith.addi %offs, %r : block<2048xi32>
      %mask = arith.cmpi %cols, %ns {predicate = "slt"} : block<2048xi1>
      %p = tt.addptr %xs, %cols : block<2048xptr<f32>>
      %v = tt.load %p, %mask, %other : block<2048xf32>
      %sq = arith.mulf %v, %v : block<2048xf32>
      %s2 = arith.addf %s, %sq : block<2048xf32>
      %vm = arith.select %mask, %v, %ninf : block<2048xf32>
      %m2 = arith.maxnumf %m, %vm : block<2048xf32>
      scf.yield %s2, %m2
    })
    %total = tt.reduce %sum {axis = 0} : f32 ({
    ^(%a: f32, %b: f32):
      %t = arith.addf %a, %b : f32
      tt.reduce.return %t
    })
    %top = tt.reduce %max {axis = 0} : f32 ({
    ^(%a: f32, %b: f32):
      %t = arith.maxnumf %a, %b : f32
      tt.reduce.return %t
    })
    tt.store %out, %total
    %c1 = arith.constant {value = 1} : i32
    %out1 = tt.addptr %out, %c1 : ptr<f32>
    tt.store %out1, %top
    tt.return
  })
})
)";

// The attention pattern: the row maxima and row sums of K tiles of 32x64, accumulated
// from reductions inside the loop into 32-element blocks that start as constants;
// out[0..32) = maxima, out[32..64) = sums.
const char *kRowStats = R"(builtin.module ({
  tt.func {arg_divisibility = [16, 16, 1], sym_name = "row_stats"} ({
  ^(%x: ptr<f32>, %out: ptr<f32>, %K: i32):
    %r = tt.make_range {end = 32, start = 0} : block<32xi32>
    %c = tt.make_range {end = 64, start = 0} : block<64xi32>
    %r2 = tt.expand_dims %r {axis = 1} : block<32x1xi32>
    %c2 = tt.expand_dims %c {axis = 0} : block<1x64xi32>
    %w = arith.constant {value = 64} : block<32x1xi32>
    %ro = arith.muli %r2, %w : block<32x1xi32>
    %rob = tt.broadcast %ro : block<32x64xi32>
    %cob = tt.broadcast %c2 : block<32x64xi32>
    %off = arith.addi %rob, %cob : block<32x64xi32>
    %xs = tt.splat %x : block<32x64xptr<f32>>
    %ninf = arith.constant {value = -inf} : block<32xf32>
    %zero = arith.constant {value = 0.0} : block<32xf32>
    %c0 = arith.constant {value = 0} : i32
    %c1 = arith.constant {value = 1} : i32
    %tile = arith.constant {value = 2048} : i32
    %mx, %sm = scf.for %c0, %K, %c1, %ninf, %zero : block<32xf32>, block<32xf32> ({
    ^(%k: i32, %m: block<32xf32>, %s: block<32xf32>):
      %base = arith.muli %k, %tile : i32
      %bs = tt.splat %base : block<32x64xi32>
      %o = arith.addi %bs, %off : block<32x64xi32>
      %p = tt.addptr %xs, %o : block<32x64xptr<f32>>
      %v = tt.load %p : block<32x64xf32>
      %rm = tt.reduce %v {axis = 1} : block<32xf32> ({
      ^(%a: f32, %b: f32):
        %t = arith.maxnumf %a, %b : f32
        tt.reduce.return %t
      })
      %rs = tt.reduce %v {axis = 1} : block<32xf32> ({
      ^(%a: f32, %b: f32):
        %t = arith.addf %a, %b : f32
        tt.reduce.return %t
      })
      %m2 = arith.maxnumf %m, %rm : block<32xf32>
      %s2 = arith.addf %s, %rs : block<32xf32>
      scf.yield %m2, %s2
    })
    %os = tt.splat %out : block<32xptr<f32>>
    %op = tt.addptr %os, %r : block<32xptr<f32>>
    tt.store %op, %mx
    %c32 = arith.constant {value = 32} : i32
    %out2 = tt.addptr %out, %c32 : ptr<f32>
    %os2 = tt.splat %out2 : block<32xptr<f32>>
    %op2 = tt.addptr %os2, %r : block<32xptr<f32>>
    tt.store %op2, %sm
    tt.return
  })
})
)";

// scf.while and scf.if: out[i] = the sum of x[k * 1024 + i] over the even k < K; the
// accumulator starts as zeros, and the if yields zeros on odd k (its first branch) or
// the loaded tile.
const char *kEvenTiles = R"(builtin.module ({
  tt.func {arg_divisibility = [16, 16, 1], sym_name = "even_tiles"} ({
  ^(%x: ptr<f32>, %out: ptr<f32>, %K: i32):
    %r = tt.make_range {end = 1024, start = 0} : block<1024xi32>
    %xs = tt.splat %x : block<1024xptr<f32>>
    %zero = arith.constant {value = 0.0} : block<1024xf32>
    %c0 = arith.constant {value = 0} : i32
    %c1 = arith.constant {value = 1} : i32
    %cb = arith.constant {value = 1024} : i32
    %w0, %w1 = scf.while %c0, %zero : i32, block<1024xf32> ({
    ^(%i: i32, %a: block<1024xf32>):
      %go = arith.cmpi %i, %K {predicate = "slt"} : i1
      scf.condition %go, %i, %a
    }, {
    ^(%i: i32, %a: block<1024xf32>):
      %base = arith.muli %i, %cb : i32
      %bs = tt.splat %base : block<1024xi32>
      %o = arith.addi %bs, %r : block<1024xi32>
      %p = tt.addptr %xs, %o : block<1024xptr<f32>>
      %v = tt.load %p : block<1024xf32>
      %par = arith.andi %i, %c1 : i32
      %odd = arith.cmpi %par, %c0 {predicate = "ne"} : i1
      %t = scf.if %odd : block<1024xf32> ({
        scf.yield %zero
      }, {
        scf.yield %v
      })
      %n = arith.addf %a, %t : block<1024xf32>
      %j = arith.addi %i, %c1 : i32
      scf.yield %j, %n
    })
    %os = tt.splat %out : block<1024xptr<f32>>
    %op = tt.addptr %os, %r : block<1024xptr<f32>>
    tt.store %op, %w1
    tt.return
  })
})
)";

} // namespace

TEST_CASE("layout assignment: a constant-initialized accumulator takes the layout of the load added into it") {
  Module m = parseOrFail(kSumMax);
  Op *f = m.functions()[0];
  LayoutAssignment a = assignLayouts(f, testTarget(), 4);
  Op *loop = findOp(f, "scf.for");
  LinearLayout access = a.accessLayout(findOp(f, "tt.load"));
  CHECK(a.vectorElements(findOp(f, "tt.load")) == 4);
  for (unsigned i = 1; i <= 2; ++i) {
    INFO("iter arg " << i);
    CHECK(a.layout(loop->region()->argument(i)) == access);
    CHECK(a.layout(loop->result(i - 1)) == access);
    CHECK(a.layout(loop->region()->terminator()->operand(i - 1)) == access);
  }
}

TEST_CASE("layout assignment: an scf.if result takes the layout of the branch that does not yield a constant") {
  Module m = parseOrFail(kEvenTiles);
  Op *f = m.functions()[0];
  LayoutAssignment a = assignLayouts(f, testTarget(), 4);
  LinearLayout access = a.accessLayout(findOp(f, "tt.load"));
  CHECK(a.layout(findOp(f, "scf.if")->result()) == access);
  Op *loop = findOp(f, "scf.while");
  CHECK(a.layout(loop->region(0)->argument(1)) == access);
  CHECK(a.layout(loop->region(1)->argument(1)) == access);
}

TEST_CASE("a loop-carried sum and max of loaded blocks: no conversion inside the loop") {
  for (unsigned warps : {4u, 8u}) {
    INFO("num_warps = " << warps);
    Module m = lowerOrFail(kSumMax, warps);
    CHECK(insideLoops(m, "th.shared_alloc") == 0);
    CHECK(insideLoops(m, "th.store_shared") == 0);
    CHECK(insideLoops(m, "th.barrier") == 0);
    for (int32_t n : {3 * int32_t(kBlock), 5008, 16}) {
      INFO("n = " << n);
      std::vector<float> x = randomFloats(3 * kBlock, 11 + n, -3.f, 3.f);
      std::vector<float> out(2, NAN);
      simulate(m, "sum_max", {ptrArg(x.data()), ptrArg(out.data()), i32Arg(n)}, {1, 1, 1},
               {{x.data(), x.size() * 4}, {out.data(), 8}});
      double sum = 0, max = -std::numeric_limits<double>::infinity();
      for (int32_t i = 0; i < n; ++i) {
        sum += double(x[i]) * x[i];
        max = std::max(max, double(x[i]));
      }
      CHECK(std::abs(out[0] - sum) <= 1e-5 * sum + 1e-4);
      CHECK(out[1] == float(max));
    }
  }
}

TEST_CASE("row maxima and sums accumulated from reductions: no conversion inside the loop") {
  for (unsigned warps : {1u, 4u}) {
    INFO("num_warps = " << warps);
    Module m = lowerOrFail(kRowStats, warps);
    CHECK(insideLoops(m, "th.shared_alloc") == 0);
    CHECK(insideLoops(m, "th.barrier") == 0);
    const int32_t K = 3;
    std::vector<float> x = randomFloats(size_t(K) * 2048, 5 + warps, -2.f, 2.f);
    std::vector<float> out(64, NAN);
    simulate(m, "row_stats", {ptrArg(x.data()), ptrArg(out.data()), i32Arg(K)}, {1, 1, 1},
             {{x.data(), x.size() * 4}, {out.data(), 256}});
    int bad = 0;
    for (int i = 0; i < 32; ++i) {
      double mx = -std::numeric_limits<double>::infinity(), sm = 0;
      for (int k = 0; k < K; ++k)
        for (int j = 0; j < 64; ++j) {
          double v = x[size_t(k) * 2048 + i * 64 + j];
          mx = std::max(mx, v);
          sm += v;
        }
      bad += out[i] != float(mx);
      bad += std::abs(out[32 + i] - sm) > 1e-4 * std::abs(sm) + 1e-4;
    }
    CHECK(bad == 0);
  }
}

TEST_CASE("scf.while carrying zeros, an scf.if yielding zeros or a load: no conversion inside the loop") {
  for (unsigned warps : {2u, 4u}) {
    INFO("num_warps = " << warps);
    Module m = lowerOrFail(kEvenTiles, warps);
    CHECK(insideLoops(m, "th.shared_alloc") == 0);
    CHECK(insideLoops(m, "th.barrier") == 0);
    for (int32_t K : {0, 1, 4}) {
      INFO("K = " << K);
      std::vector<float> x = randomFloats(4 * 1024, 17 + K);
      std::vector<float> out(1024, NAN);
      simulate(m, "even_tiles", {ptrArg(x.data()), ptrArg(out.data()), i32Arg(K)}, {1, 1, 1},
               {{x.data(), x.size() * 4}, {out.data(), out.size() * 4}});
      int bad = 0;
      for (int i = 0; i < 1024; ++i) {
        double want = 0;
        for (int k = 0; k < K; k += 2)
          want += x[size_t(k) * 1024 + i];
        bad += std::abs(out[i] - want) > 1e-5;
      }
      CHECK(bad == 0);
    }
  }
}
