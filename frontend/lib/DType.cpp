#include "DType.h"

namespace trident::frontend {

int DType::mantissaBits() const {
  if (isSoftFp8())
    return softFp8 == SoftFp8::E5B16 ? 2 : 3;
  if (isVoid())
    return 0;
  switch (type.kind()) {
  case TypeKind::F16: return 10;
  case TypeKind::BF16: return 7;
  case TypeKind::F32: return 23;
  case TypeKind::F64: return 52;
  case TypeKind::F8E4M3: return 3;
  case TypeKind::F8E5M2: return 2;
  default: return 0;
  }
}

std::string DType::name() const {
  if (!type)
    return "void";
  if (isSoftFp8())
    return softFp8 == SoftFp8::E4B15 ? "fp8e4b15" : softFp8 == SoftFp8::E4B8 ? "fp8e4b8" : "fp8e5b16";
  switch (type.kind()) {
  case TypeKind::I1: return "int1";
  case TypeKind::I8: return isUnsigned ? "uint8" : "int8";
  case TypeKind::I16: return isUnsigned ? "uint16" : "int16";
  case TypeKind::I32: return isUnsigned ? "uint32" : "int32";
  case TypeKind::I64: return isUnsigned ? "uint64" : "int64";
  case TypeKind::F16: return "fp16";
  case TypeKind::BF16: return "bf16";
  case TypeKind::F32: return "fp32";
  case TypeKind::F64: return "fp64";
  case TypeKind::F8E4M3: return "fp8e4nv";
  case TypeKind::F8E5M2: return "fp8e5";
  case TypeKind::Ptr: return "pointer<" + pointee().name() + ">";
  default: return type.str();
  }
}

std::optional<DType> dtypeFromTritonAttribute(std::string_view n) {
  if (n == "void")
    return DType::voidType();
  if (n == "int1")
    return DType::i1();
  if (n == "int8")
    return DType{Type::i8(), false};
  if (n == "int16")
    return DType{Type::i16(), false};
  if (n == "int32")
    return DType::i32();
  if (n == "int64")
    return DType::i64();
  if (n == "uint8")
    return DType{Type::i8(), true};
  if (n == "uint16")
    return DType{Type::i16(), true};
  if (n == "uint32")
    return DType::u32();
  if (n == "uint64")
    return DType::u64();
  if (n == "float16" || n == "half")
    return DType::f16();
  if (n == "bfloat16")
    return DType::bf16();
  if (n == "float32" || n == "float")
    return DType::f32();
  if (n == "float64" || n == "double")
    return DType::f64();
  if (n == "float8e4nv")
    return DType{Type::f8e4m3(), false};
  if (n == "float8e5")
    return DType{Type::f8e5m2(), false};
  if (n == "float8e4b15")
    return DType::softFp8Of(SoftFp8::E4B15);
  if (n == "float8e4b8")
    return DType::softFp8Of(SoftFp8::E4B8);
  if (n == "float8e5b16")
    return DType::softFp8Of(SoftFp8::E5B16);
  if (n == "pi32_t")
    return DType::i32().pointerTo();
  return std::nullopt;
}

std::optional<DType> dtypeFromSignatureName(std::string_view n) {
  if (n == "i1" || n == "B")
    return DType::i1();
  if (n == "i8")
    return DType{Type::i8(), false};
  if (n == "i16")
    return DType{Type::i16(), false};
  if (n == "i32")
    return DType::i32();
  if (n == "i64")
    return DType::i64();
  if (n == "u1")
    return DType::i1();
  if (n == "u8")
    return DType{Type::i8(), true};
  if (n == "u16")
    return DType{Type::i16(), true};
  if (n == "u32")
    return DType::u32();
  if (n == "u64")
    return DType::u64();
  if (n == "fp16")
    return DType::f16();
  if (n == "bf16")
    return DType::bf16();
  if (n == "fp32")
    return DType::f32();
  if (n == "fp64")
    return DType::f64();
  if (n == "fp8e4nv")
    return DType{Type::f8e4m3(), false};
  if (n == "fp8e5")
    return DType{Type::f8e5m2(), false};
  if (n == "fp8e4b15")
    return DType::softFp8Of(SoftFp8::E4B15);
  if (n == "fp8e4b8")
    return DType::softFp8Of(SoftFp8::E4B8);
  if (n == "fp8e5b16")
    return DType::softFp8Of(SoftFp8::E5B16);
  return std::nullopt;
}

} // namespace trident::frontend
