#include "trident/passes/Canonicalize.h"

#include "Fold.h"
#include "OpEffects.h"

namespace trident {

namespace {

using passes::FoldResult;

// Enough for any real kernel; a bound keeps a folding bug from hanging the compiler.
constexpr int kMaxSweeps = 100;

class Canonicalizer {
public:
  // One sweep over `block`, inner regions before the op holding them; true when
  // anything changed.
  bool sweep(Block *block) {
    bool changed = false;
    for (Op *op = block->front(); op;) {
      // Rewrites only touch `op`, its regions and the ops defining its operands,
      // which come before it, so the next op stays valid.
      Op *next = op->next();
      for (unsigned r = 0; r < op->numRegions(); ++r)
        changed |= sweep(op->region(r));
      changed |= rewrite(op);
      op = next;
    }
    return changed;
  }

private:
  bool rewrite(Op *op) {
    if (op->is(OpCode::If) || op->is(OpCode::For)) {
      std::vector<Op *> producers = passes::producersOf(op);
      if (passes::foldControlFlow(op)) {
        passes::eraseDeadOps(std::move(producers));
        return true;
      }
      return false;
    }
    Builder b;
    b.setInsertionPoint(op);
    b.setLoc(op->loc());
    FoldResult r = passes::foldArith(op, b);
    if (!r.changed())
      r = passes::foldShape(op, b);
    if (r.replacement) {
      op->result()->replaceAllUsesWith(r.replacement);
      passes::eraseIfDead(op);
    }
    return r.changed();
  }
};

} // namespace

bool canonicalize(Module &m, Diagnostics &) {
  for (Op *f : m.functions()) {
    Canonicalizer canonicalizer;
    for (int i = 0; i < kMaxSweeps && canonicalizer.sweep(f->region()); ++i) {
    }
  }
  return true;
}

} // namespace trident
