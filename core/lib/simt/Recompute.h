#pragma once
// Which block values the lowering can have in any layout without moving data, by
// computing them again in that layout: the rule that layout assignment (layout-free
// values do not decide a layout) and layout conversion (rematerialize instead of a
// shuffle or shared memory) share.
//
//   %c = arith.constant ... / tt.splat %s / tt.make_range    from scalars
//   %b = tt.broadcast %c, tt.trans %c ...                      from its operand
//   %e = arith.addi %b, %c (pure, elementwise)                 from its operands

#include "trident/ir/IR.h"

namespace trident::simt {

enum class Recompute {
  No,       // its elements must come from where they are
  Scalars,  // from scalars only: constants, splats, ranges
  Operand,  // from operand 0 in the same layout: shape ops (and hints, where asked)
  Operands, // from every operand in the same layout: pure elementwise ops
};

// How `def` (defining a block value) can be computed again in another layout;
// `throughHints`: tt.multiple_of / tt.max_contiguous pass their operand on.
inline Recompute recomputeKind(const Op *def, bool throughHints) {
  if (def->numResults() != 1)
    return Recompute::No;
  switch (def->code()) {
  case OpCode::Constant:
  case OpCode::Splat:
  case OpCode::MakeRange: return Recompute::Scalars;
  case OpCode::Broadcast:
  case OpCode::ExpandDims:
  case OpCode::Reshape:
  case OpCode::Trans: return Recompute::Operand;
  case OpCode::MultipleOf:
  case OpCode::MaxContiguous: return throughHints ? Recompute::Operand : Recompute::No;
  default: break;
  }
  return def->has(kElementwise) && def->has(kPure) && def->numOperands() ? Recompute::Operands : Recompute::No;
}

} // namespace trident::simt
