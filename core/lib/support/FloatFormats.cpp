#include "trident/support/FloatFormats.h"

#include <bit>
#include <cmath>

namespace trident {

namespace {

struct FormatDesc {
  int exponentBits;
  int mantissaBits;
  bool hasInfinity; // false: the "fn" layout, whose only NaN is all ones
};

FormatDesc describe(FloatFormat f) {
  switch (f) {
  case FloatFormat::F16: return {5, 10, true};
  case FloatFormat::BF16: return {8, 7, true};
  case FloatFormat::F8E4M3: return {4, 3, false};
  case FloatFormat::F8E5M2: return {5, 2, true};
  case FloatFormat::F32: return {8, 23, true};
  }
  return {8, 23, true};
}

constexpr int kDoubleMantissaBits = 52;

} // namespace

unsigned formatBits(FloatFormat format) {
  FormatDesc d = describe(format);
  return static_cast<unsigned>(1 + d.exponentBits + d.mantissaBits);
}

uint32_t encodeFloat(double v, FloatFormat format, FloatRounding rounding) {
  const FormatDesc d = describe(format);
  const int m = d.mantissaBits;
  const uint64_t expAllOnes = (uint64_t(1) << d.exponentBits) - 1;
  const uint64_t signBit = uint64_t(1) << (d.exponentBits + m);
  const uint64_t vbits = std::bit_cast<uint64_t>(v);
  const uint64_t sign = (vbits >> 63) ? signBit : 0;
  // The largest finite pattern: below the infinity, or below the fn-format NaN.
  const uint64_t maxFinite =
      d.hasInfinity ? (expAllOnes << m) - 1 : (expAllOnes << m) | ((uint64_t(1) << m) - 2);

  if (std::isnan(v)) {
    if (!d.hasInfinity)
      return static_cast<uint32_t>(sign | (expAllOnes << m) | ((uint64_t(1) << m) - 1));
    uint64_t payload = (vbits >> (kDoubleMantissaBits - m)) & ((uint64_t(1) << m) - 1);
    if (payload == 0)
      payload = uint64_t(1) << (m - 1);
    return static_cast<uint32_t>(sign | (expAllOnes << m) | payload);
  }
  if (std::isinf(v))
    return static_cast<uint32_t>(sign | (d.hasInfinity ? expAllOnes << m : maxFinite));

  const double a = std::fabs(v);
  if (a == 0)
    return static_cast<uint32_t>(sign);

  const int bias = (1 << (d.exponentBits - 1)) - 1;
  const int minNormalExp = 1 - bias;
  int e;
  std::frexp(a, &e); // a = f * 2^e, f in [0.5, 1)
  const int unbiased = e - 1;
  const bool subnormal = unbiased < minNormalExp;
  const int quantumExp = (subnormal ? minNormalExp : unbiased) - m;
  // Scaling by a power of two is exact; q < 2^(m+1) so its integer part is exact too.
  const double q = std::ldexp(a, -quantumExp);
  double n = std::floor(q);
  const double frac = q - n;
  if (rounding == FloatRounding::NearestEven) {
    if (frac > 0.5 || (frac == 0.5 && std::fmod(n, 2.0) != 0))
      n += 1;
  }
  // Mantissa carries propagate into the exponent field by themselves.
  const uint64_t count = static_cast<uint64_t>(n);
  uint64_t bits;
  if (subnormal)
    bits = count;
  else
    bits = (static_cast<uint64_t>(unbiased + bias) << m) + count - (uint64_t(1) << m);

  if (bits > maxFinite) {
    if (d.hasInfinity && rounding == FloatRounding::NearestEven)
      bits = expAllOnes << m;
    else
      bits = maxFinite;
  }
  return static_cast<uint32_t>(sign | bits);
}

double decodeFloat(uint32_t bits, FloatFormat format) {
  const FormatDesc d = describe(format);
  const int m = d.mantissaBits;
  const uint32_t expAllOnes = (1u << d.exponentBits) - 1;
  const bool negative = (bits >> (d.exponentBits + m)) & 1;
  const uint32_t exponent = (bits >> m) & expAllOnes;
  const uint32_t mantissa = bits & ((1u << m) - 1);
  const int bias = (1 << (d.exponentBits - 1)) - 1;

  const bool isNaN = d.hasInfinity ? (exponent == expAllOnes && mantissa != 0)
                                   : (exponent == expAllOnes && mantissa == (1u << m) - 1);
  if (isNaN) {
    uint64_t payload = static_cast<uint64_t>(mantissa) << (kDoubleMantissaBits - m);
    uint64_t dbits = (uint64_t(negative) << 63) | (uint64_t(0x7ff) << kDoubleMantissaBits) | payload;
    return std::bit_cast<double>(dbits);
  }
  double magnitude;
  if (d.hasInfinity && exponent == expAllOnes)
    magnitude = INFINITY;
  else if (exponent == 0)
    magnitude = std::ldexp(static_cast<double>(mantissa), 1 - bias - m);
  else
    magnitude = std::ldexp(static_cast<double>(mantissa | (1u << m)), static_cast<int>(exponent) - bias - m);
  return negative ? -magnitude : magnitude;
}

double roundToFormat(double v, FloatFormat format, FloatRounding rounding) {
  return decodeFloat(encodeFloat(v, format, rounding), format);
}

uint16_t floatToF16(float v, FloatRounding r) {
  return static_cast<uint16_t>(encodeFloat(v, FloatFormat::F16, r));
}
float f16ToFloat(uint16_t bits) { return static_cast<float>(decodeFloat(bits, FloatFormat::F16)); }
uint16_t floatToBF16(float v, FloatRounding r) {
  return static_cast<uint16_t>(encodeFloat(v, FloatFormat::BF16, r));
}
float bf16ToFloat(uint16_t bits) { return static_cast<float>(decodeFloat(bits, FloatFormat::BF16)); }
uint8_t floatToF8E4M3(float v, FloatRounding r) {
  return static_cast<uint8_t>(encodeFloat(v, FloatFormat::F8E4M3, r));
}
float f8e4m3ToFloat(uint8_t bits) { return static_cast<float>(decodeFloat(bits, FloatFormat::F8E4M3)); }
uint8_t floatToF8E5M2(float v, FloatRounding r) {
  return static_cast<uint8_t>(encodeFloat(v, FloatFormat::F8E5M2, r));
}
float f8e5m2ToFloat(uint8_t bits) { return static_cast<float>(decodeFloat(bits, FloatFormat::F8E5M2)); }

} // namespace trident
