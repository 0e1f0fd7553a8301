// Elementwise ops (arithmetic, comparisons, select, casts, math, pointer ops):
// the same op once per register, on the operands converted to the result's layout.
//
//   %c = arith.addf %a, %b : block<256xf32>     (2 registers per thread)
// ->
//   %c0 = arith.addf %a0, %b0 : f32
//   %c1 = arith.addf %a1, %b1 : f32
#include "LowerContext.h"

namespace trident::simt {

bool lowerElementwise(Lowering &l, Op *op) {
  Value *result = op->result();
  LinearLayout layout = l.assigned(result);
  std::vector<Lowered> operands;
  for (Value *v : op->operands())
    operands.push_back(l.get(v, layout));
  Type element = result->type().element();
  int64_t dupMask = layout.registerReplicationMask();
  bool narrowFloat = needsNarrowFloatLowering(op);
  Lowered out{layout, std::vector<Value *>(layout.numRegisters(), nullptr)};
  for (int64_t r = 0; r < layout.numRegisters(); ++r) {
    if (r & dupMask) {
      out.regs[r] = out.regs[r & ~dupMask];
      continue;
    }
    if (narrowFloat) {
      out.regs[r] = lowerNarrowFloatConversion(l, op, operands[0].regs[r]);
      continue;
    }
    std::vector<Value *> args;
    for (const Lowered &o : operands)
      args.push_back(o.regs[r]);
    Type types[] = {element};
    out.regs[r] = l.b.create(op->code(), args, types, op->attrs())->result();
  }
  l.set(result, std::move(out));
  return true;
}

} // namespace trident::simt
