// Folding of block construction and tt.addptr: shape ops of a constant give a
// constant of the new shape, shape ops of a splat give a splat, and shape ops
// that change nothing give their operand.

#include "Constant.h"
#include "Fold.h"

namespace trident::passes {

namespace {

bool isIdentityOrder(const Attribute &order) {
  if (!order.isInts())
    return false;
  const Attribute::IntArray &dims = order.getInts();
  for (size_t i = 0; i < dims.size(); ++i)
    if (dims[i] != static_cast<int64_t>(i))
      return false;
  return true;
}

// A splat value changes shape without looking at its elements.
FoldResult reshapeSplat(Op *op, Builder &b) {
  Value *source = op->operand(0);
  Type type = op->result()->type();
  if (std::optional<ConstantValue> c = constantOf(source))
    return {materialize(b, *c, type), false};
  Op *def = source->definingOp();
  if (def && def->is(OpCode::Splat)) {
    Value *operands[] = {def->operand(0)};
    Type types[] = {type};
    return {b.create(OpCode::Splat, operands, types)->result(), false};
  }
  return {};
}

} // namespace

FoldResult foldShape(Op *op, Builder &b) {
  switch (op->code()) {
  case OpCode::Splat:
    if (std::optional<ConstantValue> c = constantOf(op->operand(0)))
      return {materialize(b, *c, op->result()->type()), false};
    return {};
  case OpCode::Broadcast:
  case OpCode::ExpandDims:
  case OpCode::Reshape: // keeping the shape, they change nothing
    if (op->operand(0)->type() == op->result()->type())
      return {op->operand(0), false};
    return reshapeSplat(op, b);
  case OpCode::Trans: // a square block keeps its type but not its elements: only the identity order is nothing
    if (isIdentityOrder(op->attr("order")) && op->operand(0)->type() == op->result()->type())
      return {op->operand(0), false};
    return reshapeSplat(op, b);
  case OpCode::MakeRange: {
    const Attribute &start = op->attr("start"), &end = op->attr("end");
    if (start.isInt() && end.isInt() && end.getInt() - start.getInt() == 1)
      return {materialize(b, ConstantValue::integer(Type::i32(), static_cast<uint64_t>(start.getInt())),
                          op->result()->type()),
              false};
    return {};
  }
  case OpCode::AddPtr: {
    std::optional<ConstantValue> offset = constantOf(op->operand(1));
    if (offset && offset->isZero() && op->operand(0)->type() == op->result()->type())
      return {op->operand(0), false};
    return {};
  }
  default: return {};
  }
}

} // namespace trident::passes
