#pragma once
// Internal to the passes: what an op's execution does besides computing its
// results, in the terms the passes need to drop, merge or move it.

#include "trident/ir/IR.h"

namespace trident::passes {

// True when running `op` has no effect but its results: kPure ops (tt.reduce and
// tt.scan included, whose combiners are pure by the verifier's rules).
bool isPure(const Op *op);

// True when erasing `op` changes nothing observable once its results are unused:
// pure ops, loads without `volatile = true`, and scf.if / scf.for whose regions
// hold only such ops (and their yields).
bool isRemovableWhenUnused(const Op *op);

// True when `op` is pure and may also run where the original program would not
// have run it (e.g. before a loop that runs zero times): it cannot fault.
bool isSpeculatable(const Op *op);

// True when no result of `op` is used.
bool hasNoUses(const Op *op);

// Erases `op` when it is removable and unused, then does the same for the ops that
// defined its operands, recursively. Returns true when `op` was erased.
bool eraseIfDead(Op *op);
// Like eraseIfDead for each of `candidates` (which may repeat, or depend on each other).
void eraseDeadOps(std::vector<Op *> candidates);
// The ops outside `op` that define values used by `op` or inside its regions.
std::vector<Op *> producersOf(Op *op);

} // namespace trident::passes
