// Rules of the elementwise ops: integer and float arithmetic, comparisons,
// arith.select, casts and math functions. Operands and results of these ops may
// be scalars, blocks, or (in the thread IR) vectors.

#include "OpChecker.h"

#include "trident/ir/ArithOps.h"
#include "trident/ir/MathOps.h"

namespace trident::verifier {

namespace {

enum class Elements { Integer, Float };

// f8 types are storage types: they are loaded, stored, converted and multiplied by
// tt.dot, but never computed with elementwise.
bool rejectF8(OpChecker &c, Type t, std::string_view what) {
  Type e = t.element();
  if (e != Type::f8e4m3() && e != Type::f8e5m2())
    return true;
  c.error(std::string(what) + " must not have f8 elements, which are for storage only, got " + t.str());
  return false;
}

// All operands share one type with `elements`, and the result has it too.
void verifySameTypeOp(OpChecker &c, Elements elements) {
  const Op *op = c.op();
  for (unsigned i = 1; i < op->numOperands(); ++i)
    if (!c.expectSameOperandTypes(0, i))
      return;
  Type t = c.operand(0);
  std::string what = op->numOperands() == 1 ? "operand" : "operands";
  bool ok = elements == Elements::Integer ? c.expectIntegerLike(t, what)
                                          : c.expectFloatLike(t, what) && rejectF8(c, t, what);
  if (ok)
    c.expectResultType(0, t);
}

void verifyCompare(OpChecker &c, Elements elements) {
  if (elements == Elements::Integer)
    c.stringAttr("predicate", true, {"eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"});
  else
    c.stringAttr(
        "predicate", true,
        {"oeq", "one", "olt", "ole", "ogt", "oge", "ord", "ueq", "une", "ult", "ule", "ugt", "uge", "uno"});
  if (!c.expectSameOperandTypes(0, 1))
    return;
  Type t = c.operand(0);
  bool ok = elements == Elements::Integer ? c.expectIntegerLike(t, "operands")
                                          : c.expectFloatLike(t, "operands") && rejectF8(c, t, "operands");
  if (ok)
    c.expectResultType(0, t.withElement(Type::i1()));
}

void verifySelect(OpChecker &c) {
  if (!c.expectSameOperandTypes(1, 2))
    return;
  Type cond = c.operand(0), t = c.operand(1);
  if (cond != Type::i1() && cond != t.withElement(Type::i1())) {
    c.error("condition must be i1 or " + t.withElement(Type::i1()).str() + ", got " + cond.str());
    return;
  }
  c.expectResultType(0, t);
}

// What a cast accepts and produces.
enum class Width { Wider, Narrower, Any };

void verifyCast(OpChecker &c, Elements from, Elements to, Width width) {
  Type in = c.operand(0), out = c.result();
  bool ok = from == Elements::Integer ? c.expectIntegerLike(in, "operand") : c.expectFloatLike(in, "operand");
  ok =
      (to == Elements::Integer ? c.expectIntegerLike(out, "result") : c.expectFloatLike(out, "result")) && ok;
  if (!ok)
    return;
  if (!sameShape(in, out)) {
    c.error("result shape must match the operand shape, got " + in.str() + " and " + out.str());
    return;
  }
  // Only extf and truncf convert to and from f8; integers go through a wider float.
  if (from != to && (!rejectF8(c, in, "operand") || !rejectF8(c, out, "result")))
    return;
  if (width == Width::Wider && out.bitWidth() <= in.bitWidth())
    c.error("result elements must be wider than the operand's, got " + in.str() + " to " + out.str());
  if (width == Width::Narrower && out.bitWidth() >= in.bitWidth())
    c.error("result elements must be narrower than the operand's, got " + in.str() + " to " + out.str());
}

} // namespace

void verifyArithOp(OpChecker &c) {
  if (const MathOpInfo *math = mathOpInfo(c.op()->code()))
    return verifySameTypeOp(c, math->elements == MathElements::Integer ? Elements::Integer : Elements::Float);
  if (const ArithOpInfo *arith = arithOpInfo(c.op()->code()))
    return verifySameTypeOp(c, arith->elements == ArithElements::Integer ? Elements::Integer : Elements::Float);
  switch (c.op()->code()) {
  case OpCode::CmpI: return verifyCompare(c, Elements::Integer);
  case OpCode::CmpF: return verifyCompare(c, Elements::Float);
  case OpCode::Select: return verifySelect(c);
  case OpCode::ExtSI:
  case OpCode::ExtUI: return verifyCast(c, Elements::Integer, Elements::Integer, Width::Wider);
  case OpCode::TruncI: return verifyCast(c, Elements::Integer, Elements::Integer, Width::Narrower);
  case OpCode::SIToFP:
  case OpCode::UIToFP: return verifyCast(c, Elements::Integer, Elements::Float, Width::Any);
  case OpCode::FPToSI:
  case OpCode::FPToUI: return verifyCast(c, Elements::Float, Elements::Integer, Width::Any);
  case OpCode::ExtF: return verifyCast(c, Elements::Float, Elements::Float, Width::Wider);
  case OpCode::TruncF:
    c.stringAttr("rounding", false, {"rtne", "rtz"});
    return verifyCast(c, Elements::Float, Elements::Float, Width::Narrower);
  default: return;
  }
}

} // namespace trident::verifier
