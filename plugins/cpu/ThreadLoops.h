#pragma once
// Runs the threads of a thread-IR program in loops, so that one CPU thread executes a
// whole program and LLVM's loop vectorizer spreads the threads over SIMD lanes:
// every stretch of ops between barriers becomes a loop over the thread ids, and a
// value used after the barrier that follows its definition lives in a per-thread
// array of shared memory (appended past the kernel's own).
//
//   tt.func {num_threads = 128} ...                tt.func {num_threads = 1} ...
//     %t = th.thread_id                              scf.for %t = 0 to 128 {
//     %x = ... %t ...                                  %x = ... %t ...
//     th.store_shared %s, %t, %x              ->       th.store_shared %s, %t, %x
//     th.barrier                                       th.store_shared %spill, %t, %x
//     %y = th.load_shared %s, (127 - %t)             }
//     ... %x, %y ...                                 scf.for %t = 0 to 128 {
//                                                      %x' = th.load_shared %spill, %t
//                                                      %y = th.load_shared %s, (127 - %t) ...
//
// A uniform scf.for with barriers inside stays one loop whose body is split the same
// way; its loop-carried values move to per-thread arrays. Warps are single threads
// (the CPU target's warp size is 1), so shuffles read the thread's own value.
// A uniform scf.if or scf.while with barriers inside is split likewise, its results in
// per-thread arrays. A barrier that orders nothing between the stretches around it is
// dropped, the two one loop (StretchEffects.h); loops taking lane and warp parts of the
// thread id run in groups of a vector's lanes (LaneGroups.h).

#include "trident/ir/IR.h"
#include "trident/support/Diagnostic.h"

namespace trident::cpu {

// Rewrites the tt.func `func` in place; false after a diagnostic.
bool formThreadLoops(Op *func, Diagnostics &diags);

} // namespace trident::cpu
