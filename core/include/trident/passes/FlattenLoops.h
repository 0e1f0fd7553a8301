#pragma once
// flatten-loops: fuses a loop nest whose outer scf.for is marked `flatten`
// (`tl.range(..., flatten=True)`, a persistent kernel's tile loop) into one loop over all
// (outer, inner) iterations, so that the SIMT lowering's software pipeline of the inner
// loop's loads runs across outer iterations: the next tile's first k steps load while the
// current tile's last ones compute (Triton's FuseNestedLoops). The outer body must hold
// exactly one scf.for at its top level, whose bounds are defined before the nest, and
// both loops' induction variables must have 32 bits or fewer.
//
//   %r = scf.for %lb, %ub, %st, %o0 {flatten = true} ({
//   ^(%i, %o):
//     P(%i, %o)                                     // the prologue: %init, %v
//     %x = scf.for %jlb, %jub, %js, %init, %zero ({ ^(%j, %a, %acc): B ... })
//     E(%i, %o, %v, %x)                             // the epilogue
//     scf.yield %y
//   })
//
// becomes (ni, nj: the trip counts, in i64)
//
//   %r = scf.if (ni > 0 && nj > 0) ({
//     P(%lb, %o0)            // peeled, pure ops only: initial values of what P gives the loop
//     %f = scf.for 0, ni * nj, 1, %lb, %jlb, %o0, %init0, %zero, %v0 ({
//     ^(%t, %i, %j, %o, %a, %acc, %v):
//       %first = (%j == %jlb) && (%i < %ub)
//       %a1, %v1 = scf.if %first ({ P(%i, %o); scf.yield %init, %v }, { scf.yield %a, %v })
//       B(%j, %a1, %acc) -> %an, %accn
//       %last = %j + %js >= %jub
//       %o1, %acc1 = scf.if %last ({ E(%i, %o, %v1, (%an, %accn)); scf.yield %y, %zero },
//                                  { scf.yield %o, %accn })
//       scf.yield select(%last, %i + %st, %i), select(%last, %jlb, %j + %js), %o1, %an, %acc1, %v1
//     })
//     scf.yield %f#o
//   }, {
//     the nest as written without its inner loop (which runs zero times here)
//   })
//
// Inner carried values whose initial value is defined before the nest (an accumulator's
// zeros) are reset by the epilogue's scf.if, so a dot reads its accumulator straight from
// the loop; the others are set by the prologue's. When the inner trip count is a
// constant of at least 1 the else branch yields %o0. TRIDENT_FLATTEN=0 (or off) turns
// the pass off, for measuring.

#include "trident/ir/IR.h"
#include "trident/support/Diagnostic.h"

namespace trident {

// True unless the environment sets TRIDENT_FLATTEN to 0 or off.
bool flattenEnabled();
// True when flattening is enabled and flatten-loops would fuse `loop` (a `flatten`
// scf.for of the shape above).
bool isFlattenCandidate(const Op *loop);
// Fuses every such nest in every function; always succeeds.
bool flattenLoops(Module &m, Diagnostics &diags);

} // namespace trident
