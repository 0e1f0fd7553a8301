#pragma once
// Types of both IR levels. Types are interned: equal types are the same pointer,
// so Type is a cheap value compared with ==.
//
//   scalars   i1 i8 i16 i32 i64 f16 bf16 f32 f64 f8e4m3 f8e5m2
//   pointers  ptr<f32>, ptr<ptr<i8>>, ptr<f16, 3> (address space 3 = shared memory)
//   blocks    block<128x64xf16>, block<128xptr<f32>>   static power-of-two shapes
//   vectors   vector<4xf32>                             thread IR only
//   matrices  coopmat<16x16xf16, a>                     thread IR only: a cooperative matrix
//             (Vulkan), one tile spread over a subgroup in a layout only the driver knows;
//             its use is a (left operand), b (right operand) or acc (accumulator)
//
// Integers carry no signedness: ops say how they read their operands, as in LLVM.
// A rank-0 block is the scalar itself: Type::block({}, t) == t.

#include <cstdint>
#include <functional>
#include <span>
#include <string>

namespace trident {

enum class TypeKind : uint8_t {
  I1, I8, I16, I32, I64,
  F16, BF16, F32, F64, F8E4M3, F8E5M2,
  Ptr, Block, Vector, CoopMatrix,
};

namespace detail { struct TypeStorage; }

class Type {
public:
  Type() = default; // the null type
  explicit operator bool() const { return impl_ != nullptr; }

  static Type i1();
  static Type i8();
  static Type i16();
  static Type i32();
  static Type i64();
  static Type f16();
  static Type bf16();
  static Type f32();
  static Type f64();
  static Type f8e4m3();
  static Type f8e5m2();
  static Type scalar(TypeKind kind);
  static Type integer(unsigned bits); // 1, 8, 16, 32 or 64
  static Type ptr(Type pointee, unsigned addressSpace = 0);
  // `element` must be a scalar or pointer; an empty shape gives `element` itself.
  static Type block(std::span<const int64_t> shape, Type element);
  static Type block(std::initializer_list<int64_t> shape, Type element) {
    return block(std::span<const int64_t>(shape.begin(), shape.size()), element);
  }
  static Type vector(int64_t length, Type element);
  // A cooperative matrix of `rows` x `cols` elements; `use` 0 = a, 1 = b, 2 = acc.
  static Type coopMatrix(int64_t rows, int64_t cols, Type element, unsigned use);

  TypeKind kind() const;
  bool isInteger() const; // i1..i64
  bool isFloat() const;   // f16..f8e5m2
  bool isPtr() const { return kind() == TypeKind::Ptr; }
  bool isBlock() const { return kind() == TypeKind::Block; }
  bool isVector() const { return kind() == TypeKind::Vector; }
  bool isCoopMatrix() const { return kind() == TypeKind::CoopMatrix; }
  bool isScalar() const { return !isBlock() && !isVector() && !isCoopMatrix(); } // ints, floats, pointers
  // Cooperative matrices: 0 (a), 1 (b) or 2 (acc).
  unsigned matrixUse() const;

  // Bits of a scalar (pointers: 64). Blocks and vectors: bits of the element.
  unsigned bitWidth() const;
  // Pointers: the pointee type and address space.
  Type pointee() const;
  unsigned addressSpace() const;
  // Blocks, vectors and matrices: the shape (a vector has rank 1); scalars: empty.
  std::span<const int64_t> shape() const;
  unsigned rank() const { return static_cast<unsigned>(shape().size()); }
  int64_t numElements() const; // 1 for scalars
  // Blocks and vectors: the element type; scalars: the type itself.
  Type element() const;
  // The same shape with another element type (a scalar for scalars).
  Type withElement(Type element) const;

  // The textual form, as the printer writes it and the parser reads it.
  std::string str() const;

  bool operator==(const Type &o) const { return impl_ == o.impl_; }
  bool operator!=(const Type &o) const { return impl_ != o.impl_; }
  const void *opaque() const { return impl_; }

private:
  explicit Type(const detail::TypeStorage *impl) : impl_(impl) {}
  friend struct detail::TypeStorage;
  const detail::TypeStorage *impl_ = nullptr;
};

// Names used in textual IR: "i32", "f16", "f8e4m3" ... ; empty for non-scalars.
const char *scalarKindName(TypeKind kind);

} // namespace trident

template <> struct std::hash<trident::Type> {
  size_t operator()(const trident::Type &t) const { return std::hash<const void *>()(t.opaque()); }
};
