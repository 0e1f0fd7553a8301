#include "trident/DType.h"

#include "trident/support/FloatFormats.h"

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

// The host-data conversions are the compiler's own exact ones (trident/support/FloatFormats.h):
// one converter for the interpreter, the constant folder and the runtime's arguments.
uint16_t floatToHalf(float v) { return floatToF16(v); }

float halfToFloat(uint16_t h) { return f16ToFloat(h); }

uint16_t floatToBFloat16(float v) { return floatToBF16(v); }

float bfloat16ToFloat(uint16_t bits) { return bf16ToFloat(bits); }

} // namespace trident
