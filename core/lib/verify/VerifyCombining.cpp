// Rules of the ops that combine elements: tt.dot, tt.reduce, tt.scan and the
// terminators of their combiner regions.

#include "OpChecker.h"

namespace trident::verifier {

namespace {

bool isF8(Type t) { return t == Type::f8e4m3() || t == Type::f8e5m2(); }

// The accumulator element types Triton allows for inputs with elements `a` and `b`.
std::vector<Type> allowedAccumulators(Type a, Type b) {
  if (isF8(a) && isF8(b))
    return {Type::f16(), Type::f32()};
  if (a != b)
    return {};
  if (a == Type::f16())
    return {Type::f16(), Type::f32()};
  if (a == Type::bf16() || a == Type::f32())
    return {Type::f32()};
  if (a == Type::f64())
    return {Type::f64()};
  if (a == Type::i8())
    return {Type::i32()};
  return {};
}

void verifyDot(OpChecker &c) {
  c.stringAttr("input_precision", false, {"ieee", "tf32", "tf32x3"});
  if (std::optional<int64_t> n = c.intAttr("max_num_imprecise_acc", false); n && *n < 0)
    c.error("attribute 'max_num_imprecise_acc' must not be negative, got " + std::to_string(*n));
  Type a = c.operand(0), b = c.operand(1), acc = c.operand(2);
  unsigned rank = a.rank();
  if (rank < 2 || rank > 3 || b.rank() != rank || acc.rank() != rank || !a.isBlock() || !b.isBlock() ||
      !acc.isBlock()) {
    c.error("operands must be blocks of rank 2 (or 3, batched) of one rank, got " + a.str() + ", " + b.str() +
            " and " + acc.str());
    return;
  }
  auto dim = [](Type t, unsigned i) { return t.shape()[t.rank() - 2 + i]; };
  bool batchOk = rank == 2 || (a.shape()[0] == b.shape()[0] && a.shape()[0] == acc.shape()[0]);
  if (!batchOk || dim(a, 1) != dim(b, 0) || dim(acc, 0) != dim(a, 0) || dim(acc, 1) != dim(b, 1)) {
    c.error("shapes do not multiply: a is " + shapeString(a) + ", b is " + shapeString(b) + ", acc is " +
            shapeString(acc) + " (expected [B x] MxK, KxN and MxN)");
    return;
  }
  std::vector<Type> allowed = allowedAccumulators(a.element(), b.element());
  bool found = false;
  for (Type t : allowed)
    found = found || t == acc.element();
  if (!found) {
    std::string list;
    for (Type t : allowed)
      list += (list.empty() ? "" : " or ") + t.str();
    c.error("cannot multiply " + a.element().str() + " by " + b.element().str() + " into " +
            acc.element().str() +
            (list.empty() ? std::string(" (unsupported input types)") : " (expected " + list + ")"));
  }
  c.expectResultType(0, acc);
}

// Shared rules of tt.reduce and tt.scan: one shape for all operands, a valid
// axis, and a combiner region with (lhs..., rhs...) arguments.
bool verifyCombinerShape(OpChecker &c, OpCode terminator, int64_t &axisOut) {
  const Op *op = c.op();
  Type first = c.operand(0);
  if (!c.expectBlock(first, "operand"))
    return false;
  for (unsigned i = 1; i < op->numOperands(); ++i)
    if (!sameShape(first, c.operand(i))) {
      c.error("operands must have one shape, got " + first.str() + " and " + c.operand(i).str());
      return false;
    }
  std::optional<int64_t> axis = c.intAttr("axis");
  if (!axis)
    return false;
  if (*axis < 0 || *axis >= static_cast<int64_t>(first.rank())) {
    c.error("attribute 'axis' must be in [0, " + std::to_string(first.rank()) + "), got " +
            std::to_string(*axis));
    return false;
  }
  std::vector<Type> args;
  for (unsigned side = 0; side < 2; ++side)
    for (Value *v : op->operands())
      args.push_back(v->type().element());
  c.expectRegionArguments(0, args, "the operands' element types, twice");
  c.terminatorOf(0, terminator);
  if (op->numResults() != op->numOperands()) {
    c.error("has " + counted(op->numResults(), "result") + ", expected one per operand (" +
            std::to_string(op->numOperands()) + ")");
    return false;
  }
  axisOut = *axis;
  return true;
}

void verifyReduce(OpChecker &c) {
  int64_t axis = 0;
  if (!verifyCombinerShape(c, OpCode::ReduceReturn, axis))
    return;
  for (unsigned i = 0; i < c.op()->numOperands(); ++i) {
    Type in = c.operand(i);
    std::vector<int64_t> shape(in.shape().begin(), in.shape().end());
    shape.erase(shape.begin() + axis);
    c.expectResultType(i, Type::block(shape, in.element()));
  }
}

void verifyScan(OpChecker &c) {
  c.boolAttr("reverse");
  int64_t axis = 0;
  if (!verifyCombinerShape(c, OpCode::ScanReturn, axis))
    return;
  for (unsigned i = 0; i < c.op()->numOperands(); ++i)
    c.expectResultType(i, c.operand(i));
}

void verifyCombinerReturn(OpChecker &c, OpCode parentCode) {
  const Op *parent = c.op()->parentOp();
  std::string parentName(opInfo(parentCode).name);
  if (!parent || !parent->is(parentCode)) {
    c.error("must be directly inside '" + parentName + "'");
    return;
  }
  std::vector<Type> elements;
  for (Value *v : parent->operands()) {
    if (!v)
      return; // reported at the parent
    elements.push_back(v->type().element());
  }
  checkTerminatorValues(c, elements, "the '" + parentName + "' operand element types");
}

} // namespace

void verifyCombiningOp(OpChecker &c) {
  switch (c.op()->code()) {
  case OpCode::Dot: return verifyDot(c);
  case OpCode::Reduce: return verifyReduce(c);
  case OpCode::Scan: return verifyScan(c);
  case OpCode::ReduceReturn: return verifyCombinerReturn(c, OpCode::Reduce);
  case OpCode::ScanReturn: return verifyCombinerReturn(c, OpCode::Scan);
  default: return;
  }
}

} // namespace trident::verifier
