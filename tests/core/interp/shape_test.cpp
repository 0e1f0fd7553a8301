// Block construction and element movement: constants, ranges, splat, broadcast,
// expand_dims, reshape, trans, join, split, cat.

#include "InterpTestUtil.h"

using namespace interp_test;

namespace {

const bool kCovered = cover({"arith.constant", "tt.make_range", "tt.splat", "tt.broadcast", "tt.expand_dims",
                             "tt.reshape", "tt.trans", "tt.join", "tt.split", "tt.cat"});

std::vector<int32_t> run2d(Runner &r, int m, int n, const std::string &body, int total) {
  r.load(blockKernel(Type::i32(), m, n, body, Type::i32(), total));
  std::vector<int32_t> in(static_cast<size_t>(m * n)), out(static_cast<size_t>(total), -12345);
  for (size_t i = 0; i < in.size(); ++i)
    in[i] = static_cast<int32_t>(100 + i);
  r.buffer(in, "in");
  r.buffer(out, "out");
  r.runOk("k", {KernelArg::pointer(in.data(), Type::i32()), KernelArg::pointer(out.data(), Type::i32())});
  return out;
}

} // namespace

TEST_CASE("2-D offsets from expand_dims and broadcast load row-major") {
  (void)kCovered;
  Runner r;
  std::vector<int32_t> out = run2d(r, 4, 8, "    %y = arith.addi %x, %x : block<4x8xi32>", 32);
  for (int i = 0; i < 32; ++i)
    CHECK(out[i] == 2 * (100 + i));
  for (const char *op :
       {"tt.expand_dims", "tt.broadcast", "tt.reshape", "tt.make_range", "arith.constant", "tt.splat"})
    CHECK(r.executed(op));
}

TEST_CASE("tt.trans permutes dimensions") {
  Runner r;
  std::vector<int32_t> out = run2d(r, 4, 8, "    %y = tt.trans %x {order = [1, 0]} : block<8x4xi32>", 32);
  for (int j = 0; j < 8; ++j)
    for (int i = 0; i < 4; ++i)
      CHECK(out[j * 4 + i] == 100 + i * 8 + j);
  CHECK(r.executed("tt.trans"));

  // 3-D: view 4x8 as 2x2x8, order [2, 0, 1]: y[c][a][b] = x[a][b][c].
  Runner r3;
  out = run2d(r3, 4, 8,
              "    %x3 = tt.reshape %x : block<2x2x8xi32>\n"
              "    %y = tt.trans %x3 {order = [2, 0, 1]} : block<8x2x2xi32>",
              32);
  for (int c = 0; c < 8; ++c)
    for (int a = 0; a < 2; ++a)
      for (int b = 0; b < 2; ++b)
        CHECK(out[(c * 2 + a) * 2 + b] == 100 + (a * 2 + b) * 8 + c);
}

TEST_CASE("tt.broadcast repeats size-1 dimensions") {
  Runner r;
  // A row of 0..7 broadcast down plus a column of 0..3000 broadcast across.
  std::vector<int32_t> out = run2d(r, 4, 8,
                                   "    %r0 = tt.make_range {end = 8, start = 0} : block<8xi32>\n"
                                   "    %row = tt.expand_dims %r0 {axis = 0} : block<1x8xi32>\n"
                                   "    %brow = tt.broadcast %row : block<4x8xi32>\n"
                                   "    %r1 = tt.make_range {end = 4, start = 0} : block<4xi32>\n"
                                   "    %c = tt.expand_dims %r1 {axis = 1} : block<4x1xi32>\n"
                                   "    %cols = tt.broadcast %c : block<4x8xi32>\n"
                                   "    %k = arith.constant {value = 1000} : block<4x8xi32>\n"
                                   "    %ck = arith.muli %cols, %k : block<4x8xi32>\n"
                                   "    %y = arith.addi %brow, %ck : block<4x8xi32>",
                                   32);
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 8; ++j)
      CHECK(out[i * 8 + j] == 1000 * i + j);
}

TEST_CASE("tt.join interleaves, tt.split undoes it, tt.cat appends") {
  Runner r;
  std::vector<int32_t> out = run2d(r, 2, 8,
                                   "    %one = arith.constant {value = -1} : block<2x8xi32>\n"
                                   "    %m = arith.muli %x, %one : block<2x8xi32>\n"
                                   "    %y = tt.join %x, %m : block<2x8x2xi32>",
                                   32);
  for (int i = 0; i < 16; ++i) {
    CHECK(out[2 * i] == 100 + i);
    CHECK(out[2 * i + 1] == -(100 + i));
  }
  CHECK(r.executed("tt.join"));

  Runner r2;
  out = run2d(r2, 4, 8,
              "    %x3 = tt.reshape %x : block<4x4x2xi32>\n"
              "    %a, %b = tt.split %x3 : block<4x4xi32>, block<4x4xi32>\n"
              "    %y = tt.cat %b, %a : block<8x4xi32>",
              32);
  for (int i = 0; i < 16; ++i) {
    CHECK(out[i] == 100 + 2 * i + 1); // odd elements first (b), then even (a)
    CHECK(out[16 + i] == 100 + 2 * i);
  }
  CHECK(r2.executed("tt.split"));
  CHECK(r2.executed("tt.cat"));
}

TEST_CASE("constants of every kind and ranges that do not start at 0") {
  Runner r;
  r.load(R"(builtin.module ({
  tt.func {sym_name = "k"} ({
  ^(%oi: ptr<i32>, %of: ptr<f16>, %ob: ptr<i1>, %s: i32):
    %r = tt.make_range {end = 12, start = 4} : block<8xi32>
    %c = arith.constant {value = -3} : block<8xi32>
    %sum = arith.addi %r, %c : block<8xi32>
    %ss = tt.splat %s : block<8xi32>
    %v = arith.addi %sum, %ss : block<8xi32>
    %z = arith.constant {value = 0} : block<8xi32>
    %pi = tt.splat %oi : block<8xptr<i32>>
    %pi2 = tt.addptr %pi, %z : block<8xptr<i32>>
    %r0 = tt.make_range {end = 8, start = 0} : block<8xi32>
    %pi3 = tt.addptr %pi2, %r0 : block<8xptr<i32>>
    tt.store %pi3, %v
    %f = arith.constant {value = 0.1} : block<8xf16>
    %pf = tt.splat %of : block<8xptr<f16>>
    %pf2 = tt.addptr %pf, %r0 : block<8xptr<f16>>
    tt.store %pf2, %f
    %t = arith.constant {value = true} : block<8xi1>
    %pb = tt.splat %ob : block<8xptr<i1>>
    %pb2 = tt.addptr %pb, %r0 : block<8xptr<i1>>
    tt.store %pb2, %t
    tt.return
  })
}))");
  std::vector<int32_t> oi(8, 0);
  std::vector<uint16_t> of(8, 0);
  std::vector<uint8_t> ob(8, 0);
  r.buffer(oi, "oi");
  r.buffer(of, "of");
  r.buffer(ob, "ob");
  r.runOk("k", {KernelArg::pointer(oi.data(), Type::i32()), KernelArg::pointer(of.data(), Type::f16()),
                KernelArg::pointer(ob.data(), Type::i1()), KernelArg::i32(100)});
  for (int i = 0; i < 8; ++i) {
    CHECK(oi[i] == 4 + i - 3 + 100);
    CHECK(of[i] == 0x2e66); // 0.1 rounded to f16
    CHECK(ob[i] == 1);      // i1 is one byte in memory
  }
}
