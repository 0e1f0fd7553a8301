#pragma once
// version-signs: runs the body of a kernel twice over, once for the case that the
// uniform scalars some signed remainders and divisions start from are non-negative,
// where axis info can then prove their results contiguous, and once as written. The
// first is the case every launch takes in practice (offsets of tiles, which index
// memory), and its loads and stores vectorize; the second keeps the exact meaning of
// `%` and `//` on negative numbers (C's, rounding toward zero).
//
//   %x = arith.muli %pid_n, %c256 : i32
//   %s = tt.splat %x : block<256xi32>
//   %o = arith.addi %s, %range : block<256xi32>
//   %c = arith.remsi %o, %N : block<256xi32>        // contiguous only if %x >= 0
//   ... uses of %c ...
//   tt.return
//
// becomes
//
//   %x = arith.muli %pid_n, %c256 : i32
//   %ok = arith.cmpi %x, %c0 {predicate = "sge"} : i1
//   scf.if %ok ({
//     %x1 = arith.maxsi %x, %c0 : i32                // %x, known non-negative
//     %s = tt.splat %x1 ...  %c = arith.remsi ... (runs of 8 contiguous offsets)
//     scf.yield
//   }, {
//     %s = tt.splat %x ...   %c = arith.remsi ...    (the same ops, as written)
//     scf.yield
//   })
//   tt.return
//
// Only remainders and divisions at the top level of a kernel, or of the body of an
// scf.for in it (a persistent kernel's tile loop, whose tile coordinates come from its
// induction variable), whose dividend is a splat of such a scalar plus a non-negative
// contiguous block qualify; what follows the last of those scalars is what runs twice (in
// a loop, up to the scf.yield, which takes the values it needs from the scf.if's results).
// Versioned bodies are nested, so the pass does not apply twice. A loop that
// flatten-loops will fuse with its inner loop (FlattenLoops.h) is versioned whole
// instead, so that its body stays one block: a first scf.for over the same iterations
// computes only the scalars (from the induction variable and values defined before the
// loop) and ANDs their signs, and an scf.if runs the loop with them known non-negative
// when every one was, else the loop as written.

#include "trident/ir/IR.h"
#include "trident/support/Diagnostic.h"

namespace trident {

// Versions every kernel with qualifying remainders or divisions; always succeeds.
bool versionSigns(Module &m, Diagnostics &diags);

} // namespace trident
