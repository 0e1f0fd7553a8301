#pragma once
// dce: dead code elimination. Removes ops whose results are unused and whose
// execution has no other effect, until none is left.
//
//   %1 = arith.addi %0, %0 : i32                    // unused
//   %2 = tt.load %p : f32                           // unused, not volatile
//   %3, %4 = scf.for %lb, %ub, %st, %a, %b : f32, f32 ({
//   ^(%i: i32, %x: f32, %y: f32):
//     %5 = arith.addf %x, %x : f32
//     %6 = arith.mulf %y, %y : f32                  // only feeds the unused %4
//     scf.yield %5, %6
//   })
//   tt.store %q, %3
//
// becomes
//
//   %3 = scf.for %lb, %ub, %st, %a : f32 ({
//   ^(%i: i32, %x: f32):
//     %5 = arith.addf %x, %x : f32
//     scf.yield %5
//   })
//   tt.store %q, %3
//
// Removable when unused: pure ops (reduce and scan included), tt.load without
// `volatile = true`, and scf.if / scf.for whose regions hold only removable ops.
// scf.while is kept (it might not terminate). An unused scf.if result is dropped
// from both yields; an unused scf.for result is dropped with its loop-carried value
// when that value only feeds removable ops that compute the same yielded value (or
// passes through a result of an scf.if in the body, which is dropped with it); an
// scf.while result unused after the loop and in its after region is dropped from
// scf.condition (its loop-carried values stay).

#include "trident/ir/IR.h"
#include "trident/support/Diagnostic.h"

namespace trident {

// Removes dead ops and dead loop/branch results in every function; always succeeds.
bool eliminateDeadCode(Module &m, Diagnostics &diags);

} // namespace trident
