// tt.reduce (documented tree order, either axis, to a scalar, combiners that are
// not elementwise), tt.scan (forward, reverse, two inputs) and tt.dot (every input
// and accumulator type the verifier allows, batched, against float64 references and
// bit-exact sequential references).

#include "InterpTestUtil.h"

#include <cmath>

using namespace interp_test;

namespace {

const bool kCovered = cover({"tt.reduce", "tt.reduce.return", "tt.scan", "tt.scan.return", "tt.dot"});

template <class T>
std::vector<T> runBlock(Runner &r, Type e, int m, int n, std::vector<T> in, const std::string &body, Type out,
                        int total) {
  r.load(blockKernel(e, m, n, body, out, total));
  std::vector<T> result(static_cast<size_t>(std::max(total, 1)), T(-999));
  r.buffer(in, "in");
  r.buffer(result, "out");
  r.runOk("k", {KernelArg::pointer(in.data(), e), KernelArg::pointer(result.data(), out)});
  return result;
}

std::string sumCombiner(const std::string &t) {
  return " ({\n    ^(%a: " + t + ", %b: " + t + "):\n      %s = arith.addf %a, %b : " + t +
         "\n      tt.reduce.return %s\n    })";
}

// The interpreter's documented order: pairs of neighbours, then pairs of pairs.
float treeSum(std::vector<float> v) {
  while (v.size() > 1) {
    std::vector<float> next;
    for (size_t i = 0; i + 1 < v.size(); i += 2)
      next.push_back(v[i] + v[i + 1]);
    if (v.size() % 2)
      next.push_back(v.back());
    v = next;
  }
  return v[0];
}

std::vector<float> randomFloats(std::mt19937 &rng, size_t n) {
  std::uniform_real_distribution<float> d(-1, 1);
  std::vector<float> v(n);
  for (float &x : v)
    x = d(rng);
  return v;
}

} // namespace

TEST_CASE("tt.reduce sums along either axis in the documented tree order") {
  (void)kCovered;
  for (uint32_t seed : seeds()) {
    INFO("seed " << seed);
    std::mt19937 rng(seed);
    std::vector<float> x = randomFloats(rng, 4 * 16);
    Type f32 = Type::f32();
    Runner r1;
    std::vector<float> rows = runBlock(
        r1, f32, 4, 16, x, "    %y = tt.reduce %x {axis = 1} : block<4xf32>" + sumCombiner("f32"), f32, 4);
    for (int i = 0; i < 4; ++i) {
      std::vector<float> row(x.begin() + i * 16, x.begin() + (i + 1) * 16);
      double exact = 0;
      for (float v : row)
        exact += v;
      CHECK(rows[i] == treeSum(row));
      CHECK(std::fabs(rows[i] - exact) < 1e-5);
    }
    CHECK(r1.executed("tt.reduce"));
    CHECK(r1.executed("tt.reduce.return"));

    Runner r2;
    std::vector<float> cols = runBlock(
        r2, f32, 4, 16, x, "    %y = tt.reduce %x {axis = 0} : block<16xf32>" + sumCombiner("f32"), f32, 16);
    for (int j = 0; j < 16; ++j)
      CHECK(cols[j] == treeSum({x[j], x[16 + j], x[32 + j], x[48 + j]}));

    Runner r3;
    std::vector<float> all = runBlock(r3, f32, 4, 16, x,
                                      "    %flat = tt.reshape %x : block<64xf32>\n"
                                      "    %y = tt.reduce %flat {axis = 0} : f32" +
                                          sumCombiner("f32"),
                                      f32, 0);
    CHECK(all[0] == treeSum(x));
  }
}

TEST_CASE("a combiner with control flow runs once per pair and agrees with an elementwise one") {
  for (uint32_t seed : seeds()) {
    INFO("seed " << seed);
    std::mt19937 rng(seed);
    std::vector<float> x = randomFloats(rng, 8 * 8);
    Type f32 = Type::f32();
    Runner r;
    std::vector<float> y = runBlock(r, f32, 8, 8, x,
                                    R"(    %y = tt.reduce %x {axis = 1} : block<8xf32> ({
    ^(%a: f32, %b: f32):
      %gt = arith.cmpf %a, %b {predicate = "ogt"} : i1
      %m = scf.if %gt : f32 ({
        scf.yield %a
      }, {
        scf.yield %b
      })
      tt.reduce.return %m
    }))",
                                    f32, 8);
    Runner r2;
    std::vector<float> z = runBlock(r2, f32, 8, 8, x,
                                    R"(    %y = tt.reduce %x {axis = 1} : block<8xf32> ({
    ^(%a: f32, %b: f32):
      %m = arith.maxnumf %a, %b : f32
      tt.reduce.return %m
    }))",
                                    f32, 8);
    for (int i = 0; i < 8; ++i) {
      CHECK(y[i] == *std::max_element(x.begin() + i * 8, x.begin() + (i + 1) * 8));
      CHECK(z[i] == y[i]);
    }
  }
}

TEST_CASE("a combiner may use constants (broadcast over a whole slice)") {
  // combine(a, b) = a + b + b * 0: the constant is one element while a and b hold a
  // whole slice.
  std::vector<int32_t> x(4 * 8);
  for (size_t i = 0; i < x.size(); ++i)
    x[i] = static_cast<int32_t>(i) - 10;
  Runner r;
  std::vector<int32_t> y = runBlock(r, Type::i32(), 4, 8, x,
                                    R"(    %y = tt.reduce %x {axis = 1} : block<4xi32> ({
    ^(%a: i32, %b: i32):
      %zero = arith.constant {value = 0} : i32
      %z = arith.muli %b, %zero : i32
      %s = arith.addi %a, %b : i32
      %t = arith.addi %s, %z : i32
      tt.reduce.return %t
    }))",
                                    Type::i32(), 4);
  for (int i = 0; i < 4; ++i) {
    int32_t sum = 0;
    for (int j = 0; j < 8; ++j)
      sum += x[i * 8 + j];
    CHECK(y[i] == sum);
  }
}

TEST_CASE("tt.scan: cumulative sums forward and reversed, sequential in f32") {
  for (uint32_t seed : seeds()) {
    INFO("seed " << seed);
    std::mt19937 rng(seed);
    std::vector<float> x = randomFloats(rng, 4 * 16);
    for (bool reverse : {false, true}) {
      for (int axis : {0, 1}) {
        INFO("reverse " << reverse << " axis " << axis);
        Runner r;
        std::vector<float> y =
            runBlock(r, Type::f32(), 4, 16, x,
                     "    %y = tt.scan %x {axis = " + std::to_string(axis) +
                         ", reverse = " + (reverse ? "true" : "false") + R"(} : block<4x16xf32> ({
    ^(%a: f32, %b: f32):
      %s = arith.addf %a, %b : f32
      tt.scan.return %s
    }))",
                     Type::f32(), 64);
        CHECK(r.executed("tt.scan"));
        CHECK(r.executed("tt.scan.return"));
        const int len = axis == 1 ? 16 : 4, lanes = axis == 1 ? 4 : 16;
        for (int lane = 0; lane < lanes; ++lane) {
          auto at = [&](int k) { return axis == 1 ? lane * 16 + k : k * 16 + lane; };
          float acc = 0;
          double exact = 0;
          for (int s = 0; s < len; ++s) {
            int k = reverse ? len - 1 - s : s;
            acc = s == 0 ? x[at(k)] : acc + x[at(k)];
            exact += x[at(k)];
            CHECK(y[at(k)] == acc);
            CHECK(std::fabs(y[at(k)] - exact) < 1e-5);
          }
        }
      }
    }
  }
}

TEST_CASE("tt.scan with two inputs: running argmax") {
  std::vector<int32_t> x = {3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5, 8, 9, 7, 9, 3};
  Runner r;
  std::vector<int32_t> y = runBlock(r, Type::i32(), 1, 16, x,
                                    R"(    %v = tt.reshape %x : block<16xi32>
    %idx = tt.make_range {end = 16, start = 0} : block<16xi32>
    %m, %i = tt.scan %v, %idx {axis = 0, reverse = false} : block<16xi32>, block<16xi32> ({
    ^(%a: i32, %ai: i32, %b: i32, %bi: i32):
      %gt = arith.cmpi %b, %a {predicate = "sgt"} : i1
      %mv = arith.select %gt, %b, %a : i32
      %mi = arith.select %gt, %bi, %ai : i32
      tt.scan.return %mv, %mi
    })
    %y = tt.join %m, %i : block<16x2xi32>)",
                                    Type::i32(), 32);
  int32_t best = x[0], bestIndex = 0;
  for (int k = 0; k < 16; ++k) {
    if (x[k] > best) {
      best = x[k];
      bestIndex = k;
    }
    CHECK(y[2 * k] == best);
    CHECK(y[2 * k + 1] == bestIndex);
  }
}

namespace {

struct DotCase {
  Type a, b, acc;
  const char *precision;
};

// Loads a (MxK), b (KxN) and acc (MxN) from raw buffers, computes tt.dot, stores it.
std::vector<uint64_t> runDot(Runner &r, const DotCase &c, int batch, int m, int n, int k,
                             const std::vector<uint64_t> &a, const std::vector<uint64_t> &b,
                             const std::vector<uint64_t> &acc) {
  auto shape3 = [&](int x, int y, Type t) {
    return batch ? "block<" + std::to_string(batch) + "x" + std::to_string(x) + "x" + std::to_string(y) +
                       "x" + t.str() + ">"
                 : "block<" + std::to_string(x) + "x" + std::to_string(y) + "x" + t.str() + ">";
  };
  const int rows = std::max(batch, 1);
  // Loaded as 2-D (batches stacked along rows), then viewed as the dot's operands.
  std::string reshape = "    %a3 = tt.reshape %a : " + shape3(m, k, c.a) +
                        "\n    %b3 = tt.reshape %b : " + shape3(k, n, c.b) +
                        "\n    %c3 = tt.reshape %c : " + shape3(m, n, c.acc) + "\n";
  std::string text = "builtin.module ({\n  tt.func {sym_name = \"k\"} ({\n  ^(%pa: ptr<" + c.a.str() +
                     ">, %pb: ptr<" + c.b.str() + ">, %pc: ptr<" + c.acc.str() + ">, %out: ptr<" +
                     c.acc.str() + ">):\n" + load2d("a", "pa", c.a, rows * m, k) +
                     load2d("b", "pb", c.b, rows * k, n) + load2d("c", "pc", c.acc, rows * m, n) + reshape +
                     "    %d = tt.dot %a3, %b3, %c3 {input_precision = \"" + c.precision +
                     "\"} : " + shape3(m, n, c.acc) + "\n" + "    %y = tt.reshape %d : " + "block<" +
                     std::to_string(rows * m) + "x" + std::to_string(n) + "x" + c.acc.str() + ">\n" +
                     load2d("o", "out", c.acc, rows * m, n) +
                     "    tt.store %o_ptrs, %y\n    tt.return\n  })\n})\n";
  r.load(text);
  std::vector<unsigned char> ba = pack(a, c.a), bb = pack(b, c.b), bc = pack(acc, c.acc),
                             bo(acc.size() * bytesOf(c.acc), 0xAB);
  r.interp.addBuffer(ba.data(), ba.size(), "a");
  r.interp.addBuffer(bb.data(), bb.size(), "b");
  r.interp.addBuffer(bc.data(), bc.size(), "acc");
  r.interp.addBuffer(bo.data(), bo.size(), "out");
  r.runOk("k", {KernelArg::pointer(ba.data(), c.a), KernelArg::pointer(bb.data(), c.b),
                KernelArg::pointer(bc.data(), c.acc), KernelArg::pointer(bo.data(), c.acc)});
  return unpack(bo, c.acc);
}

} // namespace

TEST_CASE("tt.dot: acc + a @ b for every allowed type combination") {
  const DotCase cases[] = {
      {Type::f32(), Type::f32(), Type::f32(), "ieee"},
      {Type::f32(), Type::f32(), Type::f32(), "tf32"},
      {Type::f16(), Type::f16(), Type::f32(), "ieee"},
      {Type::f16(), Type::f16(), Type::f16(), "ieee"},
      {Type::bf16(), Type::bf16(), Type::f32(), "ieee"},
      {Type::f64(), Type::f64(), Type::f64(), "ieee"},
      {Type::f8e4m3(), Type::f8e5m2(), Type::f32(), "ieee"},
      {Type::f8e5m2(), Type::f8e5m2(), Type::f16(), "ieee"},
      {Type::i8(), Type::i8(), Type::i32(), "ieee"},
  };
  for (uint32_t seed : seeds()) {
    INFO("seed " << seed);
    std::mt19937_64 rng(seed);
    std::uniform_real_distribution<double> dist(-2, 2);
    for (const DotCase &c : cases) {
      for (int batch : {0, 2}) {
        INFO(c.a.str() << " x " << c.b.str() << " -> " << c.acc.str() << " " << std::string(c.precision)
                       << " batch " << batch);
        const int m = 8, n = 16, k = 32, rows = std::max(batch, 1);
        auto gen = [&](Type t, size_t count) {
          std::vector<uint64_t> v(count);
          for (uint64_t &x : v)
            x = t.isInteger() ? static_cast<uint64_t>(static_cast<int64_t>(rng() % 255) - 127) & 0xff
                              : floatRaw(t, dist(rng));
          return v;
        };
        std::vector<uint64_t> a = gen(c.a, size_t(rows * m * k)), b = gen(c.b, size_t(rows * k * n));
        std::vector<uint64_t> acc(size_t(rows * m * n));
        for (uint64_t &x : acc)
          x = c.acc.isInteger()
                  ? static_cast<uint64_t>(static_cast<int64_t>(rng() % 2001) - 1000) & 0xffffffffu
                  : floatRaw(c.acc, dist(rng));
        Runner r;
        std::vector<uint64_t> y = runDot(r, c, batch, m, n, k, a, b, acc);
        CHECK(r.executed("tt.dot"));
        for (int p = 0; p < rows; ++p)
          for (int i = 0; i < m; ++i)
            for (int j = 0; j < n; ++j) {
              const size_t o = size_t((p * m + i) * n + j);
              if (c.acc.isInteger()) {
                int64_t sum = static_cast<int32_t>(acc[o]);
                for (int kk = 0; kk < k; ++kk)
                  sum += int64_t(int8_t(a[size_t((p * m + i) * k + kk)])) *
                         int8_t(b[size_t((p * k + kk) * n + j)]);
                CHECK(static_cast<int32_t>(y[o]) == sum);
                continue;
              }
              // float64 reference, and the bit-exact sequence the interpreter documents:
              // one fma per k in order, in the accumulator's compute type.
              double exact = floatValue(c.acc, acc[o]);
              double seq = exact;
              float seqF = static_cast<float>(exact);
              for (int kk = 0; kk < k; ++kk) {
                double av = floatValue(c.a, a[size_t((p * m + i) * k + kk)]);
                double bv = floatValue(c.b, b[size_t((p * k + kk) * n + j)]);
                exact += av * bv;
                seq = std::fma(av, bv, seq);
                seqF = std::fma(float(av), float(bv), seqF);
                if (c.acc.kind() == TypeKind::F16)
                  seqF = static_cast<float>(floatValue(c.acc, floatRaw(c.acc, seqF)));
              }
              double got = floatValue(c.acc, y[o]);
              double tolerance = c.acc.kind() == TypeKind::F16 ? 0.1 : 1e-4;
              CHECK(std::fabs(got - exact) < tolerance);
              CHECK(got == (c.acc.kind() == TypeKind::F64 ? seq : double(seqF)));
            }
      }
    }
  }
}
