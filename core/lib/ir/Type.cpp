#include "trident/ir/Type.h"

#include <array>
#include <cassert>
#include <map>
#include <memory>
#include <mutex>
#include <tuple>
#include <vector>

namespace trident {
namespace detail {

struct TypeStorage {
  TypeKind kind;
  Type element;  // pointee for pointers, element for blocks and vectors
  unsigned addressSpace = 0;
  std::vector<int64_t> shape;

  using Key = std::tuple<TypeKind, const void *, unsigned, std::vector<int64_t>>;

  static Type get(TypeKind kind, Type element, unsigned addressSpace, std::vector<int64_t> shape) {
    static std::mutex mutex;
    static std::map<Key, std::unique_ptr<TypeStorage>> types;
    std::lock_guard lock(mutex);
    Key key{kind, element.opaque(), addressSpace, shape};
    auto it = types.find(key);
    if (it == types.end()) {
      auto s = std::make_unique<TypeStorage>(TypeStorage{kind, element, addressSpace, std::move(shape)});
      it = types.emplace(std::move(key), std::move(s)).first;
    }
    return Type(it->second.get());
  }
};

} // namespace detail

using detail::TypeStorage;

Type Type::scalar(TypeKind kind) {
  assert(kind < TypeKind::Ptr && "not a scalar kind");
  // Asked for all the time (every Type::f32()): the scalars are looked up once, so that
  // asking takes neither the lock nor the map (it was 3/4 of the simulator's time on
  // cooperative-matrix dots).
  static const std::array<Type, size_t(TypeKind::Ptr)> scalars = [] {
    std::array<Type, size_t(TypeKind::Ptr)> all;
    for (size_t k = 0; k < all.size(); ++k)
      all[k] = TypeStorage::get(TypeKind(k), Type(), 0, {});
    return all;
  }();
  return scalars[size_t(kind)];
}
Type Type::i1() { return scalar(TypeKind::I1); }
Type Type::i8() { return scalar(TypeKind::I8); }
Type Type::i16() { return scalar(TypeKind::I16); }
Type Type::i32() { return scalar(TypeKind::I32); }
Type Type::i64() { return scalar(TypeKind::I64); }
Type Type::f16() { return scalar(TypeKind::F16); }
Type Type::bf16() { return scalar(TypeKind::BF16); }
Type Type::f32() { return scalar(TypeKind::F32); }
Type Type::f64() { return scalar(TypeKind::F64); }
Type Type::f8e4m3() { return scalar(TypeKind::F8E4M3); }
Type Type::f8e5m2() { return scalar(TypeKind::F8E5M2); }

Type Type::integer(unsigned bits) {
  switch (bits) {
  case 1: return i1();
  case 8: return i8();
  case 16: return i16();
  case 32: return i32();
  case 64: return i64();
  }
  assert(false && "unsupported integer width");
  return Type();
}

Type Type::ptr(Type pointee, unsigned addressSpace) {
  assert(pointee && pointee.isScalar() && "pointee must be a scalar or pointer");
  return TypeStorage::get(TypeKind::Ptr, pointee, addressSpace, {});
}

Type Type::block(std::span<const int64_t> shape, Type element) {
  assert(element && element.isScalar() && "block elements are scalars or pointers");
  if (shape.empty())
    return element;
  return TypeStorage::get(TypeKind::Block, element, 0, std::vector<int64_t>(shape.begin(), shape.end()));
}

Type Type::vector(int64_t length, Type element) {
  assert(element && element.isScalar() && length > 0);
  return TypeStorage::get(TypeKind::Vector, element, 0, {length});
}

Type Type::coopMatrix(int64_t rows, int64_t cols, Type element, unsigned use) {
  assert(element && (element.isInteger() || element.isFloat()) && rows > 0 && cols > 0 && use <= 2);
  return TypeStorage::get(TypeKind::CoopMatrix, element, use, {rows, cols});
}

unsigned Type::matrixUse() const {
  assert(isCoopMatrix());
  return impl_->addressSpace;
}

TypeKind Type::kind() const { return impl_->kind; }
bool Type::isInteger() const { return impl_ && impl_->kind <= TypeKind::I64; }
bool Type::isFloat() const { return impl_ && impl_->kind >= TypeKind::F16 && impl_->kind <= TypeKind::F8E5M2; }

unsigned Type::bitWidth() const {
  switch (kind()) {
  case TypeKind::I1: return 1;
  case TypeKind::I8: case TypeKind::F8E4M3: case TypeKind::F8E5M2: return 8;
  case TypeKind::I16: case TypeKind::F16: case TypeKind::BF16: return 16;
  case TypeKind::I32: case TypeKind::F32: return 32;
  case TypeKind::I64: case TypeKind::F64: case TypeKind::Ptr: return 64;
  case TypeKind::Block: case TypeKind::Vector: case TypeKind::CoopMatrix: return impl_->element.bitWidth();
  }
  return 0;
}

Type Type::pointee() const {
  assert(isPtr());
  return impl_->element;
}
unsigned Type::addressSpace() const {
  assert(isPtr());
  return impl_->addressSpace;
}
std::span<const int64_t> Type::shape() const { return impl_->shape; }

int64_t Type::numElements() const {
  int64_t n = 1;
  for (int64_t d : impl_->shape)
    n *= d;
  return n;
}

Type Type::element() const { return isScalar() ? *this : impl_->element; }

Type Type::withElement(Type element) const {
  if (isCoopMatrix())
    return coopMatrix(impl_->shape[0], impl_->shape[1], element, impl_->addressSpace);
  if (isVector())
    return vector(impl_->shape[0], element);
  return block(shape(), element);
}

const char *scalarKindName(TypeKind kind) {
  switch (kind) {
  case TypeKind::I1: return "i1";
  case TypeKind::I8: return "i8";
  case TypeKind::I16: return "i16";
  case TypeKind::I32: return "i32";
  case TypeKind::I64: return "i64";
  case TypeKind::F16: return "f16";
  case TypeKind::BF16: return "bf16";
  case TypeKind::F32: return "f32";
  case TypeKind::F64: return "f64";
  case TypeKind::F8E4M3: return "f8e4m3";
  case TypeKind::F8E5M2: return "f8e5m2";
  default: return "";
  }
}

std::string Type::str() const {
  if (!impl_)
    return "<null>";
  switch (kind()) {
  case TypeKind::Ptr:
    return "ptr<" + pointee().str() + (addressSpace() ? ", " + std::to_string(addressSpace()) : "") + ">";
  case TypeKind::Block:
  case TypeKind::Vector: {
    std::string s = isBlock() ? "block<" : "vector<";
    for (int64_t d : shape())
      s += std::to_string(d) + "x";
    return s + element().str() + ">";
  }
  case TypeKind::CoopMatrix: {
    static const char *uses[] = {"a", "b", "acc"};
    return "coopmat<" + std::to_string(shape()[0]) + "x" + std::to_string(shape()[1]) + "x" + element().str() + ", " +
           uses[matrixUse()] + ">";
  }
  default:
    return scalarKindName(kind());
  }
}

} // namespace trident
