#pragma once
// Internal to the passes: the value of an arith.constant (a splat: one element
// value for a scalar or a whole block) and how to make one.

#include "trident/ir/Builder.h"

#include <cstdint>
#include <optional>

namespace trident::passes {

class ConstantValue {
public:
  // An integer of `element`'s width; bits above the width are dropped.
  static ConstantValue integer(Type element, uint64_t bits);
  // A float of type `element`; `value` must already be rounded to it.
  static ConstantValue floating(Type element, double value);
  static ConstantValue boolean(bool value) { return integer(Type::i1(), value ? 1 : 0); }

  Type element() const { return element_; }
  bool isInt() const { return element_.isInteger(); }
  bool isFloat() const { return element_.isFloat(); }
  unsigned width() const { return element_.bitWidth(); }
  // Integers: the value read as unsigned / as signed (two's complement).
  uint64_t zext() const { return bits_; }
  int64_t sext() const;
  bool isZero() const { return isInt() ? bits_ == 0 : real_ == 0; }
  bool isAllOnes() const; // integers only
  // Floats: the value.
  double real() const { return real_; }

  // The `value` attribute of an arith.constant holding this value.
  Attribute attribute() const;
  bool operator==(const ConstantValue &o) const = default;

private:
  Type element_;
  uint64_t bits_ = 0;
  double real_ = 0;
};

// True for float element types whose arithmetic the passes fold exactly: f64, f32,
// f16 and bf16 (not the f8 types, whose arithmetic and overflow rules vary by target).
bool isFoldableFloat(Type element);
// `v` rounded to the nearest (ties to even) value of `element`, a foldable float type.
double roundTo(Type element, double v);
// `v` rounded toward zero to `element`, a foldable float type narrower than f64.
double roundTowardZero(Type element, double v);
// The bit pattern of `v` (a value of float type `element`), and back; nothing for
// the f8 types.
std::optional<uint64_t> floatBits(Type element, double v);
std::optional<double> floatFromBits(Type element, uint64_t bits);

// The value of `v` when an arith.constant defines it.
std::optional<ConstantValue> constantOf(const Value *v);
// An arith.constant of `type` (a scalar or a block of c's element type) holding `c`.
Value *materialize(Builder &b, const ConstantValue &c, Type type);

// Bits `bits` truncated to `width`, and read back signed.
uint64_t truncateBits(uint64_t bits, unsigned width);
int64_t signExtend(uint64_t bits, unsigned width);

} // namespace trident::passes
