#pragma once
// Triton's dtypes: an IR scalar type plus the signedness the IR does not carry.
// Pointers carry the signedness of their pointee (*u32 is ptr<i32>, unsigned).
//
// Names are Triton's: int1 int8 .. int64, uint8 .. uint64, fp16 bf16 fp32 fp64,
// fp8e4nv fp8e5, pointer<fp32>.

#include "trident/ir/Type.h"

#include <optional>
#include <string>
#include <string_view>

namespace trident::frontend {

// The fp8 formats the IR has no type for, held as their bits (IR type i8) and
// converted in software by the frontend (Fp8Software.cpp): float8e4b15 (bias 15, no
// infinity, 0x7f/0xff NaN), float8e4b8 and float8e5b16 (AMD's FNUZ formats: bias 8 /
// 16, no infinity, no -0, NaN only 0x80).
enum class SoftFp8 : uint8_t { None, E4B15, E4B8, E5B16 };

struct DType {
  Type type;               // a scalar: integer, float or pointer
  bool isUnsigned = false; // integers (and pointers: their pointee)
  SoftFp8 softFp8 = SoftFp8::None; // when set, `type` is i8 (or a pointer to i8) holding the bits

  static DType of(Type t, bool isUnsigned = false) { return DType{t, isUnsigned}; }
  static DType i1() { return {Type::i1(), false}; }
  static DType i32() { return {Type::i32(), false}; }
  static DType u32() { return {Type::i32(), true}; }
  static DType i64() { return {Type::i64(), false}; }
  static DType u64() { return {Type::i64(), true}; }
  static DType f16() { return {Type::f16(), false}; }
  static DType bf16() { return {Type::bf16(), false}; }
  static DType f32() { return {Type::f32(), false}; }
  static DType f64() { return {Type::f64(), false}; }

  static DType softFp8Of(SoftFp8 f) { return {Type::i8(), true, f}; }
  // tl.void: the dtype of "no value" (no IR type). A dtype object only: no tensor has it.
  static DType voidType() { return DType{}; }

  bool isVoid() const { return !type; }

  bool isBool() const { return type == Type::i1(); }
  bool isSoftFp8() const { return softFp8 != SoftFp8::None && !isPtr(); }
  bool isInt() const { return type.isInteger() && !isSoftFp8(); } // bool included
  bool isSigned() const { return isInt() && !isUnsigned; }
  bool isFloat() const { return type.isFloat() || isSoftFp8(); }
  bool isFp8() const { return type == Type::f8e4m3() || type == Type::f8e5m2() || isSoftFp8(); }
  bool isPtr() const { return type && type.isPtr(); }
  unsigned bits() const { return type ? type.bitWidth() : 0; } // tl.void: 0, as Triton's primitive_bitwidth
  DType pointee() const { return DType{type.pointee(), isUnsigned, softFp8}; }
  DType pointerTo() const { return DType{Type::ptr(type), isUnsigned, softFp8}; }
  // Triton's kind order for scalar promotion: bool < integer < floating.
  int kindRank() const { return isBool() ? 0 : isInt() ? 1 : 2; }
  // Mantissa bits (for choosing the wider float in '/').
  int mantissaBits() const;

  std::string name() const; // Triton's name: "fp32", "uint8", "pointer<fp16>"
  bool operator==(const DType &o) const {
    return type == o.type && softFp8 == o.softFp8 && (isUnsigned == o.isUnsigned || isFloat());
  }
  bool operator!=(const DType &o) const { return !(*this == o); }
};

// tl.<name> dtype attributes: "void", "float16", "float32", "bfloat16", "int32", "uint8", "int1",
// "float8e4nv", "float8e5", "float8e4b15", "float8e4b8", "float8e5b16" and the aliases
// "half", "float", "double".
std::optional<DType> dtypeFromTritonAttribute(std::string_view name);
// Signature dtype names: "fp32", "i32", "u8", "i1", "bf16", "fp8e4nv"...
std::optional<DType> dtypeFromSignatureName(std::string_view name);

} // namespace trident::frontend
