// Values of two shapes meet: a row maximum of a 64x32 tile scales a 64x64 tile (the
// two shapes' layouts spread rows over warps differently).
#include "SimtTestUtil.h"

#include <cmath>

using namespace trident;
using namespace trident::simt::test;

// out[i][j] = x[i][j] * max_k 2 y[i][k]   x: 64x64, y: 64x32
static const char *kMixed = R"(builtin.module ({
  tt.func {arg_divisibility = [16, 16, 16], sym_name = "mixed"} ({
  ^(%x: ptr<f32>, %y: ptr<f32>, %out: ptr<f32>):
    %ri = tt.make_range {end = 64, start = 0} : block<64xi32>
    %ci = tt.make_range {end = 64, start = 0} : block<64xi32>
    %ki = tt.make_range {end = 32, start = 0} : block<32xi32>
    %r2 = tt.expand_dims %ri {axis = 1} : block<64x1xi32>
    %c2 = tt.expand_dims %ci {axis = 0} : block<1x64xi32>
    %k2 = tt.expand_dims %ki {axis = 0} : block<1x32xi32>
    %s64 = arith.constant {value = 64} : block<64x1xi32>
    %s32 = arith.constant {value = 32} : block<64x1xi32>
    %ro = arith.muli %r2, %s64 : block<64x1xi32>
    %ro32 = arith.muli %r2, %s32 : block<64x1xi32>
    %rob = tt.broadcast %ro : block<64x64xi32>
    %cob = tt.broadcast %c2 : block<64x64xi32>
    %off = arith.addi %rob, %cob : block<64x64xi32>
    %rob2 = tt.broadcast %ro32 : block<64x32xi32>
    %kob = tt.broadcast %k2 : block<64x32xi32>
    %off2 = arith.addi %rob2, %kob : block<64x32xi32>
    %ys = tt.splat %y : block<64x32xptr<f32>>
    %yp = tt.addptr %ys, %off2 : block<64x32xptr<f32>>
    %yv = tt.load %yp : block<64x32xf32>
    %two = arith.constant {value = 2.0} : block<64x32xf32>
    %qk = arith.mulf %yv, %two : block<64x32xf32>
    %m = tt.reduce %qk {axis = 1} : block<64xf32> ({
    ^(%a: f32, %b: f32):
      %s = arith.maxnumf %a, %b : f32
      tt.reduce.return %s
    })
    %me = tt.expand_dims %m {axis = 1} : block<64x1xf32>
    %mb = tt.broadcast %me : block<64x64xf32>
    %xs = tt.splat %x : block<64x64xptr<f32>>
    %xp = tt.addptr %xs, %off : block<64x64xptr<f32>>
    %zero = arith.constant {value = 0.0} : block<64x64xf32>
    %xv = tt.load %xp : block<64x64xf32>
    %prod = arith.mulf %xv, %mb : block<64x64xf32>
    %os = tt.splat %out : block<64x64xptr<f32>>
    %op = tt.addptr %os, %off : block<64x64xptr<f32>>
    tt.store %op, %prod
    tt.return
  })
})
)";
TEST_CASE("a reduction of one shape broadcast into another") {
  for (unsigned warps : {1u, 4u}) {
    Module m = lowerOrFail(kMixed, warps);
    std::vector<float> x = randomFloats(64 * 64, 1), y = randomFloats(64 * 32, 2), out(64 * 64, NAN);
    simulate(m, "mixed", {ptrArg(x.data()), ptrArg(y.data()), ptrArg(out.data())}, {1, 1, 1},
             {{x.data(), x.size() * 4}, {y.data(), y.size() * 4}, {out.data(), out.size() * 4}});
    int bad = 0;
    for (int i = 0; i < 64; ++i) {
      float mx = -INFINITY;
      for (int k = 0; k < 32; ++k)
        mx = std::fmax(mx, y[i * 32 + k] * 2);
      for (int j = 0; j < 64; ++j)
        bad += out[i * 64 + j] != x[i * 64 + j] * mx;
    }
    CHECK(bad == 0);
  }
}
