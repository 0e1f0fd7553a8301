#include "trident/DType.h"

#include <bit>
#include <cstring>

namespace trident {

size_t dtypeBytes(DType t) {
  switch (t) {
  case DType::I1: case DType::I8: case DType::U8: case DType::F8E4M3: case DType::F8E5M2: return 1;
  case DType::I16: case DType::U16: case DType::F16: case DType::BF16: return 2;
  case DType::I32: case DType::U32: case DType::F32: return 4;
  case DType::I64: case DType::U64: case DType::F64: return 8;
  }
  return 0;
}

std::string_view dtypeName(DType t) {
  switch (t) {
  case DType::I1: return "i1";
  case DType::I8: return "i8";
  case DType::I16: return "i16";
  case DType::I32: return "i32";
  case DType::I64: return "i64";
  case DType::U8: return "u8";
  case DType::U16: return "u16";
  case DType::U32: return "u32";
  case DType::U64: return "u64";
  case DType::F16: return "fp16";
  case DType::BF16: return "bf16";
  case DType::F32: return "fp32";
  case DType::F64: return "fp64";
  case DType::F8E4M3: return "fp8e4nv";
  case DType::F8E5M2: return "fp8e5";
  }
  return "?";
}

std::optional<DType> parseDType(std::string_view n) {
  struct Alias { std::string_view name; DType type; };
  static constexpr Alias aliases[] = {
      {"i1", DType::I1},      {"bool", DType::I1},     {"int1", DType::I1},
      {"i8", DType::I8},      {"int8", DType::I8},     {"i16", DType::I16},
      {"int16", DType::I16},  {"i32", DType::I32},     {"int32", DType::I32},
      {"i64", DType::I64},    {"int64", DType::I64},   {"u8", DType::U8},
      {"uint8", DType::U8},   {"u16", DType::U16},     {"uint16", DType::U16},
      {"u32", DType::U32},    {"uint32", DType::U32},  {"u64", DType::U64},
      {"uint64", DType::U64}, {"fp16", DType::F16},    {"f16", DType::F16},
      {"float16", DType::F16}, {"bf16", DType::BF16},  {"bfloat16", DType::BF16},
      {"fp32", DType::F32},   {"f32", DType::F32},     {"float32", DType::F32},
      {"fp64", DType::F64},   {"f64", DType::F64},     {"float64", DType::F64},
      {"fp8e4nv", DType::F8E4M3}, {"f8e4m3", DType::F8E4M3}, {"float8_e4m3fn", DType::F8E4M3},
      {"fp8e5", DType::F8E5M2}, {"f8e5m2", DType::F8E5M2}, {"float8_e5m2", DType::F8E5M2},
  };
  for (const Alias &a : aliases)
    if (a.name == n)
      return a.type;
  return std::nullopt;
}

bool isFloat(DType t) {
  switch (t) {
  case DType::F16: case DType::BF16: case DType::F32: case DType::F64:
  case DType::F8E4M3: case DType::F8E5M2: return true;
  default: return false;
  }
}

bool isUnsigned(DType t) {
  return t == DType::U8 || t == DType::U16 || t == DType::U32 || t == DType::U64;
}

uint16_t floatToHalf(float v) {
  uint32_t x = std::bit_cast<uint32_t>(v);
  uint32_t sign = (x >> 16) & 0x8000u;
  uint32_t absBits = x & 0x7fffffffu;
  if (absBits >= 0x7f800000u) // inf or nan
    return static_cast<uint16_t>(sign | 0x7c00u | (absBits > 0x7f800000u ? 0x200u : 0u));
  if (absBits >= 0x477ff000u) // rounds to a value beyond the largest half: inf
    return static_cast<uint16_t>(sign | 0x7c00u);
  if (absBits < 0x38800000u) { // a half subnormal or zero: scale and round in float arithmetic
    float scaled = std::bit_cast<float>(absBits) * 16777216.0f; // 2^24: units of the smallest subnormal
    uint32_t units = static_cast<uint32_t>(scaled);
    float rest = scaled - static_cast<float>(units);
    if (rest > 0.5f || (rest == 0.5f && (units & 1u)))
      ++units;
    return static_cast<uint16_t>(sign | units);
  }
  // Normal: rebias the exponent and round the mantissa to 10 bits, nearest even.
  uint32_t mant = absBits & 0x7fffffu;
  uint32_t exp = (absBits >> 23) - 127 + 15;
  uint32_t half = (exp << 10) | (mant >> 13);
  uint32_t dropped = mant & 0x1fffu;
  if (dropped > 0x1000u || (dropped == 0x1000u && (half & 1u)))
    ++half; // may carry into the exponent, which is the correct rounding
  return static_cast<uint16_t>(sign | half);
}

float halfToFloat(uint16_t h) {
  uint32_t sign = static_cast<uint32_t>(h & 0x8000u) << 16;
  uint32_t exp = (h >> 10) & 0x1fu;
  uint32_t mant = h & 0x3ffu;
  if (exp == 0) { // zero or subnormal: mant * 2^-24
    float v = static_cast<float>(mant) / 16777216.0f;
    return sign ? -v : v;
  }
  if (exp == 31)
    return std::bit_cast<float>(sign | 0x7f800000u | (mant << 13));
  return std::bit_cast<float>(sign | ((exp - 15 + 127) << 23) | (mant << 13));
}

uint16_t floatToBFloat16(float v) {
  uint32_t x = std::bit_cast<uint32_t>(v);
  if ((x & 0x7fffffffu) > 0x7f800000u)
    return static_cast<uint16_t>((x >> 16) | 0x40u); // quiet nan
  uint32_t rounding = 0x7fffu + ((x >> 16) & 1u);
  return static_cast<uint16_t>((x + rounding) >> 16);
}

float bfloat16ToFloat(uint16_t bits) { return std::bit_cast<float>(static_cast<uint32_t>(bits) << 16); }

} // namespace trident
