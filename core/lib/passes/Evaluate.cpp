#include "Evaluate.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>
#include <string>

namespace trident::passes {

namespace {

using Result = std::optional<ConstantValue>;

// ---- integers -----------------------------------------------------------------

int64_t signedMin(unsigned width) { return signExtend(uint64_t(1) << (width - 1), width); }

std::optional<uint64_t> integerBinary(OpCode code, const ConstantValue &a, const ConstantValue &b) {
  const unsigned w = a.width();
  const uint64_t x = a.zext(), y = b.zext();
  const int64_t sx = a.sext(), sy = b.sext();
  switch (code) {
  case OpCode::AddI: return x + y;
  case OpCode::SubI: return x - y;
  case OpCode::MulI: return x * y;
  case OpCode::DivUI: return y == 0 ? std::nullopt : std::optional<uint64_t>(x / y);
  case OpCode::RemUI: return y == 0 ? std::nullopt : std::optional<uint64_t>(x % y);
  case OpCode::DivSI:
    if (y == 0 || (sx == signedMin(w) && sy == -1))
      return std::nullopt;
    return static_cast<uint64_t>(sx / sy);
  case OpCode::RemSI:
    if (y == 0)
      return std::nullopt;
    return sy == -1 ? 0 : static_cast<uint64_t>(sx % sy);
  case OpCode::AndI: return x & y;
  case OpCode::OrI: return x | y;
  case OpCode::XOrI: return x ^ y;
  case OpCode::ShLI: return y >= w ? std::nullopt : std::optional<uint64_t>(x << y);
  case OpCode::ShRUI: return y >= w ? std::nullopt : std::optional<uint64_t>(x >> y);
  case OpCode::ShRSI: return y >= w ? std::nullopt : std::optional<uint64_t>(static_cast<uint64_t>(sx >> y));
  case OpCode::MinSI: return sx < sy ? x : y;
  case OpCode::MaxSI: return sx > sy ? x : y;
  case OpCode::MinUI: return x < y ? x : y;
  case OpCode::MaxUI: return x > y ? x : y;
  case OpCode::UMulHi: {
    unsigned __int128 product = static_cast<unsigned __int128>(x) * y;
    return static_cast<uint64_t>(product >> w);
  }
  default: return std::nullopt;
  }
}

std::optional<bool> compareIntegers(const std::string &predicate, const ConstantValue &a,
                                    const ConstantValue &b) {
  const uint64_t x = a.zext(), y = b.zext();
  const int64_t sx = a.sext(), sy = b.sext();
  if (predicate == "eq")
    return x == y;
  if (predicate == "ne")
    return x != y;
  if (predicate == "slt")
    return sx < sy;
  if (predicate == "sle")
    return sx <= sy;
  if (predicate == "sgt")
    return sx > sy;
  if (predicate == "sge")
    return sx >= sy;
  if (predicate == "ult")
    return x < y;
  if (predicate == "ule")
    return x <= y;
  if (predicate == "ugt")
    return x > y;
  if (predicate == "uge")
    return x >= y;
  return std::nullopt;
}

// ---- floats -------------------------------------------------------------------

// Computed exactly or rounded once in double, then rounded to the element type. For
// + - * / and sqrt that equals rounding the exact result once: double carries more
// than 2p+2 bits for every foldable type (p <= 24), so rounding twice changes nothing.
std::optional<double> floatBinary(OpCode code, double a, double b) {
  switch (code) {
  case OpCode::AddF: return a + b;
  case OpCode::SubF: return a - b;
  case OpCode::MulF: return a * b;
  case OpCode::DivF:
  case OpCode::PreciseDivF: return a / b;
  case OpCode::RemF: return std::fmod(a, b);
  case OpCode::MinimumF:
  case OpCode::MaximumF: {
    if (std::isnan(a) || std::isnan(b))
      return std::numeric_limits<double>::quiet_NaN();
    bool min = code == OpCode::MinimumF;
    if (a == b) // equal, or zeros of either sign: -0 counts as less than +0
      return min == static_cast<bool>(std::signbit(a)) ? a : b;
    return min ? std::min(a, b) : std::max(a, b);
  }
  case OpCode::MinNumF:
  case OpCode::MaxNumF: {
    if (std::isnan(a))
      return b;
    if (std::isnan(b))
      return a;
    if (a == b && std::signbit(a) != std::signbit(b))
      return std::nullopt; // which zero comes back differs between targets
    return code == OpCode::MinNumF ? std::min(a, b) : std::max(a, b);
  }
  default: return std::nullopt;
  }
}

std::optional<double> floatUnary(OpCode code, double a) {
  switch (code) {
  case OpCode::Floor: return std::floor(a);
  case OpCode::Ceil: return std::ceil(a);
  case OpCode::PreciseSqrt: return std::sqrt(a); // correctly rounded, unlike math.sqrt on devices
  default: return std::nullopt;
  }
}

std::optional<bool> compareFloats(const std::string &predicate, double a, double b) {
  const bool unordered = std::isnan(a) || std::isnan(b);
  if (predicate == "ord")
    return !unordered;
  if (predicate == "uno")
    return unordered;
  if (predicate.size() != 3 || (predicate[0] != 'o' && predicate[0] != 'u'))
    return std::nullopt;
  if (unordered)
    return predicate[0] == 'u';
  const std::string rel = predicate.substr(1);
  if (rel == "eq")
    return a == b;
  if (rel == "ne")
    return a != b;
  if (rel == "lt")
    return a < b;
  if (rel == "le")
    return a <= b;
  if (rel == "gt")
    return a > b;
  if (rel == "ge")
    return a >= b;
  return std::nullopt;
}

Result floatResult(Type element, std::optional<double> v) {
  if (!v)
    return std::nullopt;
  return ConstantValue::floating(element, roundTo(element, *v));
}

Result evaluateFloatBinary(OpCode code, const ConstantValue &a, const ConstantValue &b) {
  Type t = a.element();
  if (!isFoldableFloat(t))
    return std::nullopt;
  return floatResult(t, floatBinary(code, a.real(), b.real()));
}

Result evaluateFloatUnary(OpCode code, const ConstantValue &a) {
  Type t = a.element();
  // Sign changes are exact in every format, also for values the type cannot hold exactly.
  if (code == OpCode::NegF)
    return ConstantValue::floating(t, -a.real());
  if (code == OpCode::AbsF)
    return ConstantValue::floating(t, std::fabs(a.real()));
  if (!isFoldableFloat(t))
    return std::nullopt;
  return floatResult(t, floatUnary(code, a.real()));
}

// ---- casts --------------------------------------------------------------------

Result floatToInt(double v, Type result, bool isSigned) {
  if (std::isnan(v))
    return std::nullopt;
  const double t = std::trunc(v);
  const unsigned w = result.bitWidth();
  const double lo = isSigned ? -std::ldexp(1.0, static_cast<int>(w) - 1) : 0.0;
  const double hi = std::ldexp(1.0, static_cast<int>(isSigned ? w - 1 : w)); // exclusive
  if (!(t >= lo && t < hi))
    return std::nullopt; // out of range: targets disagree
  uint64_t bits = isSigned ? static_cast<uint64_t>(static_cast<int64_t>(t)) : static_cast<uint64_t>(t);
  return ConstantValue::integer(result, bits);
}

Result intToFloat(const ConstantValue &a, Type result, bool isSigned) {
  if (!isFoldableFloat(result))
    return std::nullopt;
  // f32 and f64 directly from the integer, so the value rounds once.
  if (result == Type::f32())
    return ConstantValue::floating(result,
                                   isSigned ? static_cast<float>(a.sext()) : static_cast<float>(a.zext()));
  if (result == Type::f64())
    return ConstantValue::floating(result,
                                   isSigned ? static_cast<double>(a.sext()) : static_cast<double>(a.zext()));
  // Narrower types through double, which holds the integer exactly only up to 2^53.
  const double v = isSigned ? static_cast<double>(a.sext()) : static_cast<double>(a.zext());
  if (std::fabs(v) > 0x1p53)
    return std::nullopt;
  return ConstantValue::floating(result, roundTo(result, v));
}

Result bitcast(const ConstantValue &a, Type result) {
  Type from = a.element();
  if (from == result)
    return a;
  if (from.bitWidth() != result.bitWidth())
    return std::nullopt;
  if (from.isFloat() && result.isInteger()) {
    std::optional<uint64_t> bits = floatBits(from, a.real());
    return bits ? std::optional<ConstantValue>(ConstantValue::integer(result, *bits)) : std::nullopt;
  }
  if (from.isInteger() && result.isFloat()) {
    std::optional<double> v = floatFromBits(result, a.zext());
    return v ? std::optional<ConstantValue>(ConstantValue::floating(result, *v)) : std::nullopt;
  }
  return std::nullopt;
}

Result evaluateCast(const Op *op, const ConstantValue &a, Type result) {
  switch (op->code()) {
  case OpCode::ExtSI: return ConstantValue::integer(result, static_cast<uint64_t>(a.sext()));
  case OpCode::ExtUI:
  case OpCode::TruncI: return ConstantValue::integer(result, a.zext());
  case OpCode::SIToFP: return intToFloat(a, result, true);
  case OpCode::UIToFP: return intToFloat(a, result, false);
  case OpCode::FPToSI:
  case OpCode::FPToUI:
    if (!isFoldableFloat(a.element()))
      return std::nullopt;
    return floatToInt(a.real(), result, op->is(OpCode::FPToSI));
  case OpCode::ExtF:
    // Every value of the narrower type is one of the wider type.
    if (!isFoldableFloat(a.element()) || !isFoldableFloat(result) || result.bitWidth() <= a.width())
      return std::nullopt;
    return ConstantValue::floating(result, a.real());
  case OpCode::TruncF: {
    if (!isFoldableFloat(a.element()) || !isFoldableFloat(result))
      return std::nullopt;
    const Attribute &rounding = op->attr("rounding");
    if (!rounding.present() || (rounding.isString() && rounding.getString() == "rtne"))
      return ConstantValue::floating(result, roundTo(result, a.real()));
    if (rounding.isString() && rounding.getString() == "rtz")
      return ConstantValue::floating(result, roundTowardZero(result, a.real()));
    return std::nullopt;
  }
  case OpCode::Bitcast: return bitcast(a, result);
  default: return std::nullopt;
  }
}

} // namespace

std::optional<ConstantValue> evaluate(const Op *op, std::span<const ConstantValue> operands, Type result) {
  const OpCode code = op->code();
  if (code == OpCode::Select)
    return operands[0].zext() ? operands[1] : operands[2];
  if (code == OpCode::CmpI || code == OpCode::CmpF) {
    const Attribute &predicate = op->attr("predicate");
    if (!predicate.isString())
      return std::nullopt;
    std::optional<bool> r;
    if (code == OpCode::CmpI)
      r = compareIntegers(predicate.getString(), operands[0], operands[1]);
    else if (isFoldableFloat(operands[0].element()))
      r = compareFloats(predicate.getString(), operands[0].real(), operands[1].real());
    return r ? std::optional<ConstantValue>(ConstantValue::boolean(*r)) : std::nullopt;
  }
  switch (code) {
  case OpCode::ExtSI:
  case OpCode::ExtUI:
  case OpCode::TruncI:
  case OpCode::SIToFP:
  case OpCode::UIToFP:
  case OpCode::FPToSI:
  case OpCode::FPToUI:
  case OpCode::ExtF:
  case OpCode::TruncF:
  case OpCode::Bitcast: return evaluateCast(op, operands[0], result);
  case OpCode::AbsI: {
    uint64_t x = operands[0].zext();
    return ConstantValue::integer(result, operands[0].sext() < 0 ? 0 - x : x);
  }
  default: break;
  }
  if (operands.size() == 1 && operands[0].isFloat())
    return evaluateFloatUnary(code, operands[0]);
  if (operands.size() == 2 && operands[0].isInt()) {
    std::optional<uint64_t> r = integerBinary(code, operands[0], operands[1]);
    return r ? std::optional<ConstantValue>(ConstantValue::integer(result, *r)) : std::nullopt;
  }
  if (operands.size() == 2 && operands[0].isFloat())
    return evaluateFloatBinary(code, operands[0], operands[1]);
  return std::nullopt;
}

} // namespace trident::passes
