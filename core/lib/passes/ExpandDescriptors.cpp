#include "trident/passes/ExpandDescriptors.h"

#include "trident/ir/Builder.h"

#include <vector>

namespace trident {

namespace {

// `t` (a rank-1 block along dimension d of a rank-`rank` box) with unit dimensions
// inserted everywhere but at d, then broadcast to the box.
Value *spread(Builder &b, Value *t, size_t d, size_t rank, std::span<const int64_t> box) {
  for (size_t k = 0; k < rank; ++k)
    if (k != d)
      t = b.expandDims(t, static_cast<int>(k));
  return b.broadcast(t, box);
}

void expand(Op *op) {
  Builder b;
  b.setInsertionPoint(op);
  b.setLoc(op->loc());
  size_t rank = (op->numOperands() - 1) / 3;
  Type result = op->result()->type();
  std::span<const int64_t> box = result.shape();
  Value *offset = nullptr, *mask = nullptr;
  const Attribute &checkedAttr = op->attr("checked");
  int64_t checked = checkedAttr.isInt() ? checkedAttr.getInt() : (int64_t(1) << rank) - 1;
  for (size_t d = 0; d < rank; ++d) {
    std::vector<int64_t> line{box[d]};
    Type i64s = Type::block(line, Type::i64());
    Value *range = b.cast(OpCode::ExtSI, b.makeRange(0, box[d]), i64s);
    Value *start = b.splat(b.cast(OpCode::ExtSI, op->operand(unsigned(1 + 2 * rank + d)), Type::i64()), line);
    Value *index = b.binary(OpCode::AddI, start, range);
    Value *term = b.binary(OpCode::MulI, index, b.splat(op->operand(unsigned(1 + rank + d)), line));
    term = spread(b, term, d, rank, box);
    offset = offset ? b.binary(OpCode::AddI, offset, term) : term;
    if (!(checked >> d & 1))
      continue;
    Value *inside = b.binary(OpCode::AndI, b.cmpi("sge", index, b.constInt(0, i64s)),
                             b.cmpi("slt", index, b.splat(op->operand(unsigned(1 + d)), line)));
    inside = spread(b, inside, d, rank, box);
    mask = mask ? b.binary(OpCode::AndI, mask, inside) : inside;
  }
  Value *ptr = b.addPtr(b.splat(op->operand(0), box), offset);
  Type element = result.element();
  bool nan = op->stringAttr("padding") == "nan";
  Value *pad = nullptr;
  if (mask)
    pad = element.isFloat() ? b.constFloat(nan ? __builtin_nan("") : 0.0, result) : b.constInt(0, result);
  AttributeList attrs;
  for (const char *name : {"cache", "eviction", "volatile"})
    if (op->attr(name).present())
      attrs.set(name, op->attr(name));
  Value *loaded = b.load(ptr, mask, pad, attrs);
  op->result()->replaceAllUsesWith(loaded);
  op->erase();
}

} // namespace

bool expandDescriptorLoads(Module &m, Diagnostics &, const std::function<bool(const Op *)> &keep) {
  std::vector<Op *> loads;
  m.op()->walk([&](Op *op) {
    if (op->is(OpCode::DescriptorLoad) && !(keep && keep(op)))
      loads.push_back(op);
  });
  for (Op *op : loads)
    expand(op);
  return true;
}

bool expandDescriptors(Module &m, Diagnostics &diags) { return expandDescriptorLoads(m, diags); }

} // namespace trident
