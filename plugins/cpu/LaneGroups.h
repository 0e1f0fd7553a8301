#pragma once
// Runs a loop over a program's threads (ThreadLoops.h) in groups of G consecutive
// threads where its body takes the lane and warp parts of the thread id: `%t & M` (M's
// low log2(G) bits all ones) and `%t >> k` (2^k >= G). In a group, %t = %g + %l with %g
// a multiple of G and %l < G, so `%t & M` is `(%g & M) + %l` and `%t >> k` is `%g >> k`:
// the lane is the inner induction variable plus a value uniform in the inner loop, a
// stride LLVM's loop vectorizer sees, where `%t & 31` made its accesses gathers.
//
//   scf.for %t = 0 to 128 {parallel}         scf.for %g = 0 to 128 step 16
//     %c = arith.andi %t, 31          ->       %c0 = arith.andi %g, 31
//     %r = arith.shrui %t, 5                   %r = arith.shrui %g, 5
//     ... %t ...                               scf.for %l = 0 to 16 {parallel}
//                                                %t = arith.addi %g, %l
//                                                %c = arith.addi %c0, %l
//                                                ... %t ...

#include "trident/ir/IR.h"

#include <cstdint>

namespace trident::cpu {

// Rewrites the thread loop `loop` (from 0 to its constant thread count, step 1) as
// above where its body has such uses and `group` (a power of two) divides the count;
// false where it leaves the loop as it is.
bool groupLanes(Op *loop, int64_t threads, int64_t group);

} // namespace trident::cpu
