#include "OpEffects.h"

#include "Constant.h"

#include <algorithm>

namespace trident::passes {

bool isPure(const Op *op) { return op->has(kPure); }

bool isRemovableWhenUnused(const Op *op) {
  if (isPure(op))
    return true;
  switch (op->code()) {
  case OpCode::Load: {
    const Attribute &isVolatile = op->attr("volatile");
    return !(isVolatile.isBool() && isVolatile.getBool());
  }
  case OpCode::DescriptorLoad: return true;
  case OpCode::ElementwiseInlineAsm: { // is_pure=True: Triton lets such asm go when unused
    const Attribute &pure = op->attr("pure");
    return pure.isBool() && pure.getBool();
  }
  case OpCode::If:
  case OpCode::For:
    for (unsigned r = 0; r < op->numRegions(); ++r)
      for (const Op *inner : *op->region(r))
        if (!inner->is(OpCode::Yield) && !isRemovableWhenUnused(inner))
          return false;
    return true;
  default: return false;
  }
}

bool isSpeculatable(const Op *op) {
  if (!isPure(op))
    return false;
  switch (op->code()) {
  case OpCode::DivSI:
  case OpCode::DivUI:
  case OpCode::RemSI:
  case OpCode::RemUI: {
    // Division by zero may trap (and the interpreter reports it); signed division
    // of the minimum by -1 overflows. Only a constant divisor other than 0 and -1
    // is known to be safe.
    std::optional<ConstantValue> divisor = constantOf(op->operand(1));
    return divisor && divisor->isInt() && divisor->zext() != 0 &&
           (op->is(OpCode::DivUI) || op->is(OpCode::RemUI) || divisor->sext() != -1);
  }
  default: return true;
  }
}

bool hasNoUses(const Op *op) {
  for (unsigned i = 0; i < op->numResults(); ++i)
    if (op->result(i)->hasUses())
      return false;
  return true;
}

namespace {

bool isDead(const Op *op) {
  return op->parentBlock() && !op->has(kTerminator) && hasNoUses(op) && isRemovableWhenUnused(op);
}

} // namespace

std::vector<Op *> producersOf(Op *op) {
  std::vector<Op *> producers;
  op->walk([&](Op *inner) {
    for (Value *v : inner->operands())
      if (Op *def = v ? v->definingOp() : nullptr;
          def && !def->isInside(op) && std::find(producers.begin(), producers.end(), def) == producers.end())
        producers.push_back(def);
  });
  return producers;
}

void eraseDeadOps(std::vector<Op *> worklist) {
  // A worklist rather than recursion: one producer can be reached along several
  // paths, and no pointer to an erased op may be followed.
  while (!worklist.empty()) {
    Op *current = worklist.back();
    worklist.pop_back();
    if (!isDead(current))
      continue;
    std::erase_if(worklist, [&](const Op *o) { return o->isInside(current); });
    std::vector<Op *> producers = producersOf(current);
    current->erase();
    for (Op *p : producers)
      if (std::find(worklist.begin(), worklist.end(), p) == worklist.end())
        worklist.push_back(p);
  }
}

bool eraseIfDead(Op *op) {
  if (!isDead(op))
    return false;
  eraseDeadOps({op});
  return true;
}

} // namespace trident::passes
