#pragma once
// licm: loop-invariant code motion. Moves pure ops that use only values defined
// outside an scf.for or scf.while out of it, to just before the loop.
//
//   scf.for %lb, %ub, %st ({
//   ^(%i: i32):
//     %5 = arith.muli %n, %c4 : i32
//     %6 = tt.splat %5 : block<64xi32>
//     %7 = arith.addi %6, %r : block<64xi32>     // uses %r, defined outside too
//     tt.store %p, %7
//     scf.yield
//   })
//
// becomes
//
//   %5 = arith.muli %n, %c4 : i32
//   %6 = tt.splat %5 : block<64xi32>
//   %7 = arith.addi %6, %r : block<64xi32>
//   scf.for %lb, %ub, %st ({
//   ^(%i: i32):
//     tt.store %p, %7
//     scf.yield
//   })
//
// Inner loops are handled first, so an invariant climbs out of a whole nest. A loop
// may run zero times, so only ops that cannot fault move: integer division and
// remainder move only with a non-zero constant divisor. Loads never move (a store in
// the loop may change memory). Ops with regions (tt.reduce, tt.scan) move when
// nothing in their regions refers to the loop.

#include "trident/ir/IR.h"
#include "trident/support/Diagnostic.h"

namespace trident {

// Hoists loop-invariant pure ops in every function; always succeeds.
bool hoistLoopInvariants(Module &m, Diagnostics &diags);

} // namespace trident
