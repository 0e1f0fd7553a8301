#pragma once
// Exact conversions between double / float and the narrow float formats of the IR:
// f16 (IEEE binary16), bf16, f8e4m3 (the "fn" variant: no infinities, NaN is
// S.1111.111, largest finite 448, as Triton's float8e4nv) and f8e5m2 (IEEE-like,
// with infinities), plus f32 for rounding a double toward zero.
//
// Encoding rounds once, directly from the double, so there is no double rounding.
// Overflow: IEEE-like formats give infinity when rounding to nearest and the largest
// finite value when rounding toward zero; f8e4m3 has no infinity and saturates to
// +-448 in both modes, infinities included (PTX's cvt .satfinite behaviour).
// NaN: the sign and the high payload bits are kept (decode(encode(x)) is the identity
// on every bit pattern); a payload that does not fit becomes the quiet NaN.

#include <cstdint>

namespace trident {

enum class FloatFormat : uint8_t { F16, BF16, F8E4M3, F8E5M2, F32 };
enum class FloatRounding : uint8_t { NearestEven, TowardZero };

// The bit pattern (in the low bits) of `v` rounded to `format`.
uint32_t encodeFloat(double v, FloatFormat format, FloatRounding rounding = FloatRounding::NearestEven);
// The exact value of the bit pattern `bits` of `format`.
double decodeFloat(uint32_t bits, FloatFormat format);
// `v` rounded to the nearest value of `format`, as a double.
double roundToFormat(double v, FloatFormat format, FloatRounding rounding = FloatRounding::NearestEven);
// Width of `format` in bits.
unsigned formatBits(FloatFormat format);

// Conveniences for the common pairs.
uint16_t floatToF16(float v, FloatRounding rounding = FloatRounding::NearestEven);
float f16ToFloat(uint16_t bits);
uint16_t floatToBF16(float v, FloatRounding rounding = FloatRounding::NearestEven);
float bf16ToFloat(uint16_t bits);
uint8_t floatToF8E4M3(float v, FloatRounding rounding = FloatRounding::NearestEven);
float f8e4m3ToFloat(uint8_t bits);
uint8_t floatToF8E5M2(float v, FloatRounding rounding = FloatRounding::NearestEven);
float f8e5m2ToFloat(uint8_t bits);

} // namespace trident
