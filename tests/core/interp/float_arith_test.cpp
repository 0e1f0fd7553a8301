// Float ops in f64, f32, f16 and bf16: binary ops and exact unary ops against
// float64 references rounded to the type, math functions within a few ulps,
// min/max NaN rules, fma, and every cmpf predicate.

#include "InterpTestUtil.h"

#include <array>
#include <cmath>
#include <functional>
#include <limits>

using namespace interp_test;

namespace {

const bool kCovered =
    cover({"arith.addf",      "arith.subf",     "arith.mulf",      "arith.divf",    "arith.remf",
           "arith.negf",      "arith.minimumf", "arith.maximumf",  "arith.minnumf", "arith.maxnumf",
           "tt.precise_divf", "arith.cmpf",     "math.exp",        "math.exp2",     "math.log",
           "math.log2",       "math.sqrt",      "tt.precise_sqrt", "math.rsqrt",    "math.sin",
           "math.cos",        "math.absf",      "math.floor",      "math.ceil",     "math.erf",
           "math.fma"});

const Type kFloatTypes[] = {Type::f64(), Type::f32(), Type::f16(), Type::bf16()};

// Random raw values of float type t: special values, any bit pattern, and ordinary
// numbers in [lo, hi].
std::vector<uint64_t> randomFloats(std::mt19937_64 &rng, Type t, size_t n, double lo, double hi,
                                   bool specials) {
  std::uniform_real_distribution<double> ordinary(lo, hi);
  const double inf = std::numeric_limits<double>::infinity();
  std::vector<double> edges = {0.0, -0.0, inf, -inf, std::nan(""), 1.0, -1.0, 0.5};
  std::vector<uint64_t> v(n);
  for (size_t i = 0; i < n; ++i) {
    uint64_t r = rng();
    if (specials && i % 8 == 1)
      v[i] = floatRaw(t, edges[r % edges.size()]);
    else if (specials && i % 8 == 5)
      v[i] = t == Type::f64() ? r : t == Type::f32() ? (r & 0xffffffffu) : (r & 0xffffu); // any pattern
    else
      v[i] = floatRaw(t, ordinary(rng));
  }
  return v;
}

// The type's unit in the last place at magnitude |v| (normal range).
double ulpOf(Type t, double v) {
  const TypeKind k = t.kind();
  int digits = k == TypeKind::F64 ? 53 : k == TypeKind::F32 ? 24 : k == TypeKind::F16 ? 11 : 8;
  int minExponent = k == TypeKind::F64 ? -1074 : k == TypeKind::F32 ? -149 : k == TypeKind::F16 ? -24 : -133;
  int e;
  std::frexp(v == 0 ? 1e-300 : v, &e);
  return std::ldexp(1.0, std::max(e - digits, minExponent)); // subnormals have a fixed quantum
}

template <class T> T refMinimum(T x, T y) {
  if (x != x || y != y)
    return std::numeric_limits<T>::quiet_NaN();
  if (x == 0 && y == 0)
    return std::signbit(x) ? x : y;
  return x < y ? x : y;
}
template <class T> T refMaximum(T x, T y) {
  if (x != x || y != y)
    return std::numeric_limits<T>::quiet_NaN();
  if (x == 0 && y == 0)
    return std::signbit(x) ? y : x;
  return x > y ? x : y;
}

struct BinaryCase {
  const char *op;
  std::function<double(double, double)> ref; // exact (or correctly rounded) in double
};

const BinaryCase kBinary[] = {
    {"arith.addf", [](double a, double b) { return a + b; }},
    {"arith.subf", [](double a, double b) { return a - b; }},
    {"arith.mulf", [](double a, double b) { return a * b; }},
    {"arith.divf", [](double a, double b) { return a / b; }},
    {"tt.precise_divf", [](double a, double b) { return a / b; }},
    {"arith.remf", [](double a, double b) { return std::fmod(a, b); }},
    {"arith.minimumf", [](double a, double b) { return refMinimum(a, b); }},
    {"arith.maximumf", [](double a, double b) { return refMaximum(a, b); }},
    {"arith.minnumf", [](double a, double b) { return a != a   ? b
                                                      : b != b ? a
                                                               : refMinimum(a, b); }},
    {"arith.maxnumf", [](double a, double b) { return a != a   ? b
                                                      : b != b ? a
                                                               : refMaximum(a, b); }},
};

} // namespace

TEST_CASE("float binary ops are correctly rounded to their type") {
  (void)kCovered;
  constexpr size_t n = 64;
  for (uint32_t seed : seeds()) {
    INFO("seed " << seed);
    std::mt19937_64 rng(seed);
    for (Type t : kFloatTypes) {
      for (const BinaryCase &c : kBinary) {
        INFO(std::string(c.op) << " on " << t.str());
        std::vector<uint64_t> a = randomFloats(rng, t, n, -100, 100, true),
                              b = randomFloats(rng, t, n, -3, 3, true);
        Runner r;
        std::vector<uint64_t> y = runElementwise(
            r, "%y = " + std::string(c.op) + " %x0, %x1 : " + blockOf(n, t), {t, t}, {a, b}, t);
        CHECK(r.executed(c.op));
        for (size_t i = 0; i < n; ++i) {
          double x0 = floatValue(t, a[i]), x1 = floatValue(t, b[i]);
          double expected = floatValue(t, floatRaw(t, c.ref(x0, x1)));
          INFO(x0 << " op " << x1 << " gave " << floatValue(t, y[i]) << ", expected " << expected);
          CHECK(sameFloat(floatValue(t, y[i]), expected));
        }
      }
    }
  }
}

TEST_CASE("float unary ops: exact ones match, math functions within a few ulps") {
  struct UnaryCase {
    const char *op;
    std::function<double(double)> ref;
    double lo, hi;
    double ulps; // 0: must match exactly
  } cases[] = {
      {"arith.negf", [](double x) { return -x; }, -1e3, 1e3, 0},
      {"math.absf", [](double x) { return std::fabs(x); }, -1e3, 1e3, 0},
      {"math.floor", [](double x) { return std::floor(x); }, -50, 50, 0},
      {"math.ceil", [](double x) { return std::ceil(x); }, -50, 50, 0},
      {"math.sqrt", [](double x) { return std::sqrt(x); }, 0, 1e4, 0},
      {"tt.precise_sqrt", [](double x) { return std::sqrt(x); }, 0, 1e4, 0},
      {"math.rsqrt", [](double x) { return 1 / std::sqrt(x); }, 1e-3, 1e4, 2},
      {"math.exp", [](double x) { return std::exp(x); }, -20, 10, 2},
      {"math.exp2", [](double x) { return std::exp2(x); }, -20, 14, 2},
      {"math.log", [](double x) { return std::log(x); }, 1e-3, 1e4, 2},
      {"math.log2", [](double x) { return std::log2(x); }, 1e-3, 1e4, 2},
      {"math.sin", [](double x) { return std::sin(x); }, -6, 6, 2},
      {"math.cos", [](double x) { return std::cos(x); }, -6, 6, 2},
      {"math.erf", [](double x) { return std::erf(x); }, -3, 3, 2},
  };
  constexpr size_t n = 64;
  for (uint32_t seed : seeds()) {
    INFO("seed " << seed);
    std::mt19937_64 rng(seed);
    for (Type t : kFloatTypes) {
      for (const UnaryCase &c : cases) {
        INFO(std::string(c.op) << " on " << t.str());
        std::vector<uint64_t> a = randomFloats(rng, t, n, c.lo, c.hi, c.ulps == 0);
        Runner r;
        std::vector<uint64_t> y =
            runElementwise(r, "%y = " + std::string(c.op) + " %x0 : " + blockOf(n, t), {t}, {a}, t);
        CHECK(r.executed(c.op));
        for (size_t i = 0; i < n; ++i) {
          double x = floatValue(t, a[i]), got = floatValue(t, y[i]), exact = c.ref(x);
          INFO(std::string(c.op) << "(" << x << ") gave " << got << ", expected " << exact);
          if (c.ulps == 0)
            CHECK(sameFloat(got, floatValue(t, floatRaw(t, exact))));
          else
            // Near zero crossings (sin, cos, log near 1) the error is absolute.
            CHECK(std::fabs(got - exact) <= c.ulps * std::max(ulpOf(t, exact), ulpOf(t, 1.0) * 1e-6));
        }
      }
    }
  }
}

TEST_CASE("math.fma rounds once in every float type") {
  constexpr size_t n = 64;
  for (uint32_t seed : seeds()) {
    INFO("seed " << seed);
    std::mt19937_64 rng(seed);
    for (Type t : kFloatTypes) {
      INFO(t.str());
      std::vector<uint64_t> a = randomFloats(rng, t, n, -10, 10, false),
                            b = randomFloats(rng, t, n, -10, 10, false),
                            c = randomFloats(rng, t, n, -100, 100, false);
      Runner r;
      std::vector<uint64_t> y =
          runElementwise(r, "%y = math.fma %x0, %x1, %x2 : " + blockOf(n, t), {t, t, t}, {a, b, c}, t);
      CHECK(r.executed("math.fma"));
      for (size_t i = 0; i < n; ++i) {
        double x0 = floatValue(t, a[i]), x1 = floatValue(t, b[i]), x2 = floatValue(t, c[i]);
        double got = floatValue(t, y[i]);
        if (t == Type::f64())
          CHECK(got == std::fma(x0, x1, x2));
        else if (t == Type::f32())
          CHECK(got == std::fma(float(x0), float(x1), float(x2)));
        else // the double fma is exact for these sizes: its rounding is the one rounding
          CHECK(y[i] == floatRaw(t, std::fma(x0, x1, x2)));
      }
    }
  }
  // Where a wider intermediate rounds to a tie first: -72 * -61.75 - 2^-20 in f16 is just
  // below the midpoint 4446 (4444, not 4448), and (1 + 2^-7) * 1.5 - 2^-100 in bf16 just
  // below the midpoint 1.51171875 (1.5078125, not 1.515625).
  Type f16 = Type::f16(), bf16 = Type::bf16();
  std::vector<std::pair<Type, std::array<double, 4>>> ties = {
      {f16, {-72.0, -61.75, -std::ldexp(13.0, -24), 4444.0}},
      {bf16, {1.0 + std::ldexp(1.0, -7), 1.5, -std::ldexp(1.0, -100), 1.5078125}},
      {bf16, {1.0 + std::ldexp(1.0, -7), 1.5, std::ldexp(1.0, -100), 1.515625}}};
  for (const auto &[t, v] : ties) {
    INFO(t.str() << " " << v[0] << " * " << v[1] << " + " << v[2]);
    Runner r;
    std::vector<uint64_t> y = runElementwise(r, "%y = math.fma %x0, %x1, %x2 : " + blockOf(1, t), {t, t, t},
                                             {{floatRaw(t, v[0])}, {floatRaw(t, v[1])}, {floatRaw(t, v[2])}}, t);
    CHECK(floatValue(t, y[0]) == v[3]);
  }
}

TEST_CASE("f16 and bf16 arithmetic rounds after every op") {
  // 1 + 2^-11 is a tie in f16 (to even: 1), 1 + 3 * 2^-11 rounds up to 1 + 2^-9.
  Type f16 = Type::f16();
  std::vector<uint64_t> a = {floatRaw(f16, 1.0), floatRaw(f16, 1.0), floatRaw(f16, 60000.0),
                             floatRaw(f16, 2048.0)};
  std::vector<uint64_t> b = {floatRaw(f16, std::ldexp(1.0, -11)), floatRaw(f16, 3 * std::ldexp(1.0, -11)),
                             floatRaw(f16, 10000.0), floatRaw(f16, 1.0)};
  Runner r;
  std::vector<uint64_t> y =
      runElementwise(r, "%y = arith.addf %x0, %x1 : block<4xf16>", {f16, f16}, {a, b}, f16);
  CHECK(floatValue(f16, y[0]) == 1.0);
  CHECK(floatValue(f16, y[1]) == 1.0 + std::ldexp(1.0, -9));
  CHECK(floatValue(f16, y[2]) == INFINITY); // overflows f16
  CHECK(floatValue(f16, y[3]) == 2048.0);   // 2049 is not an f16
}

TEST_CASE("arith.cmpf: every predicate with NaNs, zeros and infinities") {
  const char *preds[] = {"oeq", "one", "olt", "ole", "ogt", "oge", "ord",
                         "ueq", "une", "ult", "ule", "ugt", "uge", "uno"};
  const double nan = std::nan(""), inf = INFINITY;
  std::vector<double> xs = {1, 1, 2, nan, 1, nan, -0.0, -inf, 3, 5, inf, 0.5, 7, -2, nan, 0};
  std::vector<double> ys = {1, 2, 1, 1, nan, nan, 0.0, -inf, 3, -5, 1, 0.5, 8, -2, 0, nan};
  for (Type t : {Type::f32(), Type::f16()}) {
    std::vector<uint64_t> a, b;
    for (size_t i = 0; i < xs.size(); ++i) {
      a.push_back(floatRaw(t, xs[i]));
      b.push_back(floatRaw(t, ys[i]));
    }
    for (const char *p : preds) {
      INFO("cmpf " << std::string(p) << " on " << t.str());
      Runner r;
      std::vector<uint64_t> y = runElementwise(
          r, "%y = arith.cmpf %x0, %x1 {predicate = \"" + std::string(p) + "\"} : " + blockOf(16, Type::i1()),
          {t, t}, {a, b}, Type::i1());
      CHECK(r.executed("arith.cmpf"));
      std::string ps = p;
      for (size_t i = 0; i < xs.size(); ++i) {
        double x = xs[i], z = ys[i];
        bool u = x != x || z != z;
        bool e = ps == "oeq"   ? !u && x == z
                 : ps == "one" ? !u && x != z
                 : ps == "olt" ? !u && x < z
                 : ps == "ole" ? !u && x <= z
                 : ps == "ogt" ? !u && x > z
                 : ps == "oge" ? !u && x >= z
                 : ps == "ord" ? !u
                 : ps == "ueq" ? u || x == z
                 : ps == "une" ? u || x != z
                 : ps == "ult" ? u || x < z
                 : ps == "ule" ? u || x <= z
                 : ps == "ugt" ? u || x > z
                 : ps == "uge" ? u || x >= z
                               : u;
        INFO(x << " " << std::string(p) << " " << z);
        CHECK(y[i] == uint64_t(e));
      }
    }
  }
}
