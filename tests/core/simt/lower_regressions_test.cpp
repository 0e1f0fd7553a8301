// Kernels that once broke the lowering (found by the random-kernel tests, docs/testing.md),
// run in the thread-IR simulator against references computed here.
#include "SimtTestUtil.h"

#include <algorithm>

using namespace trident;
using namespace trident::simt::test;

// A reverse scan of two operands (a sum, and "the first nonzero in scan order", which is
// associative but not commutative) along axis 1 of 8x4 blocks. Result 0 is stored, so
// its layout is fixed by the store; result 1 reaches memory only through tt.trans and two
// reductions, so it gets its layout from the forward pass. The forward pass once skipped
// every result of an op whose first result was fixed: result 1 had no layout and
// tt.trans read past the end of an empty shape.
static const char *kScanPairTrans = R"(builtin.module ({
  tt.func {arg_divisibility = [16, 16, 16, 16, 16], sym_name = "scan_pair"} ({
  ^(%x: ptr<i32>, %y: ptr<i32>, %o0: ptr<i32>, %o1: ptr<i32>, %o2: ptr<i32>):
    %r = tt.make_range {end = 8, start = 0} : block<8xi32>
    %c = tt.make_range {end = 4, start = 0} : block<4xi32>
    %r2 = tt.expand_dims %r {axis = 1} : block<8x1xi32>
    %c2 = tt.expand_dims %c {axis = 0} : block<1x4xi32>
    %four = arith.constant {value = 4} : block<8x1xi32>
    %ro = arith.muli %r2, %four : block<8x1xi32>
    %rob = tt.broadcast %ro : block<8x4xi32>
    %cob = tt.broadcast %c2 : block<8x4xi32>
    %off = arith.addi %rob, %cob : block<8x4xi32>
    %xs = tt.splat %x : block<8x4xptr<i32>>
    %xp = tt.addptr %xs, %off : block<8x4xptr<i32>>
    %xv = tt.load %xp : block<8x4xi32>
    %ys = tt.splat %y : block<8x4xptr<i32>>
    %yp = tt.addptr %ys, %off : block<8x4xptr<i32>>
    %yv = tt.load %yp : block<8x4xi32>
    %s0, %s1 = tt.scan %xv, %yv {axis = 1, reverse = true} : block<8x4xi32>, block<8x4xi32> ({
    ^(%a0: i32, %a1: i32, %b0: i32, %b1: i32):
      %z = arith.constant {value = 0} : i32
      %nz = arith.cmpi %a1, %z {predicate = "ne"} : i1
      %first = arith.select %nz, %a1, %b1 : i32
      %sum = arith.addi %a0, %b0 : i32
      tt.scan.return %sum, %first
    })
    %o0s = tt.splat %o0 : block<8x4xptr<i32>>
    %o0p = tt.addptr %o0s, %off : block<8x4xptr<i32>>
    tt.store %o0p, %s0
    %t = tt.trans %s1 {order = [1, 0]} : block<4x8xi32>
    %mx = tt.reduce %t {axis = 1} : block<4xi32> ({
    ^(%p: i32, %q: i32):
      %m = arith.maxsi %p, %q : i32
      tt.reduce.return %m
    })
    %sm = tt.reduce %t {axis = 1} : block<4xi32> ({
    ^(%p2: i32, %q2: i32):
      %s = arith.addi %p2, %q2 : i32
      tt.reduce.return %s
    })
    %o1s = tt.splat %o1 : block<4xptr<i32>>
    %o1p = tt.addptr %o1s, %c : block<4xptr<i32>>
    tt.store %o1p, %mx
    %o2s = tt.splat %o2 : block<4xptr<i32>>
    %o2p = tt.addptr %o2s, %c : block<4xptr<i32>>
    tt.store %o2p, %sm
    tt.return
  })
})
)";

TEST_CASE("a reverse two-operand scan whose second result only reaches a trans and reductions") {
  for (unsigned warps : {1u, 4u}) {
    INFO("num_warps = " << warps);
    Module m = lowerOrFail(kScanPairTrans, warps);
    std::mt19937 gen(warps);
    std::uniform_int_distribution<int32_t> value(-50, 50), coin(0, 2);
    std::vector<int32_t> x(32), y(32), o0(32, -7), o1(4, -7), o2(4, -7);
    for (int i = 0; i < 32; ++i) {
      x[i] = value(gen);
      y[i] = coin(gen) ? 0 : value(gen); // many zeros: "first nonzero" looks far
    }
    simulate(m, "scan_pair", {ptrArg(x.data()), ptrArg(y.data()), ptrArg(o0.data()), ptrArg(o1.data()), ptrArg(o2.data())},
             {1, 1, 1},
             {{x.data(), 128}, {y.data(), 128}, {o0.data(), 128}, {o1.data(), 16}, {o2.data(), 16}});
    // The reference: scan from the end of each row; the accumulated value is the left operand.
    int32_t first[8][4];
    int bad = 0;
    for (int i = 0; i < 8; ++i) {
      int32_t sum = 0, f = 0;
      for (int j = 3; j >= 0; --j) {
        sum += x[i * 4 + j];
        f = j == 3 ? y[i * 4 + j] : (f != 0 ? f : y[i * 4 + j]);
        first[i][j] = f;
        bad += o0[i * 4 + j] != sum;
      }
    }
    CHECK(bad == 0);
    for (int j = 0; j < 4; ++j) {
      int32_t mx = first[0][j], sm = 0;
      for (int i = 0; i < 8; ++i)
        mx = std::max(mx, first[i][j]), sm += first[i][j];
      CHECK(o1[j] == mx);
      CHECK(o2[j] == sm);
    }
  }
}

// A select on blocks with a scalar condition computed from a kernel argument. The
// condition was converted to the block's layout like a block: by lowering its
// definition again, down to the argument, which has none (a crash).
static const char *kScalarSelect = R"(builtin.module ({
  tt.func {arg_divisibility = [16, 16, 1], sym_name = "scalar_select"} ({
  ^(%x: ptr<f32>, %out: ptr<f32>, %n: i32):
    %r = tt.make_range {end = 256, start = 0} : block<256xi32>
    %xs = tt.splat %x : block<256xptr<f32>>
    %xp = tt.addptr %xs, %r : block<256xptr<f32>>
    %xv = tt.load %xp : block<256xf32>
    %five = arith.constant {value = 5} : i32
    %cond = arith.cmpi %n, %five {predicate = "sgt"} : i1
    %two = arith.constant {value = 2.0} : block<256xf32>
    %dbl = arith.mulf %xv, %two : block<256xf32>
    %sel = arith.select %cond, %dbl, %xv : block<256xf32>
    %os = tt.splat %out : block<256xptr<f32>>
    %op = tt.addptr %os, %r : block<256xptr<f32>>
    tt.store %op, %sel
    tt.return
  })
})
)";

TEST_CASE("a select on blocks with a scalar condition from an argument") {
  Module m = lowerOrFail(kScalarSelect, 4);
  std::vector<float> x = randomFloats(256, 3);
  for (int32_t n : {3, 9}) {
    INFO("n = " << n);
    std::vector<float> out(256, NAN);
    simulate(m, "scalar_select", {ptrArg(x.data()), ptrArg(out.data()), i32Arg(n)}, {1, 1, 1},
             {{x.data(), 1024}, {out.data(), 1024}});
    int bad = 0;
    for (int i = 0; i < 256; ++i)
      bad += out[i] != (n > 5 ? x[i] * 2 : x[i]);
    CHECK(bad == 0);
  }
}
