#pragma once
// Internal to canonicalize: the folding rules of each op family, one .cpp each.

#include "trident/ir/Builder.h"

namespace trident::passes {

struct FoldResult {
  Value *replacement = nullptr; // replaces the op's only result; the op is then erased
  bool changedInPlace = false;  // the op was rewritten in place (e.g. operands swapped)
  bool changed() const { return replacement || changedInPlace; }
};

// Integer and float arithmetic, comparisons, selects and casts. `b` inserts before
// `op` with its location, for constants the folding creates.
FoldResult foldArith(Op *op, Builder &b);
// Block construction (splat, broadcast, expand_dims, reshape, trans, make_range)
// and tt.addptr.
FoldResult foldShape(Op *op, Builder &b);
// scf.if on a constant condition and scf.for with constant bounds running zero
// times or once. Returns true when `op` was replaced and erased.
bool foldControlFlow(Op *op);

} // namespace trident::passes
