// Elementwise ops (arithmetic, comparisons, select, casts, math, pointer ops):
// the same op once per register, on the operands converted to the result's layout.
//
//   %c = arith.addf %a, %b : block<256xf32>     (2 registers per thread)
// ->
//   %c0 = arith.addf %a0, %b0 : f32
//   %c1 = arith.addf %a1, %b1 : f32
#include "LowerContext.h"

#include <algorithm>

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

// tt.elementwise_inline_asm: one thread-IR instance of the op per `packed_element`
// distinct registers of the result layout (Triton's grouping: which elements share an
// instance is unspecified). Its operands are the group's values of each operand in
// turn, its results the group's values of each result. When the registers do not
// divide into groups, the last group repeats its last register (Triton refuses such a
// layout; an instance more of an elementwise asm changes nothing but time).
//
//   %r = tt.elementwise_inline_asm %a {packed_element = 2} : block<256xf16>  (4 registers)
// ->
//   %r0, %r1 = tt.elementwise_inline_asm %a0, %a1 {packed_element = 2} : f16, f16
//   %r2, %r3 = tt.elementwise_inline_asm %a2, %a3 {packed_element = 2} : f16, f16
bool lowerInlineAsm(Lowering &l, Op *op) {
  LinearLayout layout = l.assigned(op->result(0));
  std::vector<Lowered> operands;
  for (Value *v : op->operands())
    operands.push_back(l.get(v, layout));
  int64_t pack = op->attr("packed_element").isInt() ? op->intAttr("packed_element") : 1;
  int64_t dupMask = layout.registerReplicationMask();
  std::vector<int64_t> distinct;
  for (int64_t r = 0; r < layout.numRegisters(); ++r)
    if (!(r & dupMask))
      distinct.push_back(r);
  std::vector<Lowered> results(op->numResults(),
                               Lowered{layout, std::vector<Value *>(layout.numRegisters(), nullptr)});
  std::vector<Type> types;
  for (Value *res : op->results())
    for (int64_t k = 0; k < pack; ++k)
      types.push_back(res->type().element());
  for (size_t g = 0; g < distinct.size(); g += static_cast<size_t>(pack)) {
    auto reg = [&](int64_t k) { return distinct[std::min(g + static_cast<size_t>(k), distinct.size() - 1)]; };
    std::vector<Value *> args;
    for (const Lowered &o : operands)
      for (int64_t k = 0; k < pack; ++k)
        args.push_back(o.regs[reg(k)]);
    Op *instance = l.b.create(op->code(), args, types, op->attrs());
    for (unsigned i = 0; i < op->numResults(); ++i)
      for (int64_t k = 0; k < pack; ++k)
        if (g + static_cast<size_t>(k) < distinct.size())
          results[i].regs[reg(k)] = instance->result(i * static_cast<unsigned>(pack) + static_cast<unsigned>(k));
  }
  for (Lowered &res : results)
    for (int64_t r = 0; r < layout.numRegisters(); ++r)
      if (r & dupMask)
        res.regs[r] = res.regs[r & ~dupMask];
  for (unsigned i = 0; i < op->numResults(); ++i)
    l.set(op->result(i), std::move(results[i]));
  return true;
}

} // namespace trident::simt
