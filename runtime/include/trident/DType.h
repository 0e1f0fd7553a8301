#pragma once
// Element types of buffers and kernel scalars, named as Triton names them.

#include "trident/Export.h"
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string_view>
#include <type_traits>

namespace trident {

enum class DType : uint8_t {
  I1, I8, I16, I32, I64,
  U8, U16, U32, U64,
  F16, BF16, F32, F64,
  F8E4M3, F8E5M2,
};

// Bytes of one element (I1 is stored as one byte, as Triton stores bool).
TRIDENT_API size_t dtypeBytes(DType t);
// Triton's name: "i1", "i32", "u8", "fp16", "bf16", "fp32", "fp8e4nv", "fp8e5".
TRIDENT_API std::string_view dtypeName(DType t);
// Reads Triton's names and the usual aliases ("float32", "f32", "int32", "bool").
TRIDENT_API std::optional<DType> parseDType(std::string_view name);
TRIDENT_API bool isFloat(DType t);
TRIDENT_API bool isUnsigned(DType t);

// The DType of a C++ element type (for typed copies). Half-precision data is
// copied as uint16_t, which matches any 16-bit dtype.
template <class T> constexpr DType dtypeOf() {
  if constexpr (std::is_same_v<T, bool>) return DType::I1;
  else if constexpr (std::is_same_v<T, int8_t>) return DType::I8;
  else if constexpr (std::is_same_v<T, int16_t>) return DType::I16;
  else if constexpr (std::is_same_v<T, int32_t>) return DType::I32;
  else if constexpr (std::is_same_v<T, int64_t>) return DType::I64;
  else if constexpr (std::is_same_v<T, uint8_t>) return DType::U8;
  else if constexpr (std::is_same_v<T, uint16_t>) return DType::U16;
  else if constexpr (std::is_same_v<T, uint32_t>) return DType::U32;
  else if constexpr (std::is_same_v<T, uint64_t>) return DType::U64;
  else if constexpr (std::is_same_v<T, float>) return DType::F32;
  else if constexpr (std::is_same_v<T, double>) return DType::F64;
  else static_assert(sizeof(T) == 0, "no DType for this C++ type");
}

// IEEE half and bfloat16 conversions (round to nearest even), for host data.
TRIDENT_API uint16_t floatToHalf(float v);
TRIDENT_API float halfToFloat(uint16_t bits);
TRIDENT_API uint16_t floatToBFloat16(float v);
TRIDENT_API float bfloat16ToFloat(uint16_t bits);

} // namespace trident
