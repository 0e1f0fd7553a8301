#pragma once
// inline: replaces every tt.call by a copy of the callee's body, then removes the
// functions marked `private = true` that nothing calls any more.
//
//   tt.func {private = true, result_types = [i32], sym_name = "twice"} ({
//   ^(%0: i32):
//     %1 = arith.addi %0, %0 : i32
//     tt.return %1
//   })
//   tt.func {sym_name = "kernel"} ({
//   ^(%0: i32):
//     %1 = tt.call %0 {callee = "twice"} : i32
//     ...
//
// becomes
//
//   tt.func {sym_name = "kernel"} ({
//   ^(%0: i32):
//     %1 = arith.addi %0, %0 : i32
//     ...
//
// Calls stay when the callee has `noinline = true` or is (mutually) recursive.
// Functions without `private = true` are kept even when unused: they may be kernels
// or be called from outside the module. Callees are inlined bottom-up, so a callee's
// own calls are already inlined when it is copied.

#include "trident/ir/IR.h"
#include "trident/support/Diagnostic.h"

namespace trident {

// Inlines calls and drops unused private functions; always succeeds.
bool inlineCalls(Module &m, Diagnostics &diags);

} // namespace trident
