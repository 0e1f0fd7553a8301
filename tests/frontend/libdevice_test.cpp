// libdevice through every import style, and the functions Trident writes in the
// Triton language checked bit for bit against C's on edge values (halfway cases,
// signed zeros, infinities, NaN, large magnitudes) in the interpreter.
#include "FrontendTestUtil.h"

#include "trident/interp/Interpreter.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>

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

// Same value, NaNs equal to each other, zeros by sign.
template <class T> bool same(T a, T b) { return (std::isnan(a) && std::isnan(b)) || bitsOf(a) == bitsOf(b); }

template <class T> std::vector<T> edgeValues() {
  const T inf = std::numeric_limits<T>::infinity(), nan = std::numeric_limits<T>::quiet_NaN();
  const T big = sizeof(T) == 8 ? T(4503599627370497.0) : T(8388609.0); // odd, beyond the fraction bits
  std::vector<T> v = {
      T(0),           T(-0.0), T(0.5),  T(-0.5),  T(1.5),      T(-1.5),  T(2.5), T(-2.5), T(0.49999997),
      T(-0.49999997), T(3.7),  T(-3.7), T(1e30),  T(-1e-30),   inf,      -inf,   nan,     big,
      -big,           T(7),    T(-8),   T(1e-45), T(123456.5), T(-0.75), T(5.5), T(-6.5), T(0.25),
      T(2),           T(1),    T(-1),   T(10.5),  T(-11.5)};
  return v;
}

std::string kernelSource() {
  return std::string(kHeader) +
         "from triton.language.extra import libdevice\n"
         "import triton.language.extra.cuda.libdevice as cuda_ld\n"
         "from triton.language.extra.libdevice import rint, copysign\n"
         "@triton.jit\ndef k(x_ptr, y_ptr, out_ptr, bits_ptr):\n"
         "    i = tl.arange(0, 32)\n"
         "    x = tl.load(x_ptr + i)\n    y = tl.load(y_ptr + i)\n"
         "    tl.store(out_ptr + 0 * 32 + i, rint(x))\n"
         "    tl.store(out_ptr + 1 * 32 + i, libdevice.round(x))\n"
         "    tl.store(out_ptr + 2 * 32 + i, cuda_ld.trunc(x))\n"
         "    tl.store(out_ptr + 3 * 32 + i, tl.extra.cuda.libdevice.nearbyint(x))\n"
         "    tl.store(out_ptr + 4 * 32 + i, copysign(x, y))\n"
         "    tl.store(out_ptr + 5 * 32 + i, libdevice.fdim(x, y))\n"
         "    tl.store(out_ptr + 6 * 32 + i, libdevice.saturatef(x))\n"
         "    tl.store(out_ptr + 7 * 32 + i, libdevice.fmax(x, y))\n"
         "    tl.store(out_ptr + 8 * 32 + i, libdevice.fmin(x, y))\n"
         "    tl.store(out_ptr + 9 * 32 + i, libdevice.floor(x))\n"
         "    tl.store(out_ptr + 10 * 32 + i, libdevice.fabs(x))\n"
         "    tl.store(bits_ptr + 0 * 32 + i, libdevice.isnan(x).to(tl.int64))\n"
         "    tl.store(bits_ptr + 1 * 32 + i, libdevice.isinf(x).to(tl.int64))\n"
         "    tl.store(bits_ptr + 2 * 32 + i, libdevice.isfinited(x).to(tl.int64))\n"
         "    tl.store(bits_ptr + 3 * 32 + i, libdevice.signbit(x).to(tl.int64))\n"
         "    ok = (x == x) & (tl.abs(x) < 1e15)\n"
         "    tl.store(bits_ptr + 4 * 32 + i, tl.where(ok, libdevice.llrint(tl.where(ok, x, 0.0)), 0))\n"
         "    tl.store(bits_ptr + 5 * 32 + i, tl.where(ok, libdevice.llround(tl.where(ok, x, 0.0)), 0))\n";
}

template <class T> void checkFloatFunctions(const char *dtype, Type type) {
  std::vector<T> x = edgeValues<T>(), y(32);
  for (size_t i = 0; i < 32; ++i)
    y[i] = x[(i * 7 + 3) % 32];
  std::vector<T> out(11 * 32, T(-123));
  std::vector<int64_t> bits(6 * 32, -1);
  std::string sig = std::string("*") + dtype + ", *" + dtype + ", *" + dtype + ", *i64";
  Compiled c = compileSource(kernelSource(), "k", sig);
  INFO(c.diags.str());
  REQUIRE(c.module);
  Interpreter interp;
  interp.addBuffer(x.data(), x.size() * sizeof(T));
  interp.addBuffer(y.data(), y.size() * sizeof(T));
  interp.addBuffer(out.data(), out.size() * sizeof(T));
  interp.addBuffer(bits.data(), bits.size() * 8);
  std::vector<KernelArg> args = {KernelArg::pointer(x.data(), type), KernelArg::pointer(y.data(), type),
                                 KernelArg::pointer(out.data(), type),
                                 KernelArg::pointer(bits.data(), Type::i64())};
  Diagnostics diags;
  bool ok = interp.run(*c.module, "k", args, {1, 1, 1}, diags);
  INFO(diags.str());
  REQUIRE(ok);
  for (size_t i = 0; i < 32; ++i) {
    T v = x[i], w = y[i];
    CAPTURE(i);
    CAPTURE(v);
    CAPTURE(w);
    CHECK(same(out[0 * 32 + i], std::rint(v)));
    CHECK(same(out[1 * 32 + i], std::round(v)));
    CHECK(same(out[2 * 32 + i], std::trunc(v)));
    CHECK(same(out[3 * 32 + i], std::nearbyint(v)));
    CHECK(same(out[4 * 32 + i], std::copysign(v, w)));
    CHECK(same(out[5 * 32 + i], std::fdim(v, w)));
    T sat = std::isnan(v) ? T(0) : std::fmin(std::fmax(v, T(0)), T(1));
    CHECK(same(out[6 * 32 + i], sat));
    CHECK(same(out[7 * 32 + i], std::fmax(v, w)));
    CHECK(same(out[8 * 32 + i], std::fmin(v, w)));
    CHECK(same(out[9 * 32 + i], std::floor(v)));
    CHECK(same(out[10 * 32 + i], std::fabs(v)));
    CHECK(bits[0 * 32 + i] == int64_t(std::isnan(v)));
    CHECK(bits[1 * 32 + i] == int64_t(std::isinf(v)));
    CHECK(bits[2 * 32 + i] == int64_t(std::isfinite(v)));
    CHECK(bits[3 * 32 + i] == int64_t(std::signbit(v)));
    bool inRange = !std::isnan(v) && std::fabs(v) < T(1e15);
    CHECK(bits[4 * 32 + i] == (inRange ? int64_t(std::llrint(v)) : 0));
    CHECK(bits[5 * 32 + i] == (inRange ? int64_t(std::llround(v)) : 0));
  }
}

} // namespace

TEST_CASE(
    "libdevice: rounding, classification, copysign, fdim, fmax... match C on fp32 and fp64 edge values") {
  checkFloatFunctions<float>("fp32", Type::f32());
  checkFloatFunctions<double>("fp64", Type::f64());
}

TEST_CASE("libdevice: integer functions (mulhi, popc, clz, ffs, brev, min/max) match C on 32 and 64 bits") {
  std::string src = std::string(kHeader) +
                    "from triton.language.extra import libdevice\n"
                    "@triton.jit\ndef k(a_ptr, b_ptr, out_ptr, N: tl.constexpr):\n"
                    "    i = tl.arange(0, N)\n"
                    "    a = tl.load(a_ptr + i)\n    b = tl.load(b_ptr + i)\n"
                    "    tl.store(out_ptr + 0 * N + i, libdevice.mulhi(a, b).to(tl.int64))\n"
                    "    tl.store(out_ptr + 1 * N + i, libdevice.popc(a).to(tl.int64))\n"
                    "    tl.store(out_ptr + 2 * N + i, libdevice.clz(a).to(tl.int64))\n"
                    "    tl.store(out_ptr + 3 * N + i, libdevice.ffs(a).to(tl.int64))\n"
                    "    tl.store(out_ptr + 4 * N + i, libdevice.brev(a).to(tl.int64))\n"
                    "    tl.store(out_ptr + 5 * N + i, libdevice.max(a, b).to(tl.int64))\n"
                    "    tl.store(out_ptr + 6 * N + i, libdevice.min(a, b).to(tl.int64))\n"
                    "    tl.store(out_ptr + 7 * N + i, libdevice.abs(a).to(tl.int64))\n";
  auto popc = [](uint64_t u) { return int64_t(__builtin_popcountll(u)); };
  auto brev = [](uint64_t u, int w) {
    uint64_t r = 0;
    for (int i = 0; i < w; ++i)
      r |= ((u >> i) & 1) << (w - 1 - i);
    return r;
  };
  const int n = 16;
  SUBCASE("32 bits") {
    std::vector<int32_t> a = {0,           1,   -1, 7,  -8,      INT32_MIN,  INT32_MAX, 0x12345678,
                              -0x12345678, 256, 3,  -3, 1 << 30, 0x0F0F0F0F, 5,         -100000};
    std::vector<int32_t> b = {5,  -1,   -1, INT32_MIN, 3, INT32_MIN,   INT32_MAX, 0x7654321,
                              99, -256, 3,  3,         4, -0x0F0F0F0F, 0,         100000};
    std::vector<int64_t> out(8 * n, -99);
    Compiled c = compileSource(src, "k", "*i32, *i32, *i64, 16");
    INFO(c.diags.str());
    REQUIRE(c.module);
    Interpreter interp;
    interp.addBuffer(a.data(), a.size() * 4);
    interp.addBuffer(b.data(), b.size() * 4);
    interp.addBuffer(out.data(), out.size() * 8);
    std::vector<KernelArg> args = {KernelArg::pointer(a.data(), Type::i32()),
                                   KernelArg::pointer(b.data(), Type::i32()),
                                   KernelArg::pointer(out.data(), Type::i64())};
    Diagnostics diags;
    REQUIRE(interp.run(*c.module, "k", args, {1, 1, 1}, diags));
    for (int i = 0; i < n; ++i) {
      CAPTURE(i);
      uint32_t u = uint32_t(a[i]);
      CHECK(out[0 * n + i] == ((int64_t(a[i]) * b[i]) >> 32));
      CHECK(out[1 * n + i] == popc(u));
      CHECK(out[2 * n + i] == (u == 0 ? 32 : __builtin_clz(u)));
      CHECK(out[3 * n + i] == __builtin_ffs(a[i]));
      CHECK(out[4 * n + i] == int64_t(int32_t(uint32_t(brev(u, 32)))));
      CHECK(out[5 * n + i] == std::max(a[i], b[i]));
      CHECK(out[6 * n + i] == std::min(a[i], b[i]));
      CHECK(out[7 * n + i] == (a[i] == INT32_MIN ? INT32_MIN : std::abs(a[i])));
    }
  }
  SUBCASE("64 bits") {
    std::vector<int64_t> a = {0,
                              1,
                              -1,
                              7,
                              -8,
                              INT64_MIN,
                              INT64_MAX,
                              0x123456789abcdefLL,
                              -0x123456789abcdefLL,
                              1LL << 40,
                              3,
                              -3,
                              1LL << 62,
                              0x0F0F0F0F0F0F0F0FLL,
                              5,
                              -10000000000LL};
    std::vector<int64_t> b = {5,         -1,
                              -1,        INT64_MIN,
                              3,         INT64_MIN,
                              INT64_MAX, 0x7654321fedcbaLL,
                              99,        -256,
                              3,         3,
                              4,         -0x0F0F0F0F0F0F0F0FLL,
                              0,         10000000000LL};
    std::vector<int64_t> out(8 * n, -99);
    Compiled c = compileSource(src, "k", "*i64, *i64, *i64, 16");
    INFO(c.diags.str());
    REQUIRE(c.module);
    Interpreter interp;
    interp.addBuffer(a.data(), a.size() * 8);
    interp.addBuffer(b.data(), b.size() * 8);
    interp.addBuffer(out.data(), out.size() * 8);
    std::vector<KernelArg> args = {KernelArg::pointer(a.data(), Type::i64()),
                                   KernelArg::pointer(b.data(), Type::i64()),
                                   KernelArg::pointer(out.data(), Type::i64())};
    Diagnostics diags;
    REQUIRE(interp.run(*c.module, "k", args, {1, 1, 1}, diags));
    for (int i = 0; i < n; ++i) {
      CAPTURE(i);
      uint64_t u = uint64_t(a[i]);
      CHECK(out[0 * n + i] == int64_t((__int128(a[i]) * b[i]) >> 64));
      CHECK(out[1 * n + i] == popc(u));
      CHECK(out[2 * n + i] == (u == 0 ? 64 : __builtin_clzll(u)));
      CHECK(out[3 * n + i] == __builtin_ffsll(a[i]));
      CHECK(out[4 * n + i] == int64_t(brev(u, 64)));
      CHECK(out[5 * n + i] == std::max(a[i], b[i]));
      CHECK(out[6 * n + i] == std::min(a[i], b[i]));
      CHECK(out[7 * n + i] == (a[i] == INT64_MIN ? INT64_MIN : std::abs(a[i])));
    }
  }
}

TEST_CASE("libdevice: block-IR math functions map to their ops; missing ones are refused by name") {
  std::string src =
      std::string(kHeader) +
      "from triton.language.extra import libdevice\n"
      "from triton.language.extra.cuda.libdevice import rcp64h\n"
      "@triton.jit\ndef k(x_ptr):\n    x = tl.load(x_ptr)\n"
      "    y = libdevice.exp(x) + libdevice.rsqrt(x) + libdevice.erf(x)\n"
      "    tl.store(x_ptr, libdevice.fma(y, x, libdevice.sqrt_rn(x)))\n"
      "@triton.jit\ndef t(x_ptr):\n    tl.store(x_ptr, rcp64h(tl.load(x_ptr)))\n"
      "@triton.jit\ndef r(x_ptr):\n    tl.store(x_ptr, libdevice.rint(tl.load(x_ptr).to(tl.int32)))\n";
  std::string text = ir(src, "k", "*fp32");
  for (const char *op : {"math.exp", "math.rsqrt", "math.erf", "tt.precise_sqrt", "math.fma"})
    CHECK_MESSAGE(text.find(op) != std::string::npos, op);
  // rcp64h is the hardware's own approximation: PTX's instruction on cuda targets, an
  // error naming the target elsewhere.
  CHECK(firstError(src, "t", "*fp32") == "13:21: libdevice function 'rcp64h' is NVIDIA's hardware approximation "
                                         "(PTX rcp.approx.ftz.f64), which only cuda targets compute; the target "
                                         "here is not known");
  Compiled vulkan = compileSource(src, "t", "*fp64", false, "k.py", "vulkan");
  CHECK(!vulkan.module);
  CHECK(vulkan.diags.str().find("the target here is 'vulkan'") != std::string::npos);
  Compiled cuda = compileSource(src, "t", "*fp64", false, "k.py", "cuda:sm_90");
  INFO(cuda.diags.str());
  REQUIRE(cuda.module);
  CHECK(cuda.ir.find("rcp.approx.ftz.f64 $0, $1;") != std::string::npos);
  CHECK(cuda.ir.find("constraints = \"=d,d\"") != std::string::npos);
  CHECK(firstError(src, "r", "*fp32") ==
        "16:21: libdevice.rint: static_assert failed: this libdevice function takes floating-point values");
  // try/except picks the fallback for a name Trident does not provide.
  std::string fallback = std::string(kHeader) +
                         "try:\n    from triton.language.extra.libdevice import no_such_function\n"
                         "except ImportError:\n    no_such_function = None\n"
                         "try:\n    from triton.language.extra.libdevice import rint\n"
                         "except ImportError:\n    rint = None\n"
                         "@triton.jit\ndef k(x_ptr):\n"
                         "    tl.static_assert(no_such_function is None)\n"
                         "    tl.store(x_ptr, rint(tl.load(x_ptr)))\n";
  CHECK(firstError(fallback, "k", "*fp32") == "no error");
}

TEST_CASE("libdevice: nextafter, ilogb and logb match C on fp32 and fp64 edge values") {
  std::string src = std::string(kHeader) +
                    "from triton.language.extra import libdevice\n"
                    "@triton.jit\ndef k(x_ptr, y_ptr, out_ptr, e_ptr):\n"
                    "    i = tl.arange(0, 32)\n"
                    "    x = tl.load(x_ptr + i)\n    y = tl.load(y_ptr + i)\n"
                    "    tl.store(out_ptr + i, libdevice.nextafter(x, y))\n"
                    "    tl.store(out_ptr + 32 + i, libdevice.logb(x))\n"
                    "    tl.store(e_ptr + i, libdevice.ilogb(x))\n";
  auto check = [&](auto zero, const char *sig) {
    using T = decltype(zero);
    std::vector<T> x = edgeValues<T>(), y(32);
    x[31] = std::numeric_limits<T>::denorm_min() * 3; // a subnormal
    x[30] = std::numeric_limits<T>::max();
    for (size_t i = 0; i < 32; ++i)
      y[i] = i % 3 == 0 ? std::numeric_limits<T>::infinity() : i % 3 == 1 ? T(-2) : x[(i + 5) % 32];
    std::vector<T> out(64);
    std::vector<int32_t> e(32);
    Compiled c = compileSource(src, "k", sig);
    INFO(c.diags.str());
    REQUIRE(c.module);
    Interpreter interp;
    interp.addBuffer(x.data(), 32 * sizeof(T));
    interp.addBuffer(y.data(), 32 * sizeof(T));
    interp.addBuffer(out.data(), 64 * sizeof(T));
    interp.addBuffer(e.data(), 32 * 4);
    Type t = sizeof(T) == 8 ? Type::f64() : Type::f32();
    Diagnostics diags;
    REQUIRE(interp.run(*c.module, "k",
                       std::vector<KernelArg>{KernelArg::pointer(x.data(), t), KernelArg::pointer(y.data(), t),
                        KernelArg::pointer(out.data(), t), KernelArg::pointer(e.data(), Type::i32())},
                       {1, 1, 1}, diags));
    for (size_t i = 0; i < 32; ++i) {
      INFO("x = " << x[i] << ", y = " << y[i]);
      CHECK(same(out[i], std::nextafter(x[i], y[i])));
      CHECK(same(out[32 + i], std::logb(x[i])));
      int want = x[i] == 0 || std::isnan(x[i]) ? INT32_MIN : std::isinf(x[i]) ? INT32_MAX : std::ilogb(x[i]);
      CHECK(e[i] == want);
    }
  };
  check(0.0f, "*fp32, *fp32, *fp32, *i32");
  check(0.0, "*fp64, *fp64, *fp64, *i32");
}
