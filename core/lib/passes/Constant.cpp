#include "Constant.h"

#include "trident/support/FloatFormats.h"

#include <bit>
#include <cassert>

namespace trident::passes {

uint64_t truncateBits(uint64_t bits, unsigned width) {
  return width >= 64 ? bits : bits & ((uint64_t(1) << width) - 1);
}

int64_t signExtend(uint64_t bits, unsigned width) {
  if (width >= 64)
    return static_cast<int64_t>(bits);
  uint64_t sign = uint64_t(1) << (width - 1);
  uint64_t low = truncateBits(bits, width);
  return static_cast<int64_t>((low ^ sign) - sign);
}

namespace {

std::optional<FloatFormat> narrowFormat(Type element) {
  switch (element.kind()) {
  case TypeKind::F32: return FloatFormat::F32;
  case TypeKind::F16: return FloatFormat::F16;
  case TypeKind::BF16: return FloatFormat::BF16;
  default: return std::nullopt;
  }
}

} // namespace

bool isFoldableFloat(Type element) { return element == Type::f64() || narrowFormat(element).has_value(); }

double roundTo(Type element, double v) {
  assert(isFoldableFloat(element));
  if (element == Type::f64())
    return v;
  if (element == Type::f32())
    return static_cast<double>(static_cast<float>(v));
  return roundToFormat(v, *narrowFormat(element));
}

double roundTowardZero(Type element, double v) {
  assert(narrowFormat(element));
  return roundToFormat(v, *narrowFormat(element), FloatRounding::TowardZero);
}

std::optional<uint64_t> floatBits(Type element, double v) {
  if (element == Type::f64())
    return std::bit_cast<uint64_t>(v);
  if (element == Type::f32())
    return std::bit_cast<uint32_t>(static_cast<float>(v));
  if (std::optional<FloatFormat> format = narrowFormat(element))
    return encodeFloat(v, *format);
  return std::nullopt;
}

std::optional<double> floatFromBits(Type element, uint64_t bits) {
  if (element == Type::f64())
    return std::bit_cast<double>(bits);
  if (element == Type::f32())
    return std::bit_cast<float>(static_cast<uint32_t>(bits));
  if (std::optional<FloatFormat> format = narrowFormat(element))
    return decodeFloat(static_cast<uint32_t>(bits), *format);
  return std::nullopt;
}

ConstantValue ConstantValue::integer(Type element, uint64_t bits) {
  assert(element.isInteger());
  ConstantValue c;
  c.element_ = element;
  c.bits_ = truncateBits(bits, element.bitWidth());
  return c;
}

ConstantValue ConstantValue::floating(Type element, double value) {
  assert(element.isFloat());
  ConstantValue c;
  c.element_ = element;
  c.real_ = value;
  return c;
}

int64_t ConstantValue::sext() const { return signExtend(bits_, width()); }

bool ConstantValue::isAllOnes() const { return bits_ == truncateBits(~uint64_t(0), width()); }

Attribute ConstantValue::attribute() const {
  if (element_ == Type::i1())
    return Attribute::boolean(bits_ != 0);
  if (isInt())
    return Attribute::integer(sext());
  return Attribute::floating(real_);
}

std::optional<ConstantValue> constantOf(const Value *v) {
  const Op *def = v->definingOp();
  if (!def || !def->is(OpCode::Constant))
    return std::nullopt;
  Type element = v->type().element();
  const Attribute &a = def->attr("value");
  if (element.isInteger()) {
    if (a.isBool())
      return ConstantValue::integer(element, a.getBool() ? 1 : 0);
    if (a.isInt())
      return ConstantValue::integer(element, static_cast<uint64_t>(a.getInt()));
    return std::nullopt;
  }
  if (element.isFloat() && a.isFloat())
    // The attribute may carry more precision than the type; the op's value is rounded.
    return ConstantValue::floating(element,
                                   isFoldableFloat(element) ? roundTo(element, a.getFloat()) : a.getFloat());
  return std::nullopt;
}

Value *materialize(Builder &b, const ConstantValue &c, Type type) {
  assert(type.element() == c.element());
  Type types[] = {type};
  return b.create(OpCode::Constant, std::span<Value *const>{}, types, {{"value", c.attribute()}})->result();
}

} // namespace trident::passes
