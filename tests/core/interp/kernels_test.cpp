// Whole kernels as the frontend would emit them, each run over a grid and compared
// with float64 references on fresh random inputs: vector add, row-wise softmax, a
// tiled matmul with a K loop, argmax with a two-input reduction, cumulative sums, and
// an atomic histogram; and one kernel built with the Builder instead of parsed.
//
// TRIDENT_INTERP_LARGE=1 runs the vector add on 1M elements and the matmul at
// 256x256x256 and prints the time they take.

#include "InterpTestUtil.h"
#include "trident/ir/Builder.h"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>

using namespace interp_test;

namespace {

bool large() { return std::getenv("TRIDENT_INTERP_LARGE") != nullptr; }

// Replaces every {KEY} in `text`.
std::string subst(std::string text, const std::map<std::string, std::string> &values) {
  for (const auto &[key, value] : values) {
    std::string pattern = "{" + key + "}";
    for (size_t at = text.find(pattern); at != std::string::npos; at = text.find(pattern, at + value.size()))
      text.replace(at, pattern.size(), value);
  }
  return text;
}

double seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

const char *kVectorAdd = R"(builtin.module ({
  tt.func {sym_name = "add_kernel"} ({
  ^(%x: ptr<f32>, %y: ptr<f32>, %out: ptr<f32>, %n: i32):
    %pid = tt.get_program_id {axis = 0} : i32 loc("add.py":5:11)
    %bs = arith.constant {value = 1024} : i32
    %start = arith.muli %pid, %bs : i32
    %r = tt.make_range {end = 1024, start = 0} : block<1024xi32>
    %s = tt.splat %start : block<1024xi32>
    %offs = arith.addi %s, %r : block<1024xi32>
    %ns = tt.splat %n : block<1024xi32>
    %mask = arith.cmpi %offs, %ns {predicate = "slt"} : block<1024xi1>
    %px = tt.splat %x : block<1024xptr<f32>>
    %px2 = tt.addptr %px, %offs : block<1024xptr<f32>>
    %a = tt.load %px2, %mask : block<1024xf32>
    %py = tt.splat %y : block<1024xptr<f32>>
    %py2 = tt.addptr %py, %offs : block<1024xptr<f32>>
    %b = tt.load %py2, %mask : block<1024xf32>
    %sum = arith.addf %a, %b : block<1024xf32>
    %po = tt.splat %out : block<1024xptr<f32>>
    %po2 = tt.addptr %po, %offs : block<1024xptr<f32>>
    tt.store %po2, %sum, %mask
    tt.return
  })
}))";

} // namespace

TEST_CASE("kernel: vector add over a 1-D grid with a masked tail") {
  const int n = large() ? 1 << 20 : 10000 + 17;
  for (uint32_t seed : seeds()) {
    INFO("seed " << seed);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> d(-100, 100);
    std::vector<float> x(n), y(n), out(n, NAN);
    for (int i = 0; i < n; ++i) {
      x[i] = d(rng);
      y[i] = d(rng);
    }
    Runner r;
    r.load(kVectorAdd);
    r.buffer(x, "x");
    r.buffer(y, "y");
    r.buffer(out, "out");
    auto t0 = std::chrono::steady_clock::now();
    r.runOk("add_kernel",
            {KernelArg::pointer(x.data()), KernelArg::pointer(y.data()), KernelArg::pointer(out.data()),
             KernelArg::i32(n)},
            {uint32_t((n + 1023) / 1024), 1, 1});
    if (large())
      std::printf("vector add of %d elements: %.3f s\n", n, seconds(t0));
    for (int i = 0; i < n; ++i) {
      double exact = double(x[i]) + double(y[i]);
      CHECK(std::fabs(out[i] - exact) <= 1e-5 * std::fabs(exact) + 1e-30);
      if (out[i] != x[i] + y[i]) // one rounding in f32; keep the CHECK count small
        CHECK(out[i] == x[i] + y[i]);
    }
  }
}

TEST_CASE("kernel: row-wise softmax with -inf padding") {
  const char *kSoftmax = R"(builtin.module ({
  tt.func {sym_name = "softmax"} ({
  ^(%x: ptr<f32>, %y: ptr<f32>, %cols: i32, %stride: i32):
    %row = tt.get_program_id {axis = 0} : i32
    %start = arith.muli %row, %stride : i32
    %px = tt.addptr %x, %start : ptr<f32>
    %py = tt.addptr %y, %start : ptr<f32>
    %r = tt.make_range {end = 64, start = 0} : block<64xi32>
    %n = tt.splat %cols : block<64xi32>
    %mask = arith.cmpi %r, %n {predicate = "slt"} : block<64xi1>
    %pxs = tt.splat %px : block<64xptr<f32>>
    %pxr = tt.addptr %pxs, %r : block<64xptr<f32>>
    %ninf = arith.constant {value = -inf} : block<64xf32>
    %v = tt.load %pxr, %mask, %ninf : block<64xf32>
    %m = tt.reduce %v {axis = 0} : f32 ({
    ^(%a: f32, %b: f32):
      %mx = arith.maximumf %a, %b : f32
      tt.reduce.return %mx
    })
    %ms = tt.splat %m : block<64xf32>
    %d = arith.subf %v, %ms : block<64xf32>
    %e = math.exp %d : block<64xf32>
    %s = tt.reduce %e {axis = 0} : f32 ({
    ^(%a: f32, %b: f32):
      %sum = arith.addf %a, %b : f32
      tt.reduce.return %sum
    })
    %ss = tt.splat %s : block<64xf32>
    %o = arith.divf %e, %ss : block<64xf32>
    %pys = tt.splat %py : block<64xptr<f32>>
    %pyr = tt.addptr %pys, %r : block<64xptr<f32>>
    tt.store %pyr, %o, %mask
    tt.return
  })
}))";
  const int rows = 37, cols = 50, stride = 53;
  for (uint32_t seed : seeds()) {
    INFO("seed " << seed);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> d(-8, 8);
    std::vector<float> x(rows * stride), y(rows * stride, 12345.f);
    for (float &v : x)
      v = d(rng);
    Runner r;
    r.load(kSoftmax);
    r.buffer(x, "x");
    r.buffer(y, "y");
    r.runOk("softmax",
            {KernelArg::pointer(x.data()), KernelArg::pointer(y.data()), KernelArg::i32(cols),
             KernelArg::i32(stride)},
            {rows, 1, 1});
    for (int i = 0; i < rows; ++i) {
      double mx = -INFINITY, sum = 0;
      for (int j = 0; j < cols; ++j)
        mx = std::max(mx, double(x[i * stride + j]));
      for (int j = 0; j < cols; ++j)
        sum += std::exp(double(x[i * stride + j]) - mx);
      for (int j = 0; j < cols; ++j) {
        double expected = std::exp(double(x[i * stride + j]) - mx) / sum;
        CHECK(std::fabs(y[i * stride + j] - expected) <= 1e-6 * expected + 1e-9);
      }
      for (int j = cols; j < stride; ++j)
        CHECK(y[i * stride + j] == 12345.f); // padding untouched
    }
  }
}

namespace {

// C = A @ B with A: MxK, B: KxN of {T}, C of f32; {BM}x{BN} tiles, a K loop of {BK}.
const char *kMatmul = R"(builtin.module ({
  tt.func {sym_name = "matmul"} ({
  ^(%a: ptr<{T}>, %b: ptr<{T}>, %c: ptr<f32>, %M: i32, %N: i32, %K: i32):
    %pm = tt.get_program_id {axis = 0} : i32
    %pn = tt.get_program_id {axis = 1} : i32
    %bm = arith.constant {value = {BM}} : i32
    %bn = arith.constant {value = {BN}} : i32
    %bk = arith.constant {value = {BK}} : i32
    %m0 = arith.muli %pm, %bm : i32
    %n0 = arith.muli %pn, %bn : i32
    %arm = tt.make_range {end = {BM}, start = 0} : block<{BM}xi32>
    %arn = tt.make_range {end = {BN}, start = 0} : block<{BN}xi32>
    %ark = tt.make_range {end = {BK}, start = 0} : block<{BK}xi32>
    %m0s = tt.splat %m0 : block<{BM}xi32>
    %rm = arith.addi %m0s, %arm : block<{BM}xi32>
    %n0s = tt.splat %n0 : block<{BN}xi32>
    %rn = arith.addi %n0s, %arn : block<{BN}xi32>
    %rm2 = tt.expand_dims %rm {axis = 1} : block<{BM}x1xi32>
    %rn2 = tt.expand_dims %rn {axis = 0} : block<1x{BN}xi32>
    %Ka = tt.splat %K : block<{BM}x1xi32>
    %arow = arith.muli %rm2, %Ka : block<{BM}x1xi32>
    %arowb = tt.broadcast %arow : block<{BM}x{BK}xi32>
    %Ma = tt.splat %M : block<{BM}x1xi32>
    %rowok = arith.cmpi %rm2, %Ma {predicate = "slt"} : block<{BM}x1xi1>
    %rowokb = tt.broadcast %rowok : block<{BM}x{BK}xi1>
    %rnb = tt.broadcast %rn2 : block<{BK}x{BN}xi32>
    %Nb = tt.splat %N : block<1x{BN}xi32>
    %colok = arith.cmpi %rn2, %Nb {predicate = "slt"} : block<1x{BN}xi1>
    %colokb = tt.broadcast %colok : block<{BK}x{BN}xi1>
    %za = arith.constant {value = 0.0} : block<{BM}x{BK}x{T}>
    %zb = arith.constant {value = 0.0} : block<{BK}x{BN}x{T}>
    %zero = arith.constant {value = 0.0} : block<{BM}x{BN}xf32>
    %c0 = arith.constant {value = 0} : i32
    %acc = scf.for %c0, %K, %bk, %zero : block<{BM}x{BN}xf32> ({
    ^(%k: i32, %accin: block<{BM}x{BN}xf32>):
      %ks = tt.splat %k : block<{BK}xi32>
      %kk = arith.addi %ks, %ark : block<{BK}xi32>
      %kcol = tt.expand_dims %kk {axis = 0} : block<1x{BK}xi32>
      %kcolb = tt.broadcast %kcol : block<{BM}x{BK}xi32>
      %aoff = arith.addi %arowb, %kcolb : block<{BM}x{BK}xi32>
      %Kc = tt.splat %K : block<1x{BK}xi32>
      %kcolok = arith.cmpi %kcol, %Kc {predicate = "slt"} : block<1x{BK}xi1>
      %kcolokb = tt.broadcast %kcolok : block<{BM}x{BK}xi1>
      %amask = arith.andi %rowokb, %kcolokb : block<{BM}x{BK}xi1>
      %pa = tt.splat %a : block<{BM}x{BK}xptr<{T}>>
      %pa2 = tt.addptr %pa, %aoff : block<{BM}x{BK}xptr<{T}>>
      %av = tt.load %pa2, %amask, %za : block<{BM}x{BK}x{T}>
      %krow = tt.expand_dims %kk {axis = 1} : block<{BK}x1xi32>
      %Nr = tt.splat %N : block<{BK}x1xi32>
      %brow = arith.muli %krow, %Nr : block<{BK}x1xi32>
      %browb = tt.broadcast %brow : block<{BK}x{BN}xi32>
      %boff = arith.addi %browb, %rnb : block<{BK}x{BN}xi32>
      %Kr = tt.splat %K : block<{BK}x1xi32>
      %krowok = arith.cmpi %krow, %Kr {predicate = "slt"} : block<{BK}x1xi1>
      %krowokb = tt.broadcast %krowok : block<{BK}x{BN}xi1>
      %bmask = arith.andi %krowokb, %colokb : block<{BK}x{BN}xi1>
      %pb = tt.splat %b : block<{BK}x{BN}xptr<{T}>>
      %pb2 = tt.addptr %pb, %boff : block<{BK}x{BN}xptr<{T}>>
      %bv = tt.load %pb2, %bmask, %zb : block<{BK}x{BN}x{T}>
      %accout = tt.dot %av, %bv, %accin {input_precision = "ieee"} : block<{BM}x{BN}xf32>
      scf.yield %accout
    })
    %Nc = tt.splat %N : block<{BM}x1xi32>
    %crow = arith.muli %rm2, %Nc : block<{BM}x1xi32>
    %crowb = tt.broadcast %crow : block<{BM}x{BN}xi32>
    %rncb = tt.broadcast %rn2 : block<{BM}x{BN}xi32>
    %coff = arith.addi %crowb, %rncb : block<{BM}x{BN}xi32>
    %rowokc = tt.broadcast %rowok : block<{BM}x{BN}xi1>
    %colokc = tt.broadcast %colok : block<{BM}x{BN}xi1>
    %cmask = arith.andi %rowokc, %colokc : block<{BM}x{BN}xi1>
    %pc = tt.splat %c : block<{BM}x{BN}xptr<f32>>
    %pc2 = tt.addptr %pc, %coff : block<{BM}x{BN}xptr<f32>>
    tt.store %pc2, %acc, %cmask
    tt.return
  })
}))";

} // namespace

TEST_CASE("kernel: tiled matmul with tt.dot over a 2-D grid and a K loop") {
  struct Config {
    Type t;
    int m, n, k, bm, bn, bk;
  };
  std::vector<Config> configs = {{Type::f32(), 48, 40, 72, 16, 16, 16},
                                 {Type::f16(), 33, 64, 50, 32, 16, 32}};
  if (large())
    configs = {{Type::f32(), 256, 256, 256, 64, 64, 32}};
  for (uint32_t seed : seeds()) {
    INFO("seed " << seed);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<double> d(-1, 1);
    for (const Config &c : configs) {
      INFO(c.t.str() << " " << c.m << "x" << c.n << "x" << c.k);
      std::vector<uint64_t> a(size_t(c.m * c.k)), b(size_t(c.k * c.n));
      for (uint64_t &v : a)
        v = floatRaw(c.t, d(rng));
      for (uint64_t &v : b)
        v = floatRaw(c.t, d(rng));
      std::vector<unsigned char> ba = pack(a, c.t), bb = pack(b, c.t);
      std::vector<float> out(size_t(c.m * c.n), NAN);
      Runner r;
      r.load(subst(kMatmul, {{"T", c.t.str()},
                             {"BM", std::to_string(c.bm)},
                             {"BN", std::to_string(c.bn)},
                             {"BK", std::to_string(c.bk)}}));
      r.interp.addBuffer(ba.data(), ba.size(), "a");
      r.interp.addBuffer(bb.data(), bb.size(), "b");
      r.buffer(out, "c");
      auto t0 = std::chrono::steady_clock::now();
      r.runOk("matmul",
              {KernelArg::pointer(ba.data(), c.t), KernelArg::pointer(bb.data(), c.t),
               KernelArg::pointer(out.data()), KernelArg::i32(c.m), KernelArg::i32(c.n), KernelArg::i32(c.k)},
              {uint32_t((c.m + c.bm - 1) / c.bm), uint32_t((c.n + c.bn - 1) / c.bn), 1});
      if (large())
        std::printf("matmul %dx%dx%d: %.3f s\n", c.m, c.n, c.k, seconds(t0));
      CHECK(r.executed("tt.dot"));
      for (int i = 0; i < c.m; ++i)
        for (int j = 0; j < c.n; ++j) {
          double exact = 0;
          for (int kk = 0; kk < c.k; ++kk)
            exact += floatValue(c.t, a[size_t(i * c.k + kk)]) * floatValue(c.t, b[size_t(kk * c.n + j)]);
          double err = std::fabs(out[size_t(i * c.n + j)] - exact);
          if (err > 1e-4)
            CHECK(err <= 1e-4);
        }
    }
  }
}

TEST_CASE("kernel: argmax per row through a two-input reduction (first index wins ties)") {
  const char *kArgmax = R"(builtin.module ({
  tt.func {sym_name = "argmax"} ({
  ^(%x: ptr<f32>, %out: ptr<i32>, %cols: i32):
    %row = tt.get_program_id {axis = 0} : i32
    %start = arith.muli %row, %cols : i32
    %px = tt.addptr %x, %start : ptr<f32>
    %r = tt.make_range {end = 128, start = 0} : block<128xi32>
    %n = tt.splat %cols : block<128xi32>
    %mask = arith.cmpi %r, %n {predicate = "slt"} : block<128xi1>
    %pxs = tt.splat %px : block<128xptr<f32>>
    %pxr = tt.addptr %pxs, %r : block<128xptr<f32>>
    %ninf = arith.constant {value = -inf} : block<128xf32>
    %v = tt.load %pxr, %mask, %ninf : block<128xf32>
    %best, %index = tt.reduce %v, %r {axis = 0} : f32, i32 ({
    ^(%a: f32, %ai: i32, %b: f32, %bi: i32):
      %gt = arith.cmpf %b, %a {predicate = "ogt"} : i1
      %eq = arith.cmpf %b, %a {predicate = "oeq"} : i1
      %lower = arith.cmpi %bi, %ai {predicate = "slt"} : i1
      %tie = arith.andi %eq, %lower : i1
      %takeb = arith.ori %gt, %tie : i1
      %v2 = arith.select %takeb, %b, %a : f32
      %i2 = arith.select %takeb, %bi, %ai : i32
      tt.reduce.return %v2, %i2
    })
    %po = tt.addptr %out, %row : ptr<i32>
    tt.store %po, %index
    tt.return
  })
}))";
  const int rows = 23, cols = 100;
  for (uint32_t seed : seeds()) {
    INFO("seed " << seed);
    std::mt19937 rng(seed);
    std::vector<float> x(rows * cols);
    for (float &v : x)
      v = float(rng() % 40); // many ties
    std::vector<int32_t> out(rows, -1);
    Runner r;
    r.load(kArgmax);
    r.buffer(x, "x");
    r.buffer(out, "out");
    r.runOk("argmax",
            {KernelArg::pointer(x.data()), KernelArg::pointer(out.data(), Type::i32()), KernelArg::i32(cols)},
            {rows, 1, 1});
    for (int i = 0; i < rows; ++i) {
      auto first = x.begin() + i * cols;
      CHECK(out[i] == std::max_element(first, first + cols) - first);
    }
  }
}

TEST_CASE("kernel: cumulative sums per row with tt.scan") {
  const char *kCumsum = R"(builtin.module ({
  tt.func {sym_name = "cumsum"} ({
  ^(%x: ptr<f32>, %y: ptr<f32>, %cols: i32):
    %row = tt.get_program_id {axis = 0} : i32
    %start = arith.muli %row, %cols : i32
    %r = tt.make_range {end = 256, start = 0} : block<256xi32>
    %s = tt.splat %start : block<256xi32>
    %offs = arith.addi %s, %r : block<256xi32>
    %n = tt.splat %cols : block<256xi32>
    %mask = arith.cmpi %r, %n {predicate = "slt"} : block<256xi1>
    %px = tt.splat %x : block<256xptr<f32>>
    %px2 = tt.addptr %px, %offs : block<256xptr<f32>>
    %v = tt.load %px2, %mask : block<256xf32>
    %c = tt.scan %v {axis = 0, reverse = false} : block<256xf32> ({
    ^(%a: f32, %b: f32):
      %sum = arith.addf %a, %b : f32
      tt.scan.return %sum
    })
    %py = tt.splat %y : block<256xptr<f32>>
    %py2 = tt.addptr %py, %offs : block<256xptr<f32>>
    tt.store %py2, %c, %mask
    tt.return
  })
}))";
  const int rows = 9, cols = 200;
  for (uint32_t seed : seeds()) {
    INFO("seed " << seed);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> d(-1, 1);
    std::vector<float> x(rows * cols), y(rows * cols, NAN);
    for (float &v : x)
      v = d(rng);
    Runner r;
    r.load(kCumsum);
    r.buffer(x, "x");
    r.buffer(y, "y");
    r.runOk("cumsum", {KernelArg::pointer(x.data()), KernelArg::pointer(y.data()), KernelArg::i32(cols)},
            {rows, 1, 1});
    for (int i = 0; i < rows; ++i) {
      double exact = 0;
      for (int j = 0; j < cols; ++j) {
        exact += x[i * cols + j];
        CHECK(std::fabs(y[i * cols + j] - exact) < 1e-4);
      }
    }
  }
}

TEST_CASE("kernel: histogram with masked atomic adds") {
  const char *kHistogram = R"(builtin.module ({
  tt.func {sym_name = "histogram"} ({
  ^(%x: ptr<i32>, %hist: ptr<i32>, %n: i32):
    %pid = tt.get_program_id {axis = 0} : i32
    %bs = arith.constant {value = 256} : i32
    %start = arith.muli %pid, %bs : i32
    %r = tt.make_range {end = 256, start = 0} : block<256xi32>
    %s = tt.splat %start : block<256xi32>
    %offs = arith.addi %s, %r : block<256xi32>
    %ns = tt.splat %n : block<256xi32>
    %mask = arith.cmpi %offs, %ns {predicate = "slt"} : block<256xi1>
    %px = tt.splat %x : block<256xptr<i32>>
    %px2 = tt.addptr %px, %offs : block<256xptr<i32>>
    %bins = tt.load %px2, %mask : block<256xi32>
    %ph = tt.splat %hist : block<256xptr<i32>>
    %ph2 = tt.addptr %ph, %bins : block<256xptr<i32>>
    %one = arith.constant {value = 1} : block<256xi32>
    %old = tt.atomic_rmw %ph2, %one, %mask {kind = "add", scope = "gpu", sem = "relaxed"} : block<256xi32>
    tt.return
  })
}))";
  const int n = 5000, bins = 64;
  for (uint32_t seed : seeds()) {
    INFO("seed " << seed);
    std::mt19937 rng(seed);
    std::vector<int32_t> x(n), hist(bins, 0), expected(bins, 0);
    for (int32_t &v : x) {
      v = int32_t(rng() % 7 == 0 ? 5 : rng() % bins); // one heavy bin
      ++expected[v];
    }
    Runner r;
    r.load(kHistogram);
    r.buffer(x, "x");
    r.buffer(hist, "hist");
    r.runOk("histogram",
            {KernelArg::pointer(x.data(), Type::i32()), KernelArg::pointer(hist.data(), Type::i32()),
             KernelArg::i32(n)},
            {(n + 255) / 256, 1, 1});
    CHECK(hist == expected);
  }
}

TEST_CASE("kernel built with the Builder: per-program block sums") {
  // out[pid] = sum(x[pid*64 : pid*64+64]), built in C++ rather than parsed.
  Module m;
  Builder b(m);
  Type ptrF32 = Type::ptr(Type::f32());
  Type params[] = {ptrF32, ptrF32};
  Op *f = b.func("block_sums", params, {});
  b.setInsertionPointToEnd(f->region());
  Value *x = f->region()->argument(0), *out = f->region()->argument(1);
  Value *pid = b.programId(0);
  Value *start = b.binary(OpCode::MulI, pid, b.constInt(64, Type::i32()));
  const int64_t shape[] = {64};
  Value *offs = b.binary(OpCode::AddI, b.splat(start, shape), b.makeRange(0, 64));
  Value *vals = b.load(b.addPtr(b.splat(x, shape), offs));
  Value *inputs[] = {vals};
  Op *sum = b.reduce(inputs, 0, [](Builder &inner, std::span<Value *const> lhs, std::span<Value *const> rhs) {
    return std::vector<Value *>{inner.binary(OpCode::AddF, lhs[0], rhs[0])};
  });
  b.store(b.addPtr(out, pid), sum->result());
  b.ret();
  Diagnostics diags;
  INFO(diags.str());
  REQUIRE(verify(m, diags));

  for (uint32_t seed : seeds()) {
    INFO("seed " << seed);
    std::mt19937 rng(seed);
    std::uniform_real_distribution<float> d(-1, 1);
    std::vector<float> xs(5 * 64), sums(5, NAN);
    for (float &v : xs)
      v = d(rng);
    Interpreter interp;
    interp.addBuffer(xs.data(), xs.size() * sizeof(float), "x");
    interp.addBuffer(sums.data(), sums.size() * sizeof(float), "out");
    KernelArg args[] = {KernelArg::pointer(xs.data()), KernelArg::pointer(sums.data())};
    REQUIRE(interp.run(m, "block_sums", args, {5, 1, 1}, diags));
    for (int p = 0; p < 5; ++p) {
      double exact = 0;
      for (int i = 0; i < 64; ++i)
        exact += xs[p * 64 + i];
      CHECK(std::fabs(sums[p] - exact) < 1e-5);
    }
  }
}
