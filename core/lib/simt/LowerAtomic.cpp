// Atomics: one th.atomic_rmw / th.atomic_cas per element, issued by exactly one
// thread of each group of replicas (an element must be updated once). When the
// old values are used and other threads hold replicas, they are shared through
// shared memory.
//
//   %o = tt.atomic_rmw %p, %v {kind = "add", ...} : block<64xf32>   (128 threads)
// ->
//   %o0 = th.atomic_rmw %p0, %v0, %owner {kind = "add", ...} : f32
//   (then %o0 written by its owner and read back by every replica)
#include "LowerContext.h"

namespace trident::simt {

bool lowerAtomic(Lowering &l, Op *op) {
  Value *result = op->result();
  Type element = result->type().element();
  LinearLayout layout = result->type().isBlock() ? l.layouts.accessLayout(op) : l.scalarLayout();
  std::vector<Lowered> operands;
  for (Value *v : op->operands())
    operands.push_back(l.get(v, layout));
  bool isCAS = op->is(OpCode::AtomicCAS);
  unsigned numData = isCAS ? 3 : 2; // ptr, [cmp,] value
  Value *owner = l.ownerPredicate(layout);
  int64_t dupMask = layout.registerReplicationMask();
  AttributeList attrs;
  for (const char *name : {"kind", "sem", "scope"})
    if (op->attrs().has(name))
      attrs.set(name, op->attr(name));
  // When only some threads issue the atomics, a release must also publish what the
  // other threads of the program wrote before it (a lock's release after a critical
  // section): they all wait at a barrier first.
  std::string sem = op->attr("sem").isString() ? op->stringAttr("sem") : "acq_rel";
  if (owner && (sem == "release" || sem == "acq_rel"))
    l.barrier(); // one barrier, also after the tl.debug_barrier() that Triton's kernels write here
  Lowered out{layout, std::vector<Value *>(layout.numRegisters(), nullptr)};
  for (int64_t r = 0; r < layout.numRegisters(); ++r) {
    if (r & dupMask) {
      out.regs[r] = out.regs[r & ~dupMask];
      continue;
    }
    std::vector<Value *> args;
    for (unsigned i = 0; i < numData; ++i)
      args.push_back(operands[i].regs[r]);
    Value *mask = operands.size() > numData ? operands[numData].regs[r] : nullptr;
    if (Value *pred = l.andPredicates(owner, mask))
      args.push_back(pred);
    Type types[] = {element};
    out.regs[r] = l.b.create(isCAS ? OpCode::ThAtomicCAS : OpCode::ThAtomicRMW, args, types, attrs)->result();
  }
  if (owner && result->hasUses())
    out = l.convertThroughShared(out, layout);
  l.set(result, std::move(out));
  return true;
}

} // namespace trident::simt
