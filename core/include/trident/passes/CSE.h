#pragma once
// cse: common subexpression elimination. A pure op without regions that repeats an
// earlier op visible from it (same op, operands, attributes and result types;
// operands of a commutative op in either order) is replaced by that earlier op.
//
//   %2 = arith.addi %0, %1 : i32
//   scf.for ... ({
//     %5 = arith.addi %1, %0 : i32
//     %6 = arith.muli %5, %2 : i32
//
// becomes
//
//   %2 = arith.addi %0, %1 : i32
//   scf.for ... ({
//     %6 = arith.muli %2, %2 : i32
//
// "Visible" is dominance in structured control flow: earlier in the same region or in
// a region around it, within one function. Loads are never merged (a store between
// them may change memory).

#include "trident/ir/IR.h"
#include "trident/support/Diagnostic.h"

namespace trident {

// Merges repeated pure ops in every function; always succeeds.
bool eliminateCommonSubexpressions(Module &m, Diagnostics &diags);

} // namespace trident
