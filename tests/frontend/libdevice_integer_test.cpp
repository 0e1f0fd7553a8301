// libdevice's mul24, hadd, rhadd, sad, byte_perm (signed and unsigned), rsqrt_rn and the
// norms (PreludeInteger.cpp), run in the interpreter: the integer ones bit for bit
// against CUDA's documented definitions written here in C++, rsqrt_rn against the
// correctly rounded 1/sqrt(x) (decided with exact integer arithmetic), the norms
// against long double in ulp.
#include "FrontendTestUtil.h"

#include "trident/interp/Interpreter.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

using namespace trident;
using namespace trident::test;

namespace {

// Runs `expr` (of a, b, c, d loaded from four buffers of `type`) into an output buffer
// of `outType` over n elements.
template <class In, class Out>
std::vector<Out> run(const std::string &expr, const char *type, const char *outType, const std::vector<In> &a,
                     const std::vector<In> &b, const std::vector<In> &c, const std::vector<In> &d) {
  std::string src = std::string(kHeader) +
                    "from triton.language.extra import libdevice\n\n@triton.jit\n"
                    "def k(a_ptr, b_ptr, c_ptr, d_ptr, out_ptr, BLOCK: tl.constexpr):\n"
                    "    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)\n"
                    "    a = tl.load(a_ptr + i)\n    b = tl.load(b_ptr + i)\n"
                    "    c = tl.load(c_ptr + i)\n    d = tl.load(d_ptr + i)\n"
                    "    tl.store(out_ptr + i, " +
                    expr + ")\n";
  std::string t = type, o = outType;
  Compiled comp = compileSource(src, "k", "*" + t + ", *" + t + ", *" + t + ", *" + t + ", *" + o + ", 256");
  INFO(comp.diags.str());
  REQUIRE(comp.module);
  std::vector<Out> out(a.size());
  Type ti = t == "i32" ? Type::i32() : t == "u32" ? Type::i32() : t == "fp32" ? Type::f32() : Type::f64();
  Type to = o == "i32" ? Type::i32() : o == "u32" ? Type::i32() : o == "fp32" ? Type::f32() : Type::f64();
  Interpreter interp;
  for (const std::vector<In> *v : {&a, &b, &c, &d})
    interp.addBuffer(const_cast<In *>(v->data()), v->size() * sizeof(In));
  interp.addBuffer(out.data(), out.size() * sizeof(Out));
  Diagnostics diags;
  std::vector<KernelArg> args = {KernelArg::pointer(a.data(), ti), KernelArg::pointer(b.data(), ti),
                                 KernelArg::pointer(c.data(), ti), KernelArg::pointer(d.data(), ti),
                                 KernelArg::pointer(out.data(), to)};
  bool ok = interp.run(*comp.module, "k", args, {uint32_t(a.size() / 256), 1, 1}, diags);
  INFO(diags.str());
  REQUIRE(ok);
  return out;
}

// Random 32-bit patterns, with the extremes mixed in.
std::vector<uint32_t> patterns(std::mt19937_64 &rng, size_t n) {
  std::vector<uint32_t> v(n);
  const uint32_t edges[] = {0, 1, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0x00FFFFFF, 0x00800000, 0xFF800000};
  for (size_t i = 0; i < n; ++i)
    v[i] = i % 5 == 0 ? edges[rng() % 8] : uint32_t(rng());
  return v;
}

// CUDA's definitions.
int32_t mul24(int32_t x, int32_t y) {
  int64_t a = int32_t(uint32_t(x) << 8) >> 8, b = int32_t(uint32_t(y) << 8) >> 8;
  return int32_t(uint32_t(uint64_t(a * b)));
}
uint32_t umul24(uint32_t x, uint32_t y) { return uint32_t(uint64_t(x & 0xFFFFFF) * (y & 0xFFFFFF)); }
int32_t hadd(int32_t x, int32_t y, int r) { return int32_t((int64_t(x) + y + r) >> 1); }
uint32_t uhadd(uint32_t x, uint32_t y, int r) { return uint32_t((uint64_t(x) + y + unsigned(r)) >> 1); }
int32_t sad(int32_t x, int32_t y, uint32_t z) {
  int64_t d = int64_t(x) - y;
  return int32_t(uint32_t(uint64_t(d < 0 ? -d : d) + z));
}
uint32_t usad(uint32_t x, uint32_t y, uint32_t z) { return (x > y ? x - y : y - x) + z; }
int32_t bytePerm(uint32_t x, uint32_t y, uint32_t s) {
  uint64_t v = (uint64_t(y) << 32) | x;
  uint32_t r = 0;
  for (int n = 0; n < 4; ++n)
    r |= uint32_t((v >> (8 * ((s >> (4 * n)) & 7))) & 0xFF) << (8 * n);
  return int32_t(r);
}

// Whether 1 / sqrt(x) > m, exactly, for positive floats x and m = M 2^em with M < 2^26:
// m^2 x < 1 with x = X 2^ex, i.e. M^2 X < 2^-(2 em + ex), in 128-bit integers.
bool rsqrtAbove(float x, double m) {
  int ex, em;
  double fx = std::frexp(double(x), &ex), fm = std::frexp(m, &em);
  auto X = (unsigned __int128)std::ldexp(fx, 24);
  auto M = (unsigned __int128)std::ldexp(fm, 26);
  int shift = -(2 * (em - 26) + (ex - 24)); // compare M^2 X with 2^shift
  unsigned __int128 lhs = M * M * X;
  if (shift >= 127)
    return true;
  if (shift < 0)
    return false;
  return lhs < ((unsigned __int128)1 << shift);
}

// The correctly rounded 1 / sqrt(x) of a positive normal or subnormal float.
float rsqrtReference(float x) {
  float c = float(1 / std::sqrt(double(x)));
  for (int i = 0; i < 3; ++i) {
    float up = std::nextafter(c, INFINITY), dn = std::nextafter(c, 0.0f);
    if (rsqrtAbove(x, 0.5 * (double(c) + up)))
      c = up;
    else if (!rsqrtAbove(x, 0.5 * (double(c) + dn)))
      c = dn;
    else
      break;
  }
  return c;
}

template <class T> double ulpError(T got, long double ref) {
  if (std::isinf(ref) || std::isinf(got) || std::isnan(got) || std::isnan(ref))
    return (std::isnan(got) && std::isnan(ref)) || (long double)got == ref ? 0 : 1e30;
  int e;
  std::frexp(ref, &e);
  long double ulp =
      std::ldexp(1.0L, std::max(e, std::numeric_limits<T>::min_exponent) - std::numeric_limits<T>::digits);
  return double(std::fabs((long double)got - ref) / ulp);
}

template <class T> void checkNorms(uint32_t seed) {
  std::mt19937_64 rng(seed);
  const size_t n = 2048;
  const bool f64 = sizeof(T) == 8;
  std::vector<T> a(n), b(n), c(n), d(n);
  for (size_t i = 0; i < n; ++i) {
    // magnitudes from the subnormals to next to overflow, mixed within an element
    int span = f64 ? 600 : 70;
    int base = int(rng() % (2 * span)) - span;
    for (T *v : {&a[i], &b[i], &c[i], &d[i]}) {
      double u = std::uniform_real_distribution<double>(-1, 1)(rng);
      *v = T(std::ldexp(u, base + int(rng() % 8) - (i % 3 == 0 ? int(rng() % 40) : 0)));
    }
  }
  const char *type = f64 ? "fp64" : "fp32";
  std::vector<T> n3 = run<T, T>("libdevice.norm3d(a, b, c)", type, type, a, b, c, d);
  std::vector<T> r3 = run<T, T>("libdevice.rnorm3d(a, b, c)", type, type, a, b, c, d);
  std::vector<T> n4 = run<T, T>("libdevice.norm4d(a, b, c, d)", type, type, a, b, c, d);
  std::vector<T> r4 = run<T, T>("libdevice.rnorm4d(a, b, c, d)", type, type, a, b, c, d);
  double worst[4] = {0, 0, 0, 0};
  for (size_t i = 0; i < n; ++i) {
    long double A = a[i], B = b[i], C = c[i], D = d[i];
    long double s3 = std::sqrt(A * A + B * B + C * C), s4 = std::sqrt(A * A + B * B + C * C + D * D);
    worst[0] = std::max(worst[0], ulpError(n3[i], s3));
    worst[1] = std::max(worst[1], ulpError(r3[i], 1 / s3));
    worst[2] = std::max(worst[2], ulpError(n4[i], s4));
    worst[3] = std::max(worst[3], ulpError(r4[i], 1 / s4));
  }
  const char *names[] = {"norm3d", "rnorm3d", "norm4d", "rnorm4d"};
  for (int k = 0; k < 4; ++k) {
    MESSAGE(std::string(names[k]) << (f64 ? " fp64" : " fp32") << ": max error " << worst[k] << " ulp");
    CHECK(worst[k] <= (k % 2 ? 3 : 2)); // the reciprocals round twice
  }
}

} // namespace

TEST_CASE("libdevice mul24, hadd, rhadd, sad, byte_perm: CUDA's results bit for bit") {
  uint32_t seed = testSeed();
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  const size_t n = 4096;
  std::vector<uint32_t> ua = patterns(rng, n), ub = patterns(rng, n), uc = patterns(rng, n), ud(n, 0);
  std::vector<int32_t> sa(n), sb(n), sc(n), sd(n, 0);
  for (size_t i = 0; i < n; ++i) {
    sa[i] = int32_t(ua[i]);
    sb[i] = int32_t(ub[i]);
    sc[i] = int32_t(uc[i]);
  }
  auto si = [&](const char *e) { return run<int32_t, int32_t>(e, "i32", "i32", sa, sb, sc, sd); };
  auto ui = [&](const char *e) { return run<uint32_t, uint32_t>(e, "u32", "u32", ua, ub, uc, ud); };
  std::vector<int32_t> m = si("libdevice.mul24(a, b)"), h = si("libdevice.hadd(a, b)"),
                       rh = si("libdevice.rhadd(a, b)"), s = si("libdevice.sad(a, b, c)"),
                       bp = si("libdevice.byte_perm(a, b, c)");
  std::vector<uint32_t> um = ui("libdevice.mul24(a, b)"), uh = ui("libdevice.hadd(a, b)"),
                        urh = ui("libdevice.rhadd(a, b)"), us = ui("libdevice.sad(a, b, c)");
  size_t wrong = 0;
  for (size_t i = 0; i < n; ++i) {
    wrong += m[i] != mul24(sa[i], sb[i]);
    wrong += h[i] != hadd(sa[i], sb[i], 0);
    wrong += rh[i] != hadd(sa[i], sb[i], 1);
    wrong += s[i] != sad(sa[i], sb[i], uc[i]);
    wrong += bp[i] != bytePerm(ua[i], ub[i], uc[i]);
    wrong += um[i] != umul24(ua[i], ub[i]);
    wrong += uh[i] != uhadd(ua[i], ub[i], 0);
    wrong += urh[i] != uhadd(ua[i], ub[i], 1);
    wrong += us[i] != usad(ua[i], ub[i], uc[i]);
  }
  CHECK(wrong == 0);
  // A few by hand: CUDA's examples of the byte selectors and the 24-bit sign.
  CHECK(bytePerm(0x33221100, 0x77665544, 0x7531) == 0x77553311);
  CHECK(mul24(0x00800000, 2) == int32_t(0xFF000000));
}

TEST_CASE("libdevice rsqrt_rn: correctly rounded 1/sqrt(x) on fp32") {
  uint32_t seed = testSeed();
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  const size_t n = 16384;
  std::vector<float> x(n), zero(n, 0);
  for (size_t i = 0; i < n; ++i) {
    uint32_t bits = uint32_t(rng() % 0x7F800000u) + 1; // every positive finite float, subnormals too
    if (i % 4 == 0)                                     // and 1 to 4, where the quotient is near 1
      bits = 0x3F800000u + uint32_t(rng() % 0x01000000u);
    std::memcpy(&x[i], &bits, 4);
  }
  std::vector<float> specials = {0.0f, -0.0f, INFINITY, -1.0f, NAN, 1.0f, 4.0f, 0.25f, -INFINITY};
  std::copy(specials.begin(), specials.end(), x.begin());
  std::vector<float> out = run<float, float>("libdevice.rsqrt_rn(a)", "fp32", "fp32", x, zero, zero, zero);
  size_t wrong = 0;
  for (size_t i = specials.size(); i < n; ++i)
    if (out[i] != rsqrtReference(x[i])) {
      if (wrong++ < 5)
        MESSAGE("rsqrt_rn(" << x[i] << ") = " << out[i] << ", not " << rsqrtReference(x[i]));
    }
  CHECK(wrong == 0);
  CHECK(out[0] == INFINITY);
  CHECK(out[1] == -INFINITY);
  CHECK(out[2] == 0.0f);
  CHECK(std::isnan(out[3]));
  CHECK(std::isnan(out[4]));
  CHECK(out[5] == 1.0f);
  CHECK(out[6] == 0.5f);
  CHECK(out[7] == 2.0f);
  CHECK(std::isnan(out[8]));
}

TEST_CASE("libdevice norm3d, rnorm3d, norm4d, rnorm4d: accuracy against long double, no early overflow") {
  uint32_t seed = testSeed();
  CAPTURE(seed);
  checkNorms<float>(seed);
  checkNorms<double>(seed);
  // Infinities before NaN, as hypot; zeros.
  std::vector<double> a = {INFINITY, NAN, 0.0, -0.0, 3.0}, b = {NAN, 1.0, 0.0, 0.0, 4.0}, c = {1.0, 1.0, 0.0, 0.0, 12.0};
  for (std::vector<double> *v : {&a, &b, &c})
    v->resize(256, 1.0);
  std::vector<double> n3 = run<double, double>("libdevice.norm3d(a, b, c)", "fp64", "fp64", a, b, c, c);
  std::vector<double> r3 = run<double, double>("libdevice.rnorm3d(a, b, c)", "fp64", "fp64", a, b, c, c);
  CHECK(n3[0] == INFINITY);
  CHECK(std::isnan(n3[1]));
  CHECK(n3[2] == 0.0);
  CHECK(n3[4] == 13.0);
  CHECK(r3[0] == 0.0);
  CHECK(r3[2] == INFINITY);
}
