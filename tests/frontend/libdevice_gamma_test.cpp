// libdevice's lgamma, tgamma and Bessel functions (PreludeGamma.cpp, PreludeBessel.cpp),
// run in the interpreter on fresh random inputs and compared with the C library's long
// double functions (checked against mpmath at 200 bits when the bounds were set: within
// 0.02 ulp of fp64). Errors are in units in the last place of a scale that depends on
// the function: the result itself (relative error), or, for the oscillating Bessel
// functions past their first zero, the larger of the result and the envelope
// min(1, sqrt(2 / (pi |x|))), since next to a zero only the absolute error is
// meaningful (CUDA documents absolute errors there too). docs/frontend.md gives the
// measured numbers. Special values must match C, except the orders below zero of jn
// and yn, which give NaN as CUDA documents.
#include "FrontendTestUtil.h"

#include "trident/interp/Interpreter.h"

#include <doctest/doctest.h>

#include <cfloat>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace trident;
using namespace trident::test;

namespace {

enum class Scale {
  Relative,    // |ref|
  Envelope,    // max(|ref|, envelope)
  Unit,        // max(|ref|, 1): lgamma next to its zeros on the negative axis
  OrderTail,   // |ref| while |x| < the order (no zero there yet), then Envelope
};

struct Range {
  double lo, hi;
  bool logScale;
  int nlo, nhi; // the order, for jn and yn
  Scale scale;
};

struct Fn {
  const char *name;
  long double (*ref)(int, long double);
  bool order; // jn, yn: f(n, x)
  std::vector<Range> ranges;
  double boundF32, boundF64; // allowed error, in ulp of the scale
};

// Order of magnitude of J and Y past their first zero.
long double envelope(long double x) { return std::min(1.0L, std::sqrt(2 / (3.14159265358979323846L * std::fabs(x)))); }

// I0 and I1 of |x|: libstdc++'s long double ones, which throw beyond their range (and
// the results overflow double from 713.99 on).
long double besselI(long double nu, long double x) {
  if (std::isnan(x))
    return x;
  if (std::fabs(x) > 750)
    return INFINITY;
  return std::cyl_bessel_i(nu, std::fabs(x));
}

const Fn kFns[] = {
    {"lgamma",
     [](int, long double x) { return lgammal(x); },
     false,
     {{1e-3, 10, false, 0, 0, Scale::Relative},
      {10, 1e6, true, 0, 0, Scale::Relative},
      {1e-300, 1e-3, true, 0, 0, Scale::Relative},
      {-10, 0, false, 0, 0, Scale::Unit},
      {-170, -10, false, 0, 0, Scale::Unit}},
     5, 5},
    {"tgamma",
     [](int, long double x) { return tgammal(x); },
     false,
     {{1e-3, 34.5, false, 0, 0, Scale::Relative},
      {1e-300, 1e-3, true, 0, 0, Scale::Relative},
      {-10, 0, false, 0, 0, Scale::Relative},
      {-40, -10, false, 0, 0, Scale::Relative}},
     6, 6},
    {"j0",
     [](int, long double x) { return j0l(x); },
     false,
     {{-8, 8, false, 0, 0, Scale::Relative},
      {-100, 100, false, 0, 0, Scale::Envelope},
      {100, 1e6, true, 0, 0, Scale::Envelope}},
     6, 7},
    {"j1",
     [](int, long double x) { return j1l(x); },
     false,
     {{-8, 8, false, 0, 0, Scale::Relative},
      {-100, 100, false, 0, 0, Scale::Envelope},
      {100, 1e6, true, 0, 0, Scale::Envelope}},
     6, 6},
    {"y0",
     [](int, long double x) { return y0l(x); },
     false,
     {{1e-300, 0.5, true, 0, 0, Scale::Relative},
      {0.5, 100, false, 0, 0, Scale::Envelope},
      {100, 1e6, true, 0, 0, Scale::Envelope}},
     8, 7},
    {"y1",
     [](int, long double x) { return y1l(x); },
     false,
     {{1e-300, 1.5, true, 0, 0, Scale::Relative},
      {1.5, 100, false, 0, 0, Scale::Envelope},
      {100, 1e6, true, 0, 0, Scale::Envelope}},
     9, 8},
    {"jn",
     [](int n, long double x) { return jnl(n, x); },
     true,
     {{-60, 60, false, 2, 40, Scale::OrderTail}, {1e-20, 1, true, 2, 12, Scale::Relative}},
     11, 11},
    {"yn",
     [](int n, long double x) { return ynl(n, x); },
     true,
     {{0.05, 60, false, 2, 40, Scale::OrderTail}},
     12, 12},
    {"cyl_bessel_i0",
     [](int, long double x) { return besselI(0, x); },
     false,
     {{-20, 20, false, 0, 0, Scale::Relative}, {-700, 700, false, 0, 0, Scale::Relative}},
     6, 6},
    {"cyl_bessel_i1",
     [](int, long double x) { return std::copysign(besselI(1, x), x); },
     false,
     {{-20, 20, false, 0, 0, Scale::Relative}, {-700, 700, false, 0, 0, Scale::Relative}},
     6, 6},
};

// The error of got against ref in ulp of T at the magnitude `scale`.
template <class T> double ulpError(T got, long double ref, long double scale) {
  if (std::fabs(ref) > (long double)std::numeric_limits<T>::max()) // overflows in T
    ref = std::copysign((long double)INFINITY, ref);
  if (std::isnan(ref) || std::isnan(got))
    return std::isnan(ref) && std::isnan(got) ? 0 : 1e30;
  if (std::isinf(ref) || std::isinf(got))
    return static_cast<long double>(got) == ref ? 0 : 1e30;
  int e;
  std::frexp(scale, &e);
  long double ulp =
      std::ldexp(1.0L, std::max(e, std::numeric_limits<T>::min_exponent) - std::numeric_limits<T>::digits);
  return double(std::fabs((long double)got - ref) / ulp);
}

long double scaleOf(Scale s, long double ref, long double x, int n) {
  switch (s) {
  case Scale::Relative:
    return std::fabs(ref);
  case Scale::Unit:
    return std::max(std::fabs(ref), 1.0L);
  case Scale::OrderTail:
    if (std::fabs(x) < n)
      return std::fabs(ref);
    [[fallthrough]];
  case Scale::Envelope:
    break;
  }
  return std::max(std::fabs(ref), envelope(x));
}

std::string kernelFor(const Fn &f) {
  return std::string(kHeader) +
         "from triton.language.extra import libdevice\n\n@triton.jit\n"
         "def k(x_ptr, n_ptr, out_ptr, BLOCK: tl.constexpr):\n"
         "    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
         "    x = tl.load(x_ptr + i)\n"
         "    n = tl.load(n_ptr + i)\n"
         "    tl.store(out_ptr + i, libdevice." +
         f.name + (f.order ? "(n, x))\n" : "(x))\n");
}

template <class T>
void run(const Fn &f, const std::vector<T> &x, const std::vector<int32_t> &n, std::vector<T> &out) {
  bool f64 = sizeof(T) == 8;
  Compiled c = compileSource(kernelFor(f), "k", f64 ? "*fp64, *i32, *fp64, 256" : "*fp32, *i32, *fp32, 256");
  INFO(c.diags.str());
  REQUIRE(c.module);
  Type t = f64 ? Type::f64() : Type::f32();
  Interpreter interp;
  interp.addBuffer(const_cast<T *>(x.data()), x.size() * sizeof(T));
  interp.addBuffer(const_cast<int32_t *>(n.data()), n.size() * sizeof(int32_t));
  interp.addBuffer(out.data(), out.size() * sizeof(T));
  Diagnostics diags;
  std::vector<KernelArg> args = {KernelArg::pointer(x.data(), t), KernelArg::pointer(n.data(), Type::i32()),
                                 KernelArg::pointer(out.data(), t)};
  bool ok = interp.run(*c.module, "k", args, {uint32_t(x.size() / 256), 1, 1}, diags);
  INFO(diags.str());
  REQUIRE(ok);
}

template <class T> void measure(uint32_t seed) {
  std::mt19937_64 rng(seed);
  const size_t n = 1024;
  const bool f64 = sizeof(T) == 8;
  for (const Fn &f : kFns) {
    std::string fname = f.name;
    CAPTURE(fname);
    for (const Range &r : f.ranges) {
      double lo = r.lo, hi = r.hi;
      if (!f64) { // fp32's own overflow and underflow limits
        if (fname == "tgamma" && lo < -10)
          lo = -38;
        if (fname.rfind("cyl_bessel", 0) == 0 && hi > 20) {
          lo = -88;
          hi = 88;
        }
        if (r.logScale && lo < 1e-30)
          lo = 1e-30;
        if (fname == "lgamma" && lo < -10)
          lo = -30;
      }
      if (f64 && fname == "tgamma" && r.lo == 1e-3)
        hi = 171.5;
      if (f64 && fname == "tgamma" && r.lo == -40)
        lo = -180;
      std::vector<T> x(n), out(n);
      std::vector<int32_t> order(n, 0);
      for (size_t i = 0; i < n; ++i) {
        double u = std::uniform_real_distribution<double>(0, 1)(rng);
        x[i] = T(r.logScale ? std::exp(std::log(lo) + u * (std::log(hi) - std::log(lo))) : lo + u * (hi - lo));
        if (f.order)
          order[i] = r.nlo + int(rng() % uint64_t(r.nhi - r.nlo + 1));
      }
      if (fname == "cyl_bessel_i1" && r.lo == -20) // 6.8 ulp in fp64 before the fma series
        x[0] = T(0x1.eefa549212b28p+3);
      if (fname == "lgamma" && r.lo == 1e-3)
        for (size_t i = 0; i < n / 8; ++i) // next to the zeros at 1 and 2
          x[i] = T((i % 2 ? 1.0 : 2.0) + std::ldexp(double(x[i]) / 10 - 0.5, -int(rng() % 40)));
      run(f, x, order, out);
      double worst = 0;
      T worstX = 0;
      int worstN = 0;
      for (size_t i = 0; i < n; ++i) {
        if (x[i] <= 0 && std::floor(x[i]) == x[i] && (fname == "lgamma" || fname == "tgamma"))
          continue; // a pole: the special values below
        long double ref = f.ref(order[i], (long double)x[i]);
        double e = ulpError(out[i], ref, scaleOf(r.scale, ref, x[i], order[i]));
        if (e > worst) {
          worst = e;
          worstX = x[i];
          worstN = order[i];
        }
      }
      std::string orders = f.order ? " n in [" + std::to_string(r.nlo) + ", " + std::to_string(r.nhi) + "]" : "";
      std::string at = f.order ? ", n = " + std::to_string(worstN) : "";
      MESSAGE(fname << (f64 ? " fp64" : " fp32") << " on [" << lo << ", " << hi << "]" << orders << ": max error "
                    << worst << " ulp (at x = " << double(worstX) << " = " << hexFloat(double(worstX)) << at << ")");
      CHECK(worst <= (f64 ? f.boundF64 : f.boundF32));
    }
  }
}

} // namespace

TEST_CASE("libdevice gamma and Bessel functions: accuracy against long double, fp32") {
  uint32_t seed = testSeed();
  CAPTURE(seed);
  measure<float>(seed);
}

TEST_CASE("libdevice gamma and Bessel functions: accuracy against long double, fp64") {
  uint32_t seed = testSeed();
  CAPTURE(seed);
  measure<double>(seed);
}

TEST_CASE("libdevice gamma and Bessel functions: special values as C gives them") {
  const double inf = INFINITY, nan = NAN;
  std::vector<double> xs = {0.0,  -0.0,  1.0,    2.0,    -1.0,  -2.0,   -3.0,  inf,   -inf,   nan,
                            0.5,  -0.5,  171.62, 171.7,  1e300, -1e300, -185.5, -200.5, -201.5, 1e-310,
                            -1e-310, 3e-5, 1e6,   -7.25, 8.0,    -8.0,  4.0,   5.0,   1e-200, 5e307};
  std::vector<int32_t> ns = {0, 1, 2, 3, 7, 30};
  std::vector<double> xv;
  std::vector<int32_t> nv;
  for (int32_t n : ns)
    for (double x : xs) {
      xv.push_back(x);
      nv.push_back(n);
    }
  size_t used = xv.size();
  xv.resize(256, 0.25);
  nv.resize(256, 0);
  auto same = [](double a, long double b) {
    if (std::fabs(b) > (long double)DBL_MAX)
      b = std::copysign((long double)INFINITY, b);
    return (std::isnan(a) && std::isnan(b)) || (a == double(b) && std::signbit(a) == std::signbit(b));
  };
  for (const Fn &f : kFns) {
    std::string name = f.name;
    CAPTURE(name);
    std::vector<double> out(xv.size());
    run(f, xv, nv, out);
    for (size_t i = 0; i < used; ++i) {
      if (!f.order && nv[i] != 0)
        continue;
      double x = xv[i];
      CAPTURE(x);
      CAPTURE(nv[i]);
      long double ref = f.ref(nv[i], x);
      CAPTURE(out[i]);
      CAPTURE(double(ref));
      bool exactCase = std::isnan(ref) || std::isinf(ref) || ref == 0 || x == 0 || std::isinf(x) || std::isnan(x) ||
                       std::fabs(ref) < DBL_MIN;
      if (exactCase)
        CHECK(same(out[i], ref));
      else
        CHECK(ulpError(out[i], ref, std::max(std::fabs(ref), envelope(x))) <= 8);
    }
  }
  // Orders below zero: NaN, as CUDA documents for jn and yn (C reflects them).
  std::vector<double> x(256, 1.5);
  std::vector<int32_t> n(256, -1);
  for (const Fn &f : kFns)
    if (f.order) {
      std::vector<double> out(256);
      run(f, x, n, out);
      CHECK(std::isnan(out[0]));
    }
}
