// Integer ops: every binary op at every width against 128-bit references, with edge
// values mixed into random inputs; comparisons; abs; division by zero.

#include "InterpTestUtil.h"

#include <functional>

using namespace interp_test;

namespace {

using u128 = unsigned __int128;
using i128 = __int128;

uint64_t mask(unsigned w) { return w == 64 ? ~uint64_t(0) : (uint64_t(1) << w) - 1; }
i128 sx(uint64_t v, unsigned w) {
  v &= mask(w);
  return (w < 64 && (v >> (w - 1)) & 1) ? i128(v) - (i128(1) << w) : i128(w == 64 ? int64_t(v) : i128(v));
}

struct IntCase {
  const char *op;
  std::function<u128(uint64_t a, uint64_t b, unsigned w)> ref; // the result before wrapping
  bool divides;                                                // divisor must be nonzero
};

const IntCase kBinary[] = {
    {"arith.addi", [](uint64_t a, uint64_t b, unsigned) { return u128(a) + b; }, false},
    {"arith.subi", [](uint64_t a, uint64_t b, unsigned) { return u128(a) - b; }, false},
    {"arith.muli", [](uint64_t a, uint64_t b, unsigned) { return u128(a) * b; }, false},
    {"arith.divsi", [](uint64_t a, uint64_t b, unsigned w) { return u128(sx(a, w) / sx(b, w)); }, true},
    {"arith.divui", [](uint64_t a, uint64_t b, unsigned) { return u128(a / b); }, true},
    {"arith.remsi", [](uint64_t a, uint64_t b, unsigned w) { return u128(sx(a, w) % sx(b, w)); }, true},
    {"arith.remui", [](uint64_t a, uint64_t b, unsigned) { return u128(a % b); }, true},
    {"arith.andi", [](uint64_t a, uint64_t b, unsigned) { return u128(a & b); }, false},
    {"arith.ori", [](uint64_t a, uint64_t b, unsigned) { return u128(a | b); }, false},
    {"arith.xori", [](uint64_t a, uint64_t b, unsigned) { return u128(a ^ b); }, false},
    {"arith.shli", [](uint64_t a, uint64_t b, unsigned w) { return b >= w ? u128(0) : u128(a) << b; }, false},
    {"arith.shrui", [](uint64_t a, uint64_t b, unsigned w) { return b >= w ? u128(0) : u128(a) >> b; },
     false},
    {"arith.shrsi",
     [](uint64_t a, uint64_t b, unsigned w) {
       return u128(b >= w ? (sx(a, w) < 0 ? -1 : 0) : sx(a, w) >> b);
     },
     false},
    {"arith.minsi", [](uint64_t a, uint64_t b, unsigned w) { return u128(sx(a, w) < sx(b, w) ? a : b); },
     false},
    {"arith.maxsi", [](uint64_t a, uint64_t b, unsigned w) { return u128(sx(a, w) > sx(b, w) ? a : b); },
     false},
    {"arith.minui", [](uint64_t a, uint64_t b, unsigned) { return u128(a < b ? a : b); }, false},
    {"arith.maxui", [](uint64_t a, uint64_t b, unsigned) { return u128(a > b ? a : b); }, false},
    {"tt.umulhi", [](uint64_t a, uint64_t b, unsigned w) { return (u128(a) * b) >> w; }, false},
};

const bool kCovered = cover({"arith.addi",  "arith.subi",  "arith.muli",  "arith.divsi", "arith.divui",
                             "arith.remsi", "arith.remui", "arith.andi",  "arith.ori",   "arith.xori",
                             "arith.shli",  "arith.shrui", "arith.shrsi", "arith.minsi", "arith.maxsi",
                             "arith.minui", "arith.maxui", "tt.umulhi",   "arith.cmpi",  "math.absi"});

// Random values of width w (zero-extended), with the edge values mixed in.
std::vector<uint64_t> randomInts(std::mt19937_64 &rng, unsigned w, size_t n, bool shiftAmounts) {
  const uint64_t m = mask(w);
  std::vector<uint64_t> edges = {0, 1, m, m >> 1, (m >> 1) + 1, 2, m - 1};
  std::vector<uint64_t> v(n);
  for (size_t i = 0; i < n; ++i) {
    uint64_t r = rng();
    if (shiftAmounts && i % 2 == 0)
      v[i] = r % (w + 3); // in range, at the width and just past it
    else if (i % 4 == 1)
      v[i] = edges[r % edges.size()];
    else if (i % 4 == 3)
      v[i] = (r % 17) & m; // small
    else
      v[i] = r & m;
  }
  return v;
}

Type intType(unsigned w) { return Type::integer(w); }

} // namespace

TEST_CASE("integer binary ops wrap to their width and match 128-bit references") {
  (void)kCovered;
  constexpr int64_t n = 64;
  for (uint32_t seed : seeds()) {
    INFO("seed " << seed);
    std::mt19937_64 rng(seed);
    for (const IntCase &c : kBinary) {
      for (unsigned w : {8u, 16u, 32u, 64u}) {
        INFO(std::string(c.op) << " on i" << w);
        Type t = intType(w);
        bool shifts = std::string(c.op).find("sh") != std::string::npos;
        std::vector<uint64_t> a = randomInts(rng, w, n, false), b = randomInts(rng, w, n, shifts);
        if (c.divides)
          for (uint64_t &x : b)
            if (x == 0)
              x = 3;
        Runner r;
        std::vector<uint64_t> y = runElementwise(
            r, "%y = " + std::string(c.op) + " %x0, %x1 : " + blockOf(n, t), {t, t}, {a, b}, t);
        CHECK(r.executed(c.op));
        for (int64_t i = 0; i < n; ++i) {
          INFO("a = " << a[i] << ", b = " << b[i]);
          CHECK(y[i] == (static_cast<uint64_t>(c.ref(a[i], b[i], w)) & mask(w)));
        }
      }
    }
  }
}

TEST_CASE("integer ops on i1 wrap to one bit") {
  std::vector<uint64_t> a = {0, 0, 1, 1}, b = {0, 1, 0, 1};
  Type i1 = Type::i1();
  struct {
    const char *op;
    std::vector<uint64_t> expected;
  } cases[] = {
      {"arith.addi", {0, 1, 1, 0}},  {"arith.muli", {0, 0, 0, 1}},
      {"arith.xori", {0, 1, 1, 0}},  {"arith.maxsi", {0, 0, 0, 1}}, // as signed, 1 is -1
      {"arith.maxui", {0, 1, 1, 1}},
  };
  for (auto &c : cases) {
    INFO(std::string(c.op));
    Runner r;
    CHECK(runElementwise(r, "%y = " + std::string(c.op) + " %x0, %x1 : " + blockOf(4, i1), {i1, i1}, {a, b},
                         i1) == c.expected);
  }
}

TEST_CASE("arith.cmpi: every predicate, signed and unsigned") {
  const char *preds[] = {"eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"};
  constexpr int64_t n = 32;
  for (uint32_t seed : seeds()) {
    INFO("seed " << seed);
    std::mt19937_64 rng(seed);
    for (unsigned w : {8u, 32u, 64u}) {
      Type t = intType(w);
      std::vector<uint64_t> a = randomInts(rng, w, n, false), b = randomInts(rng, w, n, false);
      for (int64_t i = 0; i < n; i += 5)
        b[i] = a[i]; // some equal pairs
      for (const char *p : preds) {
        INFO("cmpi " << std::string(p) << " on i" << w);
        Runner r;
        std::vector<uint64_t> y = runElementwise(r,
                                                 "%y = arith.cmpi %x0, %x1 {predicate = \"" + std::string(p) +
                                                     "\"} : " + blockOf(n, Type::i1()),
                                                 {t, t}, {a, b}, Type::i1());
        CHECK(r.executed("arith.cmpi"));
        std::string ps = p;
        for (int64_t i = 0; i < n; ++i) {
          i128 sa = sx(a[i], w), sb = sx(b[i], w);
          bool e = ps == "eq"    ? a[i] == b[i]
                   : ps == "ne"  ? a[i] != b[i]
                   : ps == "slt" ? sa < sb
                   : ps == "sle" ? sa <= sb
                   : ps == "sgt" ? sa > sb
                   : ps == "sge" ? sa >= sb
                   : ps == "ult" ? a[i] < b[i]
                   : ps == "ule" ? a[i] <= b[i]
                   : ps == "ugt" ? a[i] > b[i]
                                 : a[i] >= b[i];
          CHECK(y[i] == uint64_t(e));
        }
      }
    }
  }
}

TEST_CASE("math.absi wraps the minimum to itself") {
  Type t = Type::i32();
  std::vector<uint64_t> a = {5, uint64_t(uint32_t(-7)), 0x80000000u, 0x7fffffffu, 0};
  a.resize(8, uint64_t(uint32_t(-1)));
  Runner r;
  std::vector<uint64_t> y = runElementwise(r, "%y = math.absi %x0 : " + blockOf(8, t), {t}, {a}, t);
  CHECK(r.executed("math.absi"));
  CHECK(y == std::vector<uint64_t>{5, 7, 0x80000000u, 0x7fffffffu, 0, 1, 1, 1});
}

TEST_CASE("integer division by zero is an error at the op, never a crash") {
  for (const char *op : {"arith.divsi", "arith.divui", "arith.remsi", "arith.remui"}) {
    INFO(std::string(op));
    Runner r;
    r.load(elementwiseKernel("%y = " + std::string(op) + " %x0, %x1 : block<4xi32> loc(\"div.py\":3:7)",
                             {Type::i32(), Type::i32()}, Type::i32(), 4));
    std::vector<int32_t> a = {1, 2, 3, 4}, b = {1, 1, 0, 1}, out(4, 0);
    r.buffer(a, "a");
    r.buffer(b, "b");
    r.buffer(out, "out");
    CHECK_FALSE(
        r.run("k", {KernelArg::pointer(a.data(), Type::i32()), KernelArg::pointer(b.data(), Type::i32()),
                    KernelArg::pointer(out.data(), Type::i32())}));
    CHECK(r.error() == "integer division by zero in '" + std::string(op) + "' in program (0, 0, 0)");
    CHECK(r.diags.list()[0].loc.str() == "div.py:3:7");
    CHECK(out == std::vector<int32_t>{0, 0, 0, 0}); // the run stopped before the store
  }
}

TEST_CASE("signed division of the minimum by -1 wraps") {
  Type t = Type::i64();
  std::vector<uint64_t> a = {uint64_t(INT64_MIN), uint64_t(INT64_MIN), uint64_t(-7), 7};
  std::vector<uint64_t> b = {uint64_t(-1), uint64_t(-1), 2, uint64_t(-2)};
  Runner r1, r2;
  CHECK(runElementwise(r1, "%y = arith.divsi %x0, %x1 : block<4xi64>", {t, t}, {a, b}, t) ==
        std::vector<uint64_t>{uint64_t(INT64_MIN), uint64_t(INT64_MIN), uint64_t(-3), uint64_t(-3)});
  CHECK(runElementwise(r2, "%y = arith.remsi %x0, %x1 : block<4xi64>", {t, t}, {a, b}, t) ==
        std::vector<uint64_t>{0, 0, uint64_t(-1), 1});
}
