// tt.descriptor_load on targets with tensor maps (Tma.h). In a pipelined loop the
// copies go through the tensor-copy engine (Pipeline.cpp calls issueTensorCopies):
//
//   th.tma_arrive %bars, %slot, %bytes, %first     thread 0: one arrival expecting the
//                                                  tile's bytes (0 past the loop's end)
//   th.tma_load %ring, %at, %map, %bars, %slot, %go, %row, %col   thread 0, per copy
//
// Elsewhere (a loop the pipeline declined) each register is read by its own predicated
// th.load, the box's bounds checked as expand-descriptors would (slow, rare).
#include "LowerContext.h"
#include "Tma.h"

namespace trident::simt {

void issueTensorCopies(Lowering &l, const TensorMapSpec &spec, Value *map, Value *buffer, Value *base,
                       std::span<Value *const> offsets, Value *barriers, Value *slot, Value *inRange) {
  Value *first = l.tensorCopyIssuer ? l.tensorCopyIssuer : l.b.cmpi("eq", l.threadId(), l.constI32(0));
  int64_t tileBytes = spec.copyElements() * spec.copies() * spec.elementBytes;
  Value *bytes = inRange ? l.b.select(inRange, l.constI32(tileBytes), l.constI32(0)) : l.constI32(tileBytes);
  l.b.create(OpCode::ThTmaArrive, std::vector<Value *>{barriers, slot, bytes, first}, std::span<const Type>{});
  Value *go = l.andPredicates(first, inRange);
  for (int64_t j = 0; j < spec.copies(); ++j) {
    Value *at = base ? l.b.binary(OpCode::AddI, base, l.constI32(j * spec.copyElements()))
                     : l.constI32(j * spec.copyElements());
    std::vector<Value *> operands{buffer, at, map, barriers, slot, go};
    for (size_t k = 0; k < offsets.size(); ++k) {
      Value *c = offsets[k];
      if (k + 1 == offsets.size() && j)
        c = l.b.binary(OpCode::AddI, c, l.constI32(j * spec.box.back()));
      operands.push_back(c);
    }
    l.b.create(OpCode::ThTmaLoad, operands, std::span<const Type>{});
  }
}

bool lowerDescriptorLoad(Lowering &l, Op *op) {
  Value *result = op->result();
  if (l.pipelined.count(result))
    return true; // copied into shared memory ahead by the loop (Pipeline.h)
  size_t rank = (op->numOperands() - 1) / 3;
  LinearLayout layout = l.assigned(result);
  Type element = result->type().element();
  Value *base = l.scalar(op->operand(0));
  bool nan = op->stringAttr("padding") == "nan";
  Value *pad = nullptr;
  if (element.isFloat())
    pad = l.b.create(OpCode::Constant, std::span<Value *const>{}, std::span<const Type>(&element, 1),
                     {{"value", Attribute::floating(nan ? __builtin_nan("") : 0.0)}})
              ->result();
  else
    pad = l.b.create(OpCode::Constant, std::span<Value *const>{}, std::span<const Type>(&element, 1),
                     {{"value", Attribute::integer(0)}})
              ->result();
  Value *zero = l.b.create(OpCode::Constant, std::span<Value *const>{}, std::vector<Type>{Type::i64()},
                           {{"value", Attribute::integer(0)}})
                    ->result();
  Lowered out{layout, std::vector<Value *>(layout.numRegisters(), nullptr)};
  for (int64_t r = 0; r < layout.numRegisters(); ++r) {
    Value *offset = nullptr, *inside = nullptr;
    for (size_t d = 0; d < rank; ++d) {
      Value *c = l.b.binary(OpCode::AddI, l.scalar(op->operand(unsigned(1 + 2 * rank + d))),
                            l.dimIndex(layout, unsigned(d), r));
      c = l.b.cast(OpCode::ExtSI, c, Type::i64());
      Value *in = l.b.binary(OpCode::AndI, l.b.cmpi("sge", c, zero),
                             l.b.cmpi("slt", c, l.scalar(op->operand(unsigned(1 + d)))));
      inside = l.andPredicates(inside, in);
      Value *term = l.b.binary(OpCode::MulI, c, l.scalar(op->operand(unsigned(1 + rank + d))));
      offset = offset ? l.b.binary(OpCode::AddI, offset, term) : term;
    }
    Value *ptr = l.b.addPtr(base, offset);
    Type types[] = {element};
    out.regs[size_t(r)] =
        l.b.create(OpCode::ThLoad, std::vector<Value *>{ptr, inside, pad}, types, AttributeList{})->result();
  }
  l.set(result, std::move(out));
  return true;
}

} // namespace trident::simt
