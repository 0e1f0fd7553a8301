// Loads and stores: one th.load/th.store per group of registers that hold
// contiguous elements (up to the width layout assignment proved safe), predicated
// by the mask; stores skip replicated registers and let one thread of each group
// of replicas write.
//
//   %x = tt.load %p, %m, %o : block<512xf32>      (4 contiguous elements per thread)
// ->
//   %ov = th.pack %o0, %o1, %o2, %o3 : vector<4xf32>
//   %v = th.load %p0, %m0, %ov : vector<4xf32>
//   %x0 = th.extract %v {index = 0} : f32  ...
#include "LowerContext.h"

namespace trident::simt {

AttributeList cacheHints(const Op *op) {
  AttributeList attrs;
  for (const char *name : {"cache", "eviction", "volatile"})
    if (op->attrs().has(name))
      attrs.set(name, op->attr(name));
  return attrs;
}

int64_t accessWidth(Lowering &l, const Op *op, const LinearLayout &layout, Type element) {
  int64_t vec = l.layouts.vectorElements(op);
  if (vec <= 1 || element == Type::i1() || layout.regBases().empty())
    return 1;
  int64_t first = layout.regBases()[0];
  if (!isPowerOfTwo(first))
    return 1;
  unsigned bit = log2Exact(first);
  for (unsigned d = 0; d < layout.rank(); ++d)
    if (bit >= layout.dimOffset(d) && bit < layout.dimOffset(d) + layout.dimBits(d))
      return std::min(vec, layout.contiguousRegisters(d));
  return 1;
}

Value *packRegisters(Lowering &l, const std::vector<Value *> &regs, int64_t first, int64_t width) {
  if (width == 1)
    return regs[first];
  std::vector<Value *> parts(regs.begin() + first, regs.begin() + first + width);
  Type types[] = {Type::vector(width, parts[0]->type())};
  return l.b.create(OpCode::ThPack, parts, types)->result();
}

void unpackInto(Lowering &l, Value *v, int64_t width, std::vector<Value *> &regs, int64_t first) {
  if (width == 1) {
    regs[first] = v;
    return;
  }
  Type element = v->type().element();
  for (int64_t i = 0; i < width; ++i) {
    Type types[] = {element};
    Value *operands[] = {v};
    regs[first + i] =
        l.b.create(OpCode::ThExtract, operands, types, {{"index", Attribute::integer(i)}})->result();
  }
}

bool lowerLoad(Lowering &l, Op *op, Value *inRange) {
  Value *result = op->result();
  if (l.pipelined.count(result))
    return true; // copied into shared memory ahead by the loop (Pipeline.h)
  if (auto it = l.prefetched.find(result); it != l.prefetched.end()) {
    l.set(result, it->second.regs); // loaded into registers an iteration ahead (Pipeline.h)
    return true;
  }
  Type element = result->type().element();
  LinearLayout layout = result->type().isBlock() ? l.layouts.accessLayout(op) : l.scalarLayout();
  Lowered ptr = l.get(op->operand(0), layout);
  std::optional<Lowered> mask, other;
  if (op->numOperands() > 1)
    mask = l.get(op->operand(1), layout);
  if (op->numOperands() > 2)
    other = l.get(op->operand(2), layout);
  int64_t width = accessWidth(l, op, layout, element);
  Type type = width > 1 ? Type::vector(width, element) : element;
  int64_t dupMask = layout.registerReplicationMask();
  Lowered out{layout, std::vector<Value *>(layout.numRegisters(), nullptr)};
  for (int64_t r = 0; r < layout.numRegisters(); r += width) {
    if (r & dupMask)
      continue;
    std::vector<Value *> operands{ptr.regs[r]};
    if (Value *pred = l.andPredicates(mask ? mask->regs[r] : nullptr, inRange))
      operands.push_back(pred);
    if (other)
      operands.push_back(packRegisters(l, other->regs, r, width));
    Type types[] = {type};
    Value *v = l.b.create(OpCode::ThLoad, operands, types, cacheHints(op))->result();
    unpackInto(l, v, width, out.regs, r);
  }
  for (int64_t r = 0; r < layout.numRegisters(); ++r)
    if (r & dupMask)
      out.regs[r] = out.regs[r & ~dupMask];
  l.set(result, std::move(out));
  return true;
}

bool lowerStore(Lowering &l, Op *op) {
  Value *value = op->operand(1);
  Type element = value->type().element();
  LinearLayout layout = value->type().isBlock() ? l.layouts.accessLayout(op) : l.scalarLayout();
  Lowered ptr = l.get(op->operand(0), layout);
  Lowered val = l.get(value, layout);
  std::optional<Lowered> mask;
  if (op->numOperands() > 2)
    mask = l.get(op->operand(2), layout);
  int64_t width = accessWidth(l, op, layout, element);
  int64_t dupMask = layout.registerReplicationMask();
  Value *owner = l.ownerPredicate(layout);
  for (int64_t r = 0; r < layout.numRegisters(); r += width) {
    if (r & dupMask)
      continue;
    std::vector<Value *> operands{ptr.regs[r], packRegisters(l, val.regs, r, width)};
    if (Value *pred = l.andPredicates(owner, mask ? mask->regs[r] : nullptr))
      operands.push_back(pred);
    l.b.create(OpCode::ThStore, operands, std::span<const Type>{}, cacheHints(op));
  }
  return true;
}

} // namespace trident::simt
