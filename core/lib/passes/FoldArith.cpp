// Folding of arithmetic, comparisons, selects and casts: constant operands are
// evaluated (Evaluate.cpp); otherwise algebraic identities apply.

#include "Evaluate.h"
#include "Fold.h"

#include <cmath>
#include <string>

namespace trident::passes {

namespace {

FoldResult replaceWith(Value *v) { return {v, false}; }

FoldResult replaceWithConstant(Builder &b, const ConstantValue &c, Type type) {
  return {materialize(b, c, type), false};
}

// Ops that pointers flow through; constants are never pointers, so nothing to fold.
bool isPointerOp(const Op *op) {
  return op->is(OpCode::AddPtr) || op->is(OpCode::PtrToInt) || op->is(OpCode::IntToPtr);
}

bool isFloatConstant(const std::optional<ConstantValue> &c, double v) {
  return c && c->isFloat() && c->real() == v && std::signbit(c->real()) == std::signbit(v);
}

// What cmpi %x, %x gives, by predicate.
bool compareWithItself(const std::string &predicate) {
  return predicate == "eq" || predicate == "sle" || predicate == "sge" || predicate == "ule" ||
         predicate == "uge";
}

// Identities of binary integer ops with one operand unknown.
FoldResult integerIdentity(Op *op, Builder &b, const std::optional<ConstantValue> &rhs) {
  Value *x = op->operand(0);
  Type type = op->result()->type();
  const bool same = op->operand(0) == op->operand(1);
  const bool zero = rhs && rhs->isZero(), one = rhs && rhs->zext() == 1;
  const ConstantValue zeroValue = ConstantValue::integer(type.element(), 0);
  switch (op->code()) {
  case OpCode::AddI:
  case OpCode::OrI:
  case OpCode::XOrI:
  case OpCode::ShLI:
  case OpCode::ShRSI:
  case OpCode::ShRUI:
    if (zero)
      return replaceWith(x);
    break;
  case OpCode::SubI:
    if (zero)
      return replaceWith(x);
    break;
  case OpCode::MulI:
    if (one)
      return replaceWith(x);
    if (zero)
      return replaceWithConstant(b, zeroValue, type);
    break;
  case OpCode::DivSI:
  case OpCode::DivUI:
    if (one)
      return replaceWith(x);
    break;
  case OpCode::RemSI:
  case OpCode::RemUI:
    if (one)
      return replaceWithConstant(b, zeroValue, type);
    break;
  case OpCode::AndI:
    if (zero)
      return replaceWithConstant(b, zeroValue, type);
    if (rhs && rhs->isAllOnes())
      return replaceWith(x);
    break;
  default: break;
  }
  if (op->is(OpCode::OrI) && rhs && rhs->isAllOnes())
    return replaceWith(op->operand(1));
  if (!same)
    return {};
  switch (op->code()) {
  case OpCode::SubI:
  case OpCode::XOrI: return replaceWithConstant(b, zeroValue, type);
  case OpCode::AndI:
  case OpCode::OrI:
  case OpCode::MinSI:
  case OpCode::MaxSI:
  case OpCode::MinUI:
  case OpCode::MaxUI: return replaceWith(x);
  case OpCode::CmpI: {
    const Attribute &predicate = op->attr("predicate");
    if (!predicate.isString())
      return {};
    return replaceWithConstant(b, ConstantValue::boolean(compareWithItself(predicate.getString())), type);
  }
  default: return {};
  }
}

// Identities of float ops that hold for every x, NaN and signed zeros included.
FoldResult floatIdentity(Op *op, const std::optional<ConstantValue> &rhs) {
  Value *x = op->operand(0);
  switch (op->code()) {
  case OpCode::AddF: return isFloatConstant(rhs, -0.0) ? replaceWith(x) : FoldResult{};
  case OpCode::SubF: return isFloatConstant(rhs, 0.0) ? replaceWith(x) : FoldResult{};
  case OpCode::MulF:
  case OpCode::DivF:
  case OpCode::PreciseDivF: return isFloatConstant(rhs, 1.0) ? replaceWith(x) : FoldResult{};
  default: return {};
  }
}

FoldResult foldSelect(Op *op, const std::optional<ConstantValue> &cond) {
  if (cond)
    return replaceWith(op->operand(cond->zext() ? 1 : 2));
  if (op->operand(1) == op->operand(2))
    return replaceWith(op->operand(1));
  return {};
}

// Truncating a value just extended from the same type gives the value back.
FoldResult foldTruncOfExt(Op *op) {
  Op *ext = op->operand(0)->definingOp();
  if (ext && (ext->is(OpCode::ExtSI) || ext->is(OpCode::ExtUI)) &&
      ext->operand(0)->type() == op->result()->type())
    return replaceWith(ext->operand(0));
  return {};
}

// cmpi P (ext x), C with C a constant that the extension reaches (C == ext(trunc C)):
// compares x with trunc C at x's width. Sign extension keeps both the signed and the
// unsigned order; zero extension makes every value non-negative, so a signed
// predicate becomes the unsigned one. Narrow comparisons are cheaper on every target,
// and they keep 64-bit compares of a sign-extended 32-bit value off lavapipe (Mesa
// 22.3.6 took `sext(x) < 7` inside a loop as false for negative x: random seed 2788).
FoldResult foldCompareOfExt(Op *op, Builder &b, const std::optional<ConstantValue> &rhs) {
  Op *ext = op->operand(0)->definingOp();
  if (!rhs || !rhs->isInt() || !ext || !(ext->is(OpCode::ExtSI) || ext->is(OpCode::ExtUI)))
    return {};
  const Attribute &predicate = op->attr("predicate");
  if (!predicate.isString())
    return {};
  Value *x = ext->operand(0);
  const unsigned narrow = x->type().element().bitWidth();
  if (narrow < 8) // i1: ordered comparisons of booleans are not every target's
    return {};
  const bool signExt = ext->is(OpCode::ExtSI);
  const uint64_t low = truncateBits(rhs->zext(), narrow);
  const uint64_t back = signExt ? static_cast<uint64_t>(signExtend(low, narrow)) : low;
  if (truncateBits(back, rhs->width()) != rhs->zext())
    return {};
  std::string p = predicate.getString();
  if (!signExt && p.size() == 3 && p[0] == 's')
    p[0] = 'u';
  op->setOperand(0, x);
  op->setOperand(1, materialize(b, ConstantValue::integer(x->type().element(), low), x->type()));
  op->setAttr("predicate", Attribute::string(p));
  return {nullptr, true};
}

} // namespace

FoldResult foldArith(Op *op, Builder &b) {
  if (!op->has(kElementwise) || op->numResults() != 1 || isPointerOp(op))
    return {};
  std::vector<ConstantValue> constants;
  for (Value *v : op->operands())
    if (std::optional<ConstantValue> c = constantOf(v))
      constants.push_back(*c);
  Type type = op->result()->type();
  if (constants.size() == op->numOperands()) {
    if (std::optional<ConstantValue> r = evaluate(op, constants, type.element()))
      return replaceWithConstant(b, *r, type);
    return {};
  }
  if (op->is(OpCode::Select))
    return foldSelect(op, constantOf(op->operand(0)));
  if (op->is(OpCode::TruncI))
    return foldTruncOfExt(op);
  if (op->numOperands() != 2)
    return {};
  if (op->has(kCommutative) && constantOf(op->operand(0))) {
    // Constants go to the right, so identities need one form and CSE sees one order.
    Value *lhs = op->operand(0), *rhs = op->operand(1);
    op->setOperand(0, rhs);
    op->setOperand(1, lhs);
    return {nullptr, true};
  }
  std::optional<ConstantValue> rhs = constantOf(op->operand(1));
  if (op->is(OpCode::CmpI))
    if (FoldResult r = foldCompareOfExt(op, b, rhs); r.changed())
      return r;
  if (op->operand(0)->type().element().isInteger())
    return integerIdentity(op, b, rhs);
  return floatIdentity(op, rhs);
}

} // namespace trident::passes
