// Rules of the hints and debugging ops: tt.multiple_of, tt.max_contiguous,
// tt.assume, tt.print and tt.assert; tt.elementwise_inline_asm.

#include "OpChecker.h"

namespace trident::verifier {

namespace {

void verifyHint(OpChecker &c) {
  Type t = c.operand(0);
  if (!t.element().isInteger() && !t.element().isPtr())
    c.error("operand must have integer or pointer elements, got " + t.str());
  c.expectResultType(0, t);
  const Attribute::IntArray *values = c.intsAttr("values");
  if (!values)
    return;
  size_t expected = t.rank() == 0 ? 1 : t.rank();
  if (values->size() != expected) {
    c.error("attribute 'values' has " + counted(values->size(), "entry", "entries") + ", expected " +
            std::to_string(expected) + " (one per dimension of " + t.str() + ")");
    return;
  }
  for (int64_t v : *values)
    if (v < 1) {
      c.error("attribute 'values' entries must be at least 1, got " + std::to_string(v));
      return;
    }
}

void verifyAssume(OpChecker &c) {
  if (c.operand(0) != Type::i1())
    c.error("operand must be i1, got " + c.operand(0).str());
}

void verifyPrint(OpChecker &c) {
  c.stringAttr("prefix", false);
  c.boolAttr("hex");
}

void verifyAssert(OpChecker &c) {
  c.stringAttr("message", false);
  c.expectBoolLike(c.operand(0), "condition");
}

// Every thread of the program must reach a barrier; a combiner runs once per pair of
// elements, in as many threads as hold them.
void verifyBarrier(OpChecker &c) {
  for (const Op *p = c.op()->parentOp(); p; p = p->parentOp())
    if (p->is(OpCode::Reduce) || p->is(OpCode::Scan)) {
      c.error("cannot be inside the combiner of '" + std::string(p->name()) + "'");
      return;
    }
}

// Block IR: one shape for every operand and result (scalars when there are no
// operands). Thread IR: one asm instance, packed_element values per operand and result.
void verifyInlineAsm(OpChecker &c) {
  const Op *op = c.op();
  c.stringAttr("asm_string", true);
  c.stringAttr("constraints", true);
  c.boolAttr("pure", true);
  std::optional<int64_t> pack = c.intAttr("packed_element");
  if (op->numResults() == 0)
    return c.error("needs at least one result");
  if (pack && *pack < 1)
    return c.error("attribute 'packed_element' must be at least 1, got " + std::to_string(*pack));
  Type shape = c.result(0);
  if (!shape.isBlock()) { // thread IR, or a block op on scalars
    if (pack && (op->numOperands() % *pack || op->numResults() % *pack))
      c.error("has " + std::to_string(op->numOperands()) + " operands and " +
              std::to_string(op->numResults()) + " results: both must be multiples of packed_element (" +
              std::to_string(*pack) + ")");
    for (Value *v : op->operands())
      if (v->type().isBlock())
        return c.error("operands must all be blocks of one shape or all be scalars");
    return;
  }
  for (Value *v : op->operands())
    if (!sameShape(v->type(), shape))
      return c.error("operand of type " + v->type().str() + " does not have the shape of the result " +
                     shape.str());
  for (Value *v : op->results())
    if (!sameShape(v->type(), shape))
      return c.error("results must have one shape, got " + shape.str() + " and " + v->type().str());
}

} // namespace

void verifyDebugOp(OpChecker &c) {
  switch (c.op()->code()) {
  case OpCode::MultipleOf:
  case OpCode::MaxContiguous: return verifyHint(c);
  case OpCode::Assume: return verifyAssume(c);
  case OpCode::Print: return verifyPrint(c);
  case OpCode::Assert: return verifyAssert(c);
  case OpCode::Barrier: return verifyBarrier(c);
  case OpCode::ElementwiseInlineAsm: return verifyInlineAsm(c);
  default: return;
  }
}

} // namespace trident::verifier
