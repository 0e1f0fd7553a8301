// libdevice's transcendentals composed in the Triton language (PreludeTranscendental.cpp,
// and erfc, erfcx, normcdf, erfinv, erfcinv, normcdfinv from PreludeSpecial.cpp),
// run in the interpreter on fresh random inputs over each function's domain and
// compared with long double references: the largest error in units in the last
// place (ulp) must stay within the bound listed here (docs/frontend.md gives the
// measured numbers), and the special values (zeros, infinities, NaN, C99's pow and
// atan2 cases) must match C exactly.
#include "FrontendTestUtil.h"

#include "trident/interp/Interpreter.h"

#include <doctest/doctest.h>

#include <cfloat>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

using namespace trident;
using namespace trident::test;

namespace {

struct Fn {
  const char *name;
  long double (*ref)(long double, long double);
  double lo, hi;             // x drawn uniformly from [lo, hi] (or log-uniformly when logScale)
  double ylo, yhi;           // y, for the functions of two arguments
  double boundF32, boundF64; // allowed error, ulp
  bool logScale = false;
  bool binary = false;
};

const long double kPi = 3.141592653589793238462643383279502884L;

// sin(pi x) with the argument reduced exactly first (to |r| <= 1/2), so that the
// reference stays accurate next to the integers, where sin(pi x) is small.
long double sinpiReference(long double x) {
  long double r = std::remainder(x, 2.0L);
  r = r > 0.5L ? 1.0L - r : r < -0.5L ? -1.0L - r : r;
  return std::sin(kPi * r);
}

// exp(x^2) with x^2 as a rounded long double and its error (x^2 reaches 10^4 here).
long double expSquare(long double x) {
  long double h = x * x, l = std::fma(x, x, -h);
  return std::exp(h) * (1 + l);
}

long double erfcxReference(long double x) {
  return std::isinf(x) ? (x > 0 ? 0 : INFINITY) : expSquare(x) * std::erfc(x);
}

// erfc(-x / sqrt(2)) / 2 with the argument in two parts (1/sqrt(2) as a long double and
// the rest, the product's rounding error): its rounding alone would cost 2 z^2 ulp in
// the far tail.
long double normcdfReference(long double x) {
  if (std::isinf(x))
    return x > 0 ? 1 : 0;
  const long double c = 0.70710678118654752438L, cLo = 2.0947e-20L;
  long double zh = -x * c, zl = std::fma(-x, c, -zh) - x * cLo;
  return 0.5L * (std::erfc(zh) - zl * 1.1283791670955125738961589031215452L * std::exp(-zh * zh));
}

// The root of f(x) = target for an increasing f on [lo, hi]: bisection, then Newton
// steps with the derivative df.
long double invert(long double (*f)(long double), long double (*df)(long double), long double target,
                   long double lo, long double hi) {
  for (int i = 0; i < 200 && hi - lo > 0; ++i) {
    long double mid = 0.5L * (lo + hi);
    (f(mid) < target ? lo : hi) = mid;
  }
  long double x = 0.5L * (lo + hi);
  for (int i = 0; i < 2; ++i)
    x -= (f(x) - target) / df(x);
  return x;
}

long double erfDeriv(long double x) { return 1.1283791670955125738961589031215452L * std::exp(-x * x); }
long double negErfc(long double x) { return -std::erfc(x); }

long double erfinvReference(long double y) {
  if (std::fabs(y) >= 1)
    return std::fabs(y) == 1 ? std::copysign((long double)INFINITY, y) : NAN;
  if (std::fabs(y) < 1e-9L) // sqrt(pi)/2 (y + pi y^3 / 12 + ...)
    return 0.886226925452758013649083741671L * y * (1 + 0.2617993877991494365L * y * y);
  if (std::fabs(y) <= 0.5L)
    return invert([](long double x) { return std::erf(x); }, erfDeriv, y, -1, 1);
  // The tail through erfc: 1 - |y| is exact.
  long double x = invert(negErfc, erfDeriv, -(1 - std::fabs(y)), 0, 30);
  return std::copysign(x, y);
}

long double erfcinvReference(long double q) {
  if (q <= 0 || q >= 2)
    return q == 0 ? INFINITY : q == 2 ? -INFINITY : NAN;
  if (q > 1) // erfc(x) near 2 has too few bits left: erfcinv(q) = -erfcinv(2 - q)
    return -invert(negErfc, erfDeriv, -(2 - q), 0, 110);
  return invert(negErfc, erfDeriv, -q, -30, 110);
}

const Fn kFns[] = {
    {"expm1", [](long double x, long double) { return std::expm1(x); }, -20, 20, 0, 0, 3, 3},
    {"log1p", [](long double x, long double) { return std::log1p(x); }, -0.999, 1e6, 0, 0, 3, 3},
    {"tanh", [](long double x, long double) { return std::tanh(x); }, -12, 12, 0, 0, 5, 5},
    {"sinh", [](long double x, long double) { return std::sinh(x); }, -85, 85, 0, 0, 4, 4},
    {"cosh", [](long double x, long double) { return std::cosh(x); }, -85, 85, 0, 0, 3, 3},
    {"asinh", [](long double x, long double) { return std::asinh(x); }, -1e6, 1e6, 0, 0, 4, 4},
    {"acosh", [](long double x, long double) { return std::acosh(x); }, 1, 1e6, 0, 0, 4, 4},
    {"atanh", [](long double x, long double) { return std::atanh(x); }, -0.999, 0.999, 0, 0, 5, 5},
    {"exp10", [](long double x, long double) { return std::pow(10.0L, x); }, -37, 38, 0, 0, 3, 3},
    {"log10", [](long double x, long double) { return std::log10(x); }, 1e-30, 1e30, 0, 0, 3, 3, true},
    {"pow", [](long double x, long double y) { return std::pow(x, y); }, 1e-3, 1e3, -12, 12, 8, 8, true,
     true},
    {"atan", [](long double x, long double) { return std::atan(x); }, -1e4, 1e4, 0, 0, 3, 3},
    {"atan2", [](long double y, long double x) { return std::atan2(y, x); }, -10, 10, -10, 10, 4, 4, false,
     true},
    {"asin", [](long double x, long double) { return std::asin(x); }, -1, 1, 0, 0, 5, 5},
    {"acos", [](long double x, long double) { return std::acos(x); }, -1, 1, 0, 0, 5, 5},
    {"tan", [](long double x, long double) { return std::tan(x); }, -1.4, 1.4, 0, 0, 3, 3},
    {"sinpi", [](long double x, long double) { return sinpiReference(x); }, -8, 8, 0, 0, 3, 3},
    {"cospi",
     [](long double x, long double) { return sinpiReference(0.5L - std::fabs(std::remainder(x, 2.0L))); }, -8,
     8, 0, 0, 3, 3},
    {"cbrt", [](long double x, long double) { return std::cbrt(x); }, -1e6, 1e6, 0, 0, 2, 2},
    {"hypot", [](long double x, long double y) { return std::hypot(x, y); }, -1e3, 1e3, -1e3, 1e3, 3, 3,
     false, true},
    {"erfc", [](long double x, long double) { return std::erfc(x); }, -6, 27, 0, 0, 6, 6},
    {"erfcx", [](long double x, long double) { return erfcxReference(x); }, -9, 60, 0, 0, 5, 5},
    {"normcdf", [](long double x, long double) { return normcdfReference(x); }, -37, 8, 0, 0, 6, 6},
    {"erfinv", [](long double x, long double) { return erfinvReference(x); }, -1, 1, 0, 0, 6, 6},
    {"erfcinv", [](long double x, long double) { return erfcinvReference(x); }, 1e-300, 2, 0, 0, 4, 4, true},
    {"normcdfinv",
     [](long double x, long double) {
       return x == 0.5L ? 0.0L : -1.4142135623730950488016887242096981L * erfcinvReference(2 * x);
     },
     1e-300, 1, 0, 0, 4, 4, true},
};

template <class T> double ulpError(T got, long double ref) {
  if (std::fabs(ref) > (long double)std::numeric_limits<T>::max()) // overflows in T
    ref = std::copysign((long double)INFINITY, ref);
  if (std::isnan(ref) || std::isnan(got))
    return std::isnan(ref) && std::isnan(got) ? 0 : 1e30;
  if (std::isinf(ref) || std::isinf(got))
    return static_cast<long double>(got) == ref ? 0 : 1e30;
  int e;
  std::frexp(ref, &e);
  long double ulp =
      std::ldexp(1.0L, std::max(e, std::numeric_limits<T>::min_exponent) - std::numeric_limits<T>::digits);
  return double(std::fabs((long double)got - ref) / ulp);
}

std::string kernelFor(const Fn &f) {
  return std::string(kHeader) +
         "from triton.language.extra import libdevice\n\n@triton.jit\n"
         "def k(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):\n"
         "    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
         "    x = tl.load(x_ptr + i)\n"
         "    y = tl.load(y_ptr + i)\n"
         "    tl.store(out_ptr + i, libdevice." +
         f.name + (f.binary ? "(x, y))\n" : "(x))\n");
}

template <class T>
void run(const Fn &f, const std::vector<T> &x, const std::vector<T> &y, std::vector<T> &out) {
  bool f64 = sizeof(T) == 8;
  Compiled c =
      compileSource(kernelFor(f), "k", f64 ? "*fp64, *fp64, *fp64, 256" : "*fp32, *fp32, *fp32, 256");
  INFO(c.diags.str());
  REQUIRE(c.module);
  Type t = f64 ? Type::f64() : Type::f32();
  Interpreter interp;
  interp.addBuffer(const_cast<T *>(x.data()), x.size() * sizeof(T));
  interp.addBuffer(const_cast<T *>(y.data()), y.size() * sizeof(T));
  interp.addBuffer(out.data(), out.size() * sizeof(T));
  Diagnostics diags;
  std::vector<KernelArg> args = {KernelArg::pointer(x.data(), t), KernelArg::pointer(y.data(), t),
                                 KernelArg::pointer(out.data(), t)};
  bool ok = interp.run(*c.module, "k", args, {uint32_t(x.size() / 256), 1, 1}, diags);
  INFO(diags.str());
  REQUIRE(ok);
}

template <class T> void measure(uint32_t seed) {
  std::mt19937_64 rng(seed);
  const size_t n = 2048;
  for (const Fn &f : kFns) {
    std::string fname = f.name;
    CAPTURE(fname);
    std::vector<T> x(n), y(n), out(n);
    for (size_t i = 0; i < n; ++i) {
      double u = std::uniform_real_distribution<double>(0, 1)(rng);
      x[i] = T(f.logScale ? std::exp(std::log(f.lo) + u * (std::log(f.hi) - std::log(f.lo)))
                          : f.lo + u * (f.hi - f.lo));
      double v = std::uniform_real_distribution<double>(0, 1)(rng);
      y[i] = T(f.ylo + v * (f.yhi - f.ylo));
    }
    if (std::string(f.name) == "expm1" || std::string(f.name) == "tanh" || std::string(f.name) == "log1p")
      for (size_t i = 0; i < n / 8; ++i) // small magnitudes, where the naive formulas cancel
        x[i] = T(std::ldexp(double(x[i]) / 20, -int(rng() % 30)));
    if (std::string(f.name) == "erfinv")
      for (size_t i = 0; i < n / 4; ++i) // the tails, next to +-1
        x[i] =
            T(std::copysign(1 - std::ldexp(double(rng() % 1000 + 1) / 1000, -int(rng() % 50)), double(x[i])));
    if (std::string(f.name) == "erfcinv")
      for (size_t i = 0; i < n / 4; ++i) // the upper tail, next to 2
        x[i] = T(2 - double(x[i]) / 2);
    run(f, x, y, out);
    double worst = 0;
    T worstX = 0;
    for (size_t i = 0; i < n; ++i) {
      double e = ulpError(out[i], f.ref((long double)x[i], (long double)y[i]));
      if (e > worst) {
        worst = e;
        worstX = x[i];
      }
    }
    MESSAGE(std::string(f.name) << (sizeof(T) == 8 ? " fp64" : " fp32") << ": max error " << worst
                                << " ulp (at x = " << worstX << ")");
    CHECK(worst <= (sizeof(T) == 8 ? f.boundF64 : f.boundF32));
  }
}

} // namespace

TEST_CASE("libdevice transcendentals: accuracy in ulp against long double, fp32") {
  uint32_t seed = testSeed();
  CAPTURE(seed);
  measure<float>(seed);
}

TEST_CASE("libdevice transcendentals: accuracy in ulp against long double, fp64") {
  uint32_t seed = testSeed();
  CAPTURE(seed);
  measure<double>(seed);
}

TEST_CASE("libdevice transcendentals: special values as C gives them") {
  const double inf = INFINITY, nan = NAN;
  std::vector<double> xs = {0.0, -0.0, 1.0, -1.0, 2.0, -2.0,   0.5, -0.5,
                            3.0, -3.0, inf, -inf, nan, 1e-300, 7.5, -7.5};
  std::vector<double> xv, yv;
  for (double a : xs)
    for (double b : xs) {
      xv.push_back(a);
      yv.push_back(b);
    }
  xv.resize(512, 0.25);
  yv.resize(512, 0.25);
  auto same = [](double a, long double b) {
    if (std::fabs(b) > (long double)DBL_MAX)
      b = std::copysign((long double)INFINITY, b);
    return (std::isnan(a) && std::isnan(b)) || (a == double(b) && std::signbit(a) == std::signbit(b));
  };
  for (const Fn &f : kFns) {
    std::string name = f.name;
    if (name == "sinpi" || name == "cospi")
      continue; // no C reference for their signed zeros
    CAPTURE(name);
    std::vector<double> out(xv.size());
    run(f, xv, yv, out);
    for (size_t i = 0; i < xs.size() * xs.size(); ++i) {
      CAPTURE(xv[i]);
      CAPTURE(yv[i]);
      long double ref = f.ref(xv[i], yv[i]);
      bool exactCase = std::isnan(ref) || std::isinf(ref) || ref == 0 || xv[i] == 0 || std::isinf(xv[i]) ||
                       (f.binary && (yv[i] == 0 || std::isinf(yv[i]) || std::isnan(yv[i]))) ||
                       std::isnan(xv[i]);
      CAPTURE(out[i]);
      CAPTURE(double(ref));
      if (exactCase)
        CHECK(same(out[i], ref));
      else
        CHECK(ulpError(out[i], ref) <= 8);
    }
  }
}
