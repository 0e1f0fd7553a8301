#include "trident/passes/LICM.h"

#include "OpEffects.h"

namespace trident {

namespace {

// True when `v` is defined by an op or block outside `region` (an op).
bool definedOutside(const Value *v, const Op *region) {
  if (const Op *def = v->definingOp())
    return !def->isInside(region);
  const Op *owner = v->ownerBlock()->parentOp();
  return !(owner && owner->isInside(region));
}

// True when `op` and everything nested in it may run speculatively and use, from
// outside `op`, only values defined outside `loop`.
bool canHoist(Op *op, const Op *loop) {
  if (op->has(kTerminator) || !passes::isSpeculatable(op))
    return false;
  bool ok = true;
  op->walk([&](Op *inner) {
    if (inner != op && !inner->has(kTerminator) && !passes::isSpeculatable(inner))
      ok = false;
    for (const Value *v : inner->operands())
      if (definedOutside(v, op) && !definedOutside(v, loop))
        ok = false;
  });
  return ok;
}

// Moves the invariant ops of `loop`'s regions before it, in their order, so an op
// whose operands were just hoisted follows them out.
void hoistFrom(Op *loop) {
  for (unsigned r = 0; r < loop->numRegions(); ++r)
    for (Op *op : loop->region(r)->ops())
      if (canHoist(op, loop))
        op->moveBefore(loop);
}

// Innermost loops first: what leaves an inner loop may then leave the outer one.
void hoistInBlock(Block *block) {
  for (Op *op : block->ops()) {
    for (unsigned r = 0; r < op->numRegions(); ++r)
      hoistInBlock(op->region(r));
    if (op->is(OpCode::For) || op->is(OpCode::While))
      hoistFrom(op);
  }
}

} // namespace

bool hoistLoopInvariants(Module &m, Diagnostics &) {
  for (Op *f : m.functions())
    hoistInBlock(f->region());
  return true;
}

} // namespace trident
