#include "Cleanup.h"

namespace trident::frontend {

namespace {

void cleanBlock(Block &block) {
  std::vector<Op *> ops = block.ops();
  for (auto it = ops.rbegin(); it != ops.rend(); ++it) {
    Op *op = *it;
    for (unsigned r = 0; r < op->numRegions(); ++r)
      cleanBlock(*op->region(r));
    if (!op->has(kPure) || op->numResults() == 0)
      continue;
    bool used = false;
    for (Value *v : op->results())
      used = used || v->hasUses();
    if (!used)
      op->erase();
  }
}

} // namespace

void eraseDeadPureOps(Module &m) {
  for (Op *f : m.functions())
    cleanBlock(*f->region());
}

} // namespace trident::frontend
