// FloatFormats: exhaustive round trips over every bit pattern, known values, and
// rounding checked between every pair of neighbouring values.

#include "InterpTestUtil.h"

#include <cmath>
#include <limits>

using namespace trident;

// CHECK(a == b) that costs nothing when it passes: these loops make millions of checks.
#define CHECK_EQ_FAST(a, b)                                                                                  \
  do {                                                                                                       \
    if (!((a) == (b)))                                                                                       \
      CHECK((a) == (b));                                                                                     \
  } while (0)

namespace {

struct FormatCase {
  FloatFormat format;
  const char *name;
  unsigned bits;
  unsigned mantissaBits;
  bool hasInfinity;
};

const FormatCase kFormats[] = {
    {FloatFormat::F16, "f16", 16, 10, true},
    {FloatFormat::BF16, "bf16", 16, 7, true},
    {FloatFormat::F8E4M3, "f8e4m3", 8, 3, false},
    {FloatFormat::F8E5M2, "f8e5m2", 8, 2, true},
};

bool isNaN(double v) { return v != v; }

// Every non-NaN value of the format in increasing order (with -0 before +0).
std::vector<double> sortedValues(const FormatCase &f) {
  std::vector<double> v;
  for (uint32_t b = 0; b < (1u << f.bits); ++b) {
    double d = decodeFloat(b, f.format);
    if (!isNaN(d))
      v.push_back(d);
  }
  std::sort(v.begin(), v.end());
  return v;
}

} // namespace

TEST_CASE("float formats: every bit pattern survives decode then encode") {
  for (const FormatCase &f : kFormats) {
    INFO(std::string(f.name));
    unsigned nans = 0;
    for (uint32_t b = 0; b < (1u << f.bits); ++b) {
      double d = decodeFloat(b, f.format);
      nans += isNaN(d);
      CHECK_EQ_FAST(encodeFloat(d, f.format, FloatRounding::NearestEven), b);
      CHECK_EQ_FAST(encodeFloat(d, f.format, FloatRounding::TowardZero), b);
      // Through float too: every value of these formats is exact in f32 (a float
      // conversion quiets signalling NaNs, so NaNs are left out).
      if (!isNaN(d))
        CHECK_EQ_FAST(encodeFloat(static_cast<float>(d), f.format), b);
    }
    if (f.format == FloatFormat::F8E4M3)
      CHECK(nans == 2); // only S.1111.111
    else
      CHECK(nans == 2 * ((1u << f.mantissaBits) - 1));
  }
}

TEST_CASE("float formats: known values") {
  CHECK(decodeFloat(0x3c00, FloatFormat::F16) == 1.0);
  CHECK(decodeFloat(0xc000, FloatFormat::F16) == -2.0);
  CHECK(decodeFloat(0x7bff, FloatFormat::F16) == 65504.0);
  CHECK(decodeFloat(0x0001, FloatFormat::F16) == std::ldexp(1.0, -24));
  CHECK(decodeFloat(0x0400, FloatFormat::F16) == std::ldexp(1.0, -14));
  CHECK(decodeFloat(0x7c00, FloatFormat::F16) == INFINITY);
  CHECK(decodeFloat(0xfc00, FloatFormat::F16) == -INFINITY);
  CHECK(std::signbit(decodeFloat(0x8000, FloatFormat::F16)));
  CHECK(decodeFloat(0x3555, FloatFormat::F16) == 0.333251953125);
  CHECK(encodeFloat(0.1, FloatFormat::F16) == 0x2e66);
  CHECK(encodeFloat(65520.0, FloatFormat::F16) == 0x7c00); // the midpoint to "65536" rounds to inf
  CHECK(encodeFloat(65519.99, FloatFormat::F16) == 0x7bff);
  CHECK(encodeFloat(1e9, FloatFormat::F16, FloatRounding::TowardZero) == 0x7bff);
  CHECK(encodeFloat(-1e9, FloatFormat::F16) == 0xfc00);
  CHECK(encodeFloat(std::ldexp(1.0, -25), FloatFormat::F16) == 0x0000);  // tie to even (0)
  CHECK(encodeFloat(std::ldexp(1.5, -25), FloatFormat::F16) == 0x0001);  // above the tie
  CHECK(encodeFloat(std::ldexp(3.0, -25), FloatFormat::F16) == 0x0002);  // tie to even (2)
  CHECK(encodeFloat(-std::ldexp(1.0, -30), FloatFormat::F16) == 0x8000); // underflow keeps the sign
  CHECK(encodeFloat(NAN, FloatFormat::F16) == 0x7e00);

  CHECK(decodeFloat(0x3f80, FloatFormat::BF16) == 1.0);
  CHECK(decodeFloat(0x7f7f, FloatFormat::BF16) == 3.3895313892515355e38);
  CHECK(decodeFloat(0x0001, FloatFormat::BF16) == std::ldexp(1.0, -133));
  CHECK(decodeFloat(0x7f80, FloatFormat::BF16) == INFINITY);
  CHECK(encodeFloat(3.14159265, FloatFormat::BF16) == 0x4049);
  CHECK(encodeFloat(1.0 + std::ldexp(1.0, -8), FloatFormat::BF16) == 0x3f80); // tie to even
  CHECK(encodeFloat(1.0 + 3 * std::ldexp(1.0, -8), FloatFormat::BF16) == 0x3f82);

  CHECK(decodeFloat(0x7e, FloatFormat::F8E4M3) == 448.0);
  CHECK(decodeFloat(0xfe, FloatFormat::F8E4M3) == -448.0);
  CHECK(decodeFloat(0x78, FloatFormat::F8E4M3) == 256.0);
  CHECK(decodeFloat(0x38, FloatFormat::F8E4M3) == 1.0);
  CHECK(decodeFloat(0x08, FloatFormat::F8E4M3) == std::ldexp(1.0, -6));
  CHECK(decodeFloat(0x01, FloatFormat::F8E4M3) == std::ldexp(1.0, -9));
  CHECK(isNaN(decodeFloat(0x7f, FloatFormat::F8E4M3)));
  CHECK(isNaN(decodeFloat(0xff, FloatFormat::F8E4M3)));
  CHECK(encodeFloat(NAN, FloatFormat::F8E4M3) == 0x7f);
  CHECK(encodeFloat(-NAN, FloatFormat::F8E4M3) == 0xff);
  CHECK(encodeFloat(1000.0, FloatFormat::F8E4M3) == 0x7e); // saturates: no infinity
  CHECK(encodeFloat(460.0, FloatFormat::F8E4M3) == 0x7e);
  CHECK(encodeFloat(INFINITY, FloatFormat::F8E4M3) == 0x7e);
  CHECK(encodeFloat(-INFINITY, FloatFormat::F8E4M3) == 0xfe);
  CHECK(encodeFloat(0.3, FloatFormat::F8E4M3) == 0x2a); // 0.3 -> 0.3125 (1.25 * 2^-2)

  CHECK(decodeFloat(0x7b, FloatFormat::F8E5M2) == 57344.0);
  CHECK(decodeFloat(0x7c, FloatFormat::F8E5M2) == INFINITY);
  CHECK(isNaN(decodeFloat(0x7d, FloatFormat::F8E5M2)));
  CHECK(decodeFloat(0x3c, FloatFormat::F8E5M2) == 1.0);
  CHECK(decodeFloat(0x01, FloatFormat::F8E5M2) == std::ldexp(1.0, -16));
  CHECK(encodeFloat(1e6, FloatFormat::F8E5M2) == 0x7c);
  CHECK(encodeFloat(1e6, FloatFormat::F8E5M2, FloatRounding::TowardZero) == 0x7b);
  CHECK(encodeFloat(INFINITY, FloatFormat::F8E5M2, FloatRounding::TowardZero) == 0x7c);

  // f32 from double agrees with the hardware conversion; toward zero truncates.
  CHECK(encodeFloat(0.1, FloatFormat::F32) == std::bit_cast<uint32_t>(0.1f));
  CHECK(decodeFloat(encodeFloat(0.1, FloatFormat::F32, FloatRounding::TowardZero), FloatFormat::F32) <= 0.1);
  CHECK(formatBits(FloatFormat::F16) == 16);
  CHECK(formatBits(FloatFormat::F8E4M3) == 8);
  CHECK(f16ToFloat(floatToF16(1.5f)) == 1.5f);
  CHECK(bf16ToFloat(floatToBF16(-2.5f)) == -2.5f);
  CHECK(f8e4m3ToFloat(floatToF8E4M3(0.75f)) == 0.75f);
  CHECK(f8e5m2ToFloat(floatToF8E5M2(-3.0f)) == -3.0f);
}

TEST_CASE("float formats: rounding between every pair of neighbours") {
  for (const FormatCase &f : kFormats) {
    INFO(std::string(f.name));
    std::vector<double> values = sortedValues(f);
    for (size_t i = 0; i + 1 < values.size(); ++i) {
      double lo = values[i], hi = values[i + 1];
      if (std::isinf(lo) || std::isinf(hi) || lo == hi) // lo == hi: -0 and +0
        continue;
      // The bits of `v`, the rounded value of x (a zero takes x's sign).
      auto bitsOf = [&](double v, double x) {
        return encodeFloat(v == 0 ? std::copysign(0.0, x) : v, f.format);
      };
      double mid = lo + (hi - lo) / 2; // exact in double
      bool loEven = (encodeFloat(lo, f.format) & 1) == 0;
      double below = std::nextafter(mid, lo), above = std::nextafter(mid, hi);
      CHECK_EQ_FAST(encodeFloat(below, f.format), bitsOf(lo, below));
      CHECK_EQ_FAST(encodeFloat(above, f.format), bitsOf(hi, above));
      CHECK_EQ_FAST(encodeFloat(mid, f.format), bitsOf(loEven ? lo : hi, mid));
      // Toward zero: everything strictly between goes to the one nearer zero.
      uint32_t towardZero = bitsOf(std::fabs(lo) < std::fabs(hi) ? lo : hi, mid);
      CHECK_EQ_FAST(encodeFloat(mid, f.format, FloatRounding::TowardZero), towardZero);
      CHECK_EQ_FAST(encodeFloat(above, f.format, FloatRounding::TowardZero), towardZero);
      CHECK_EQ_FAST(encodeFloat(below, f.format, FloatRounding::TowardZero), towardZero);
    }
    // Beyond the largest finite value.
    double maxFinite = values[values.size() - (f.hasInfinity ? 2 : 1)];
    uint32_t maxBits = encodeFloat(maxFinite, f.format);
    double step = maxFinite - values[values.size() - (f.hasInfinity ? 3 : 2)];
    CHECK_EQ_FAST(encodeFloat(maxFinite + step * 0.49, f.format), maxBits);
    CHECK(encodeFloat(maxFinite + step * 0.5, f.format) ==
          (f.hasInfinity ? encodeFloat(INFINITY, f.format) : maxBits));
    CHECK_EQ_FAST(encodeFloat(maxFinite * 4, f.format, FloatRounding::TowardZero), maxBits);
  }
}

TEST_CASE("float formats: f32 rounding agrees with the hardware on random doubles") {
  for (uint32_t seed : interp_test::seeds()) {
    INFO("seed " << seed);
    std::mt19937_64 rng(seed);
    for (int i = 0; i < 20000; ++i) {
      double d = std::bit_cast<double>(rng());
      if (isNaN(d))
        continue;
      float f = static_cast<float>(d);
      CHECK(encodeFloat(d, FloatFormat::F32) == std::bit_cast<uint32_t>(f));
      // Toward zero: never larger in magnitude, and within one ulp below.
      double t = decodeFloat(encodeFloat(d, FloatFormat::F32, FloatRounding::TowardZero), FloatFormat::F32);
      CHECK(std::fabs(t) <= std::fabs(d));
      if (std::fabs(d) < std::numeric_limits<float>::max())
        CHECK(std::fabs(d) < std::fabs(static_cast<double>(
                                 std::nextafterf(static_cast<float>(t), d > 0 ? HUGE_VALF : -HUGE_VALF))));
    }
  }
}

TEST_CASE("float formats: NaN payloads keep their high bits") {
  uint32_t f16NaN = 0x7c01; // a signalling NaN with the lowest payload bit
  CHECK(encodeFloat(decodeFloat(f16NaN, FloatFormat::F16), FloatFormat::F16) == f16NaN);
  // A double NaN whose payload lies below f16's mantissa becomes the quiet NaN.
  double lowPayload = std::bit_cast<double>(uint64_t(0x7ff0000000000001));
  CHECK(encodeFloat(lowPayload, FloatFormat::F16) == 0x7e00);
  CHECK(encodeFloat(-lowPayload, FloatFormat::BF16) == 0xffc0);
}
