// Block construction and shape ops. With row-major flat indices most are free:
// expand_dims and reshape keep every basis, trans permutes basis bits, broadcast
// reads its input in the result's layout restricted to the input's shape, and
// join/cat add one register bit. Only split may need a conversion first.
//
//   %r = tt.make_range {end = 256, start = 0} : block<256xi32>   (layout reg [1, 128] lane [2, ...])
// ->
//   %b = (lane id << 1) | (warp id << 6)             (prologue)
//   %r0 = %b          %r1 = arith.addi %b, 1         (registers 0 and 1)
#include "LowerContext.h"

namespace trident::simt {

namespace {

Lowered replicate(const LinearLayout &layout, Value *v) {
  return Lowered{layout, std::vector<Value *>(layout.numRegisters(), v)};
}

} // namespace

bool lowerConstant(Lowering &l, Op *op) {
  Type element = op->result()->type().element();
  Type types[] = {element};
  Value *c = element == Type::f8e4m3() || element == Type::f8e5m2()
                 ? narrowFloatConstant(l, element, op->attr("value").getFloat())
                 : l.b.create(OpCode::Constant, std::span<Value *const>{}, types, op->attrs())->result();
  l.set(op->result(), replicate(l.assigned(op->result()), c));
  return true;
}

bool lowerSplat(Lowering &l, Op *op) {
  l.set(op->result(), replicate(l.assigned(op->result()), l.scalar(op->operand(0))));
  return true;
}

bool lowerMakeRange(Lowering &l, Op *op) {
  LinearLayout layout = l.assigned(op->result());
  int64_t start = op->intAttr("start");
  int64_t dupMask = layout.registerReplicationMask();
  Lowered out{layout, std::vector<Value *>(layout.numRegisters(), nullptr)};
  for (int64_t r = 0; r < layout.numRegisters(); ++r) {
    if (r & dupMask) {
      out.regs[r] = out.regs[r & ~dupMask];
      continue;
    }
    Value *v = l.dimIndex(layout, 0, r);
    out.regs[r] = start ? l.b.binary(OpCode::AddI, v, l.constI32(start)) : v;
  }
  l.set(op->result(), std::move(out));
  return true;
}

bool lowerBroadcast(Lowering &l, Op *op) {
  LinearLayout layout = l.assigned(op->result());
  std::span<const int64_t> inShape = op->operand(0)->type().shape();
  Lowered in = l.get(op->operand(0), layout.broadcastSource(inShape));
  l.set(op->result(), Lowered{layout, in.regs});
  return true;
}

bool lowerViewOp(Lowering &l, Op *op) {
  if (l.pipelined.count(op->result()))
    return true; // a transpose a dot reads from its load's pipelined stage (Pipeline.h)
  LinearLayout layout = l.assigned(op->result());
  Type inType = op->operand(0)->type();
  LinearLayout inLayout;
  if (op->is(OpCode::Trans)) {
    const std::vector<int64_t> &order = op->attr("order").getInts();
    std::vector<int64_t> inverse(order.size());
    for (size_t i = 0; i < order.size(); ++i)
      inverse[order[i]] = static_cast<int64_t>(i);
    inLayout = layout.transpose(inverse);
  } else {
    inLayout = layout.reshape(inType.shape());
  }
  Lowered in = l.get(op->operand(0), inLayout);
  l.set(op->result(), Lowered{layout, in.regs});
  return true;
}

bool lowerJoin(Lowering &l, Op *op) {
  const Lowered &a = l.get(op->operand(0));
  Lowered b = l.get(op->operand(1), a.layout);
  Lowered out{joinedLayout(a.layout), a.regs};
  out.regs.insert(out.regs.end(), b.regs.begin(), b.regs.end());
  l.set(op->result(), std::move(out));
  return true;
}

bool lowerCat(Lowering &l, Op *op) {
  const Lowered &a = l.get(op->operand(0));
  Lowered b = l.get(op->operand(1), a.layout);
  Lowered out{concatenatedLayout(a.layout), a.regs};
  out.regs.insert(out.regs.end(), b.regs.begin(), b.regs.end());
  l.set(op->result(), std::move(out));
  return true;
}

bool lowerSplit(Lowering &l, Op *op) {
  Value *input = op->operand(0);
  LinearLayout inLayout = splittableLayout(l.get(input).layout);
  Lowered in = l.get(input, inLayout);
  unsigned bit = 0;
  while (inLayout.regBases()[bit] != 1)
    ++bit;
  LinearLayout half = splitLayout(inLayout);
  for (int64_t k = 0; k < 2; ++k) {
    Lowered out{half, {}};
    for (int64_t r = 0; r < half.numRegisters(); ++r) {
      int64_t low = r & ((int64_t(1) << bit) - 1);
      int64_t high = (r >> bit) << (bit + 1);
      out.regs.push_back(in.regs[high | (k << bit) | low]);
    }
    l.set(op->result(static_cast<unsigned>(k)), std::move(out));
  }
  return true;
}

} // namespace trident::simt
