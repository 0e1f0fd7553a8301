// libdevice's directed roundings (PreludeRounding.cpp) and conversions with a rounding
// mode, run in the interpreter and compared bit for bit with the host's IEEE arithmetic
// under fesetround (glibc's fma and the SSE add/mul/div/sqrt honour the mode): random bit
// patterns, cancelling sums, products and quotients that round to subnormals or
// overflow, and the special values.
#include "FrontendTestUtil.h"

#include "trident/interp/Interpreter.h"

#include <doctest/doctest.h>

#include <cfenv>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <vector>

using namespace trident;
using namespace trident::test;

namespace {

template <class T> uint64_t bitsOf(T v) {
  if constexpr (sizeof(T) == 8) {
    uint64_t b;
    std::memcpy(&b, &v, 8);
    return b;
  } else {
    uint32_t b;
    std::memcpy(&b, &v, 4);
    return b;
  }
}

template <class T> T fromBits(uint64_t b) {
  T v;
  if constexpr (sizeof(T) == 8) {
    std::memcpy(&v, &b, 8);
  } else {
    uint32_t u = uint32_t(b);
    std::memcpy(&v, &u, 4);
  }
  return v;
}

template <class T> bool same(T a, T b) { return (std::isnan(a) && std::isnan(b)) || bitsOf(a) == bitsOf(b); }

// op(x, y, z) under `mode`; the volatile accesses keep the compiler from moving the
// arithmetic across the mode changes.
template <class T> T reference(const std::string &op, T x, T y, T z, int mode) {
  volatile T vx = x, vy = y, vz = z;
  std::fesetround(mode);
  T r;
  if (op == "add")
    r = vx + vy;
  else if (op == "sub")
    r = vx - vy;
  else if (op == "mul")
    r = vx * vy;
  else if (op == "div")
    r = vx / vy;
  else if (op == "rcp")
    r = T(1) / vx;
  else if (op == "sqrt")
    r = std::sqrt(T(vx));
  else
    r = std::fma(T(vx), T(vy), T(vz));
  volatile T vr = r;
  std::fesetround(FE_TONEAREST);
  return vr;
}

// Inputs that reach every path: random finite bit patterns, operands of like and of
// opposite magnitude, sums that cancel, products near the subnormals and near overflow.
template <class T>
void inputs(std::mt19937_64 &rng, size_t n, std::vector<T> &x, std::vector<T> &y, std::vector<T> &z) {
  using L = std::numeric_limits<T>;
  const int bits = sizeof(T) * 8;
  auto any = [&] {
    for (;;) {
      T v = fromBits<T>(rng() >> (64 - bits));
      if (std::isfinite(v))
        return v;
    }
  };
  auto scaled = [&](int lo, int hi) {
    double m = std::uniform_real_distribution<double>(1, 2)(rng);
    int e = lo + int(rng() % uint64_t(hi - lo + 1));
    return T(std::ldexp(m, e) * ((rng() & 1) ? -1 : 1));
  };
  const T specials[] = {
      T(0),           T(-0.0),  T(1),      T(-1),           L::infinity(),    -L::infinity(),
      L::quiet_NaN(), L::max(), -L::max(), L::denorm_min(), -L::denorm_min(), L::min(),
      T(3),           T(0.1)};
  const int emax = L::max_exponent, emin = L::min_exponent - L::digits;
  x.resize(n);
  y.resize(n);
  z.resize(n);
  for (size_t i = 0; i < n; ++i) {
    switch (i % 8) {
    case 0: x[i] = any(), y[i] = any(), z[i] = any(); break;
    case 1: x[i] = scaled(-4, 4), y[i] = scaled(-4, 4), z[i] = scaled(-8, 8); break;
    case 2: // cancellation: z close to -x * y, y close to -x
      x[i] = scaled(-30, 30), y[i] = scaled(-30, 30);
      z[i] = T(-(double(x[i]) * double(y[i])) * (1 + std::ldexp(double(rng() % 64) - 32, -L::digits)));
      if (i % 16 == 2)
        y[i] = T(-x[i] * (1 + std::ldexp(double(rng() % 8), -L::digits)));
      break;
    case 3: // near the subnormals
      x[i] = scaled(emin / 2 - 4, emin / 2 + 4), y[i] = scaled(emin / 2 - 4, emin / 2 + 4);
      z[i] = scaled(emin, emin + 2 * L::digits);
      break;
    case 4: // one tiny operand, one large
      x[i] = scaled(emin, emin + 10), y[i] = scaled(L::digits, emax - 1), z[i] = scaled(emin, emin + 60);
      break;
    case 5: // near overflow
      x[i] = scaled(emax / 2 - 2, emax / 2 + 2), y[i] = scaled(emax / 2 - 2, emax / 2 + 2),
      z[i] = scaled(emax - 3, emax - 1);
      break;
    case 6: x[i] = specials[rng() % 14], y[i] = specials[rng() % 14], z[i] = specials[rng() % 14]; break;
    default: x[i] = scaled(emin, emax - 1), y[i] = any(), z[i] = scaled(-60, 60); break;
    }
  }
}

// op_<mode> (mode rz, rd, ru or rn: an index into kAllModes) on x, y, z (a multiple of
// 512 long) in the interpreter, compared by bits with the host under fesetround.
const int kAllModes[] = {FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD, FE_TONEAREST};
const char *kAllModeNames[] = {"rz", "rd", "ru", "rn"};

template <class T>
void checkOpOn(const std::string &op, int m, std::vector<T> x, std::vector<T> y, std::vector<T> z) {
  const size_t n = x.size();
  std::string name = op + "_" + kAllModeNames[m];
  std::string call = op == "rcp" || op == "sqrt" ? "(x)" : op == "fma" ? "(x, y, z)" : "(x, y)";
  std::string src = std::string(kHeader) +
                    "from triton.language.extra import libdevice\n\n@triton.jit\n"
                    "def k(x_ptr, y_ptr, z_ptr, out_ptr, BLOCK: tl.constexpr):\n"
                    "    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
                    "    x = tl.load(x_ptr + i)\n    y = tl.load(y_ptr + i)\n    z = tl.load(z_ptr + i)\n"
                    "    tl.store(out_ptr + i, libdevice." +
                    name + call + ")\n";
  bool f64 = sizeof(T) == 8;
  Compiled c =
      compileSource(src, "k", f64 ? "*fp64, *fp64, *fp64, *fp64, 512" : "*fp32, *fp32, *fp32, *fp32, 512");
  INFO(c.diags.str());
  REQUIRE(c.module);
  std::vector<T> out(n);
  Type t = f64 ? Type::f64() : Type::f32();
  Interpreter interp;
  for (std::vector<T> *b : {&x, &y, &z, &out})
    interp.addBuffer(b->data(), b->size() * sizeof(T));
  std::vector<KernelArg> args = {KernelArg::pointer(x.data(), t), KernelArg::pointer(y.data(), t),
                                 KernelArg::pointer(z.data(), t), KernelArg::pointer(out.data(), t)};
  Diagnostics diags;
  REQUIRE(interp.run(*c.module, "k", args, {uint32_t(n / 512), 1, 1}, diags));
  int wrong = 0;
  for (size_t i = 0; i < n; ++i) {
    T ref = reference(op, x[i], y[i], z[i], kAllModes[m]);
    if (!same(out[i], ref) && wrong++ < 3) {
      CAPTURE(name);
      CAPTURE(x[i]);
      CAPTURE(y[i]);
      CAPTURE(z[i]);
      CAPTURE(out[i]);
      CAPTURE(ref);
      CHECK(same(out[i], ref));
    }
  }
  CHECK_MESSAGE(wrong == 0, name << (f64 ? " fp64" : " fp32") << ": " << wrong << " of " << n << " differ");
}

template <class T> void checkOp(const std::string &op, int m, uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> x, y, z;
  inputs(rng, 4096, x, y, z);
  checkOpOn(op, m, x, y, z);
}

} // namespace

TEST_CASE(
    "libdevice: directed roundings (add/sub/mul/div/rcp/sqrt/fma _rz _rd _ru) are IEEE's, fp32 and fp64") {
  uint32_t seed = testSeed();
  CAPTURE(seed);
  for (const char *op : {"add", "sub", "mul", "div", "rcp", "sqrt", "fma"})
    for (int m = 0; m < 3; ++m) {
      checkOp<float>(op, m, seed + m);
      checkOp<double>(op, m, seed + m);
    }
}

namespace {

// fma's four modes on products that x * y + z cancels in part: the special kernel's
// inputs (tests/frontend/data/libdevice_special.py: x = (i - 100) / 100, y = 0.75 - x,
// z = 0.1, where x * y + z passes through 0), then z = -x * y scaled by 1 +- 2^-k for
// every k up to the precision (k bits of the sum cancel), with random operands.
template <class T> void checkFmaCancelling(uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> x, y, z;
  for (int i = 0; i < 200; ++i) {
    x.push_back(T(i - 100) / T(100));
    y.push_back(T(0.75) - x.back());
    z.push_back(T(0.1));
  }
  const int digits = std::numeric_limits<T>::digits;
  while (x.size() < 2048) {
    double m = std::uniform_real_distribution<double>(1, 2)(rng);
    T a = T(std::ldexp(m, int(rng() % 41) - 20) * ((rng() & 1) ? -1 : 1));
    T b = T(std::uniform_real_distribution<double>(-4, 4)(rng));
    int k = 1 + int(rng() % uint64_t(digits + 4));
    double s = (rng() & 1) ? 1 + std::ldexp(1.0, -k) : 1 - std::ldexp(1.0, -k);
    x.push_back(a);
    y.push_back(b);
    z.push_back(T(-(double(a) * double(b)) * s));
  }
  for (int m = 0; m < 4; ++m)
    checkOpOn("fma", m, x, y, z);
}

} // namespace

TEST_CASE("libdevice: fma_rz/rd/ru/rn on partly cancelling x * y + z, fp32 and fp64") {
  uint32_t seed = testSeed();
  CAPTURE(seed);
  checkFmaCancelling<float>(seed);
  checkFmaCancelling<double>(seed + 1);
}

namespace {

// One kernel, `call` applied to the input; results compared by bits.
template <class In, class Out>
std::vector<Out> runUnary(const std::string &call, const std::vector<In> &x, const char *inType,
                          const char *outType, Type tin, Type tout, const std::vector<In> *y = nullptr) {
  std::string src = std::string(kHeader) +
                    "from triton.language.extra import libdevice\n\n@triton.jit\n"
                    "def k(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):\n"
                    "    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
                    "    x = tl.load(x_ptr + i)\n    y = tl.load(y_ptr + i)\n"
                    "    tl.store(out_ptr + i, libdevice." +
                    call + ")\n";
  std::string sig = std::string("*") + inType + ", *" + inType + ", *" + outType + ", 256";
  Compiled c = compileSource(src, "k", sig);
  INFO(c.diags.str());
  REQUIRE(c.module);
  std::vector<In> yv = y ? *y : x;
  std::vector<Out> out(x.size());
  Interpreter interp;
  interp.addBuffer(const_cast<In *>(x.data()), x.size() * sizeof(In));
  interp.addBuffer(yv.data(), yv.size() * sizeof(In));
  interp.addBuffer(out.data(), out.size() * sizeof(Out));
  std::vector<KernelArg> args = {KernelArg::pointer(x.data(), tin), KernelArg::pointer(yv.data(), tin),
                                 KernelArg::pointer(out.data(), tout)};
  Diagnostics diags;
  bool ok = interp.run(*c.module, "k", args, {uint32_t(x.size() / 256), 1, 1}, diags);
  INFO(diags.str());
  REQUIRE(ok);
  return out;
}

// C's remainder with IEEE 754's sign for a zero result (x's): glibc 2.36 returns +0 for
// remainder(-0x1.f7561c618821dp-920, -0x0.000000000002p-1022), a multiple of a subnormal.
template <class T> T remainderRef(T x, T y) {
  T r = std::remainder(x, y);
  return r == 0 ? std::copysign(T(0), x) : r;
}

template <class T> void checkFmod(uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::vector<T> x, y, z;
  inputs(rng, 4096, x, y, z);
  for (size_t i = 0; i < x.size(); i += 3) // quotients of every size, small ones too
    y[i] =
        T(std::ldexp(double(x[i]), -int(rng() % (sizeof(T) == 8 ? 2200 : 300))) * (1.0 + double(rng() % 8)));
  for (size_t i = 1; i < x.size(); i += 6) // exact halves for remainder's ties
    y[i] = T(2.0 * double(x[i]) / double(1 + 2 * (rng() % 9)));
  Type t = sizeof(T) == 8 ? Type::f64() : Type::f32();
  const char *ty = sizeof(T) == 8 ? "fp64" : "fp32";
  std::vector<T> f = runUnary<T, T>("fmod(x, y)", x, ty, ty, t, t, &y);
  std::vector<T> r = runUnary<T, T>("remainder(x, y)", x, ty, ty, t, t, &y);
  int wrong = 0;
  for (size_t i = 0; i < x.size(); ++i) {
    T wantF = std::fmod(x[i], y[i]), wantR = remainderRef(x[i], y[i]);
    if ((!same(f[i], wantF) || !same(r[i], wantR)) && wrong++ < 3) {
      std::string input = hexFloat(x[i]) + ", " + hexFloat(y[i]);
      std::string got = hexFloat(f[i]) + ", " + hexFloat(r[i]);
      std::string want = hexFloat(wantF) + ", " + hexFloat(wantR);
      CAPTURE(input); // x, y
      CAPTURE(got);   // fmod, remainder
      CAPTURE(want);
      CHECK(same(f[i], wantF));
      CHECK(same(r[i], wantR));
    }
  }
  CHECK_MESSAGE(wrong == 0, ty << " fmod/remainder: " << wrong << " differ");
}

} // namespace

TEST_CASE("libdevice: fmod and remainder are C's bit for bit, fp32 and fp64") {
  uint32_t seed = testSeed();
  CAPTURE(seed);
  checkFmod<float>(seed);
  checkFmod<double>(seed + 1);
}

TEST_CASE("libdevice: conversions with a rounding mode (double2float_rd, ll2float_ru, float2int_rz ...)") {
  uint32_t seed = testSeed();
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  std::vector<double> d, unused1, unused2;
  inputs(rng, 2048, d, unused1, unused2);
  std::vector<int64_t> ll(2048);
  for (size_t i = 0; i < ll.size(); ++i)
    ll[i] = i % 4 == 0   ? int64_t(rng())
            : i % 4 == 1 ? int64_t(rng() >> (rng() % 64))
            : i % 4 == 2 ? -int64_t(rng() >> 30)
                         : int64_t(i) - 1000;
  ll[0] = INT64_MAX, ll[1] = INT64_MIN, ll[2] = -1, ll[3] = 0;
  const int allModes[] = {FE_TOWARDZERO, FE_DOWNWARD, FE_UPWARD, FE_TONEAREST};
  const char *names[] = {"rz", "rd", "ru", "rn"};
  for (int m = 0; m < 4; ++m) {
    std::string sfx = std::string("_") + names[m];
    CAPTURE(sfx);
    // fp64 to fp32.
    std::vector<float> f =
        runUnary<double, float>("double2float" + sfx + "(x)", d, "fp64", "fp32", Type::f64(), Type::f32());
    for (size_t i = 0; i < d.size(); ++i) {
      volatile double v = d[i];
      std::fesetround(allModes[m]);
      volatile float ref = float(v);
      std::fesetround(FE_TONEAREST);
      if (!same(f[i], float(ref))) {
        CAPTURE(d[i]);
        CHECK(same(f[i], float(ref)));
      }
    }
    // fp64 to int32 and int64, saturating, NaN to 0.
    auto roundBy = [&](double v) {
      return m == 0 ? std::trunc(v) : m == 1 ? std::floor(v) : m == 2 ? std::ceil(v) : std::nearbyint(v);
    };
    std::vector<int32_t> i32 =
        runUnary<double, int32_t>("double2int" + sfx + "(x)", d, "fp64", "i32", Type::f64(), Type::i32());
    std::vector<int64_t> i64 =
        runUnary<double, int64_t>("double2ll" + sfx + "(x)", d, "fp64", "i64", Type::f64(), Type::i64());
    std::vector<int64_t> u64 =
        runUnary<double, int64_t>("double2ull" + sfx + "(x)", d, "fp64", "i64", Type::f64(), Type::i64());
    for (size_t i = 0; i < d.size(); ++i) {
      double r = roundBy(d[i]);
      int32_t e32 = std::isnan(r)       ? 0
                    : r >= 2147483648.0 ? INT32_MAX
                    : r < -2147483648.0 ? INT32_MIN
                                        : int32_t(r);
      int64_t e64 = std::isnan(r) ? 0 : r >= 0x1p63 ? INT64_MAX : r < -0x1p63 ? INT64_MIN : int64_t(r);
      uint64_t eu = std::isnan(r) || r < 0 ? 0 : r >= 0x1p64 ? UINT64_MAX : uint64_t(r);
      CAPTURE(d[i]);
      CHECK(i32[i] == e32);
      CHECK(i64[i] == e64);
      CHECK(uint64_t(u64[i]) == eu);
    }
    // int64 to fp32 and fp64, uint64 to fp32.
    std::vector<float> lf =
        runUnary<int64_t, float>("ll2float" + sfx + "(x)", ll, "i64", "fp32", Type::i64(), Type::f32());
    std::vector<double> ld =
        runUnary<int64_t, double>("ll2double" + sfx + "(x)", ll, "i64", "fp64", Type::i64(), Type::f64());
    std::vector<float> uf =
        runUnary<int64_t, float>("ull2float" + sfx + "(x)", ll, "i64", "fp32", Type::i64(), Type::f32());
    std::vector<float> i2f = runUnary<int64_t, float>("int2float" + sfx + "(x.to(tl.int32))", ll, "i64",
                                                      "fp32", Type::i64(), Type::f32());
    for (size_t i = 0; i < ll.size(); ++i) {
      volatile int64_t v = ll[i];
      volatile uint64_t u = uint64_t(ll[i]);
      volatile int32_t v32 = int32_t(ll[i]);
      std::fesetround(allModes[m]);
      volatile float rf = float(v), ru = float(u), r32 = float(v32);
      volatile double rd2 = double(v);
      std::fesetround(FE_TONEAREST);
      CAPTURE(ll[i]);
      CHECK(same(lf[i], float(rf)));
      CHECK(same(ld[i], double(rd2)));
      CHECK(same(uf[i], float(ru)));
      CHECK(same(i2f[i], float(r32)));
    }
  }
}
