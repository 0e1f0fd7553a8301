#pragma once
// The SIMT lowering: block IR -> thread IR (docs/simt.md, docs/thread-ir.md).
//
// Before (block IR, one program):
//   %r = tt.make_range {end = 1024, start = 0} : block<1024xi32>
//   %p = tt.addptr %base, %r : block<1024xptr<f32>>
//   %x = tt.load %p : block<1024xf32>
// After (thread IR, one thread of 128; 4 contiguous f32 per thread, twice):
//   %t = th.thread_id : i32           ... %o0 = arith.addi %base4, %c0 ...
//   %v = th.load %p0 : vector<4xf32>
//   %x0 = th.extract %v {index = 0} : f32  ...
//
// Runs layout assignment (or reads the layouts the IR carries), lowers every op,
// allocates shared memory by liveness and places barriers. The input must be inlined (tt.call is an error) and verified.

#include "trident/ir/IR.h"
#include "trident/simt/TargetDesc.h"
#include "trident/support/Diagnostic.h"

#include <optional>
#include <string>

namespace trident::simt {

struct LoweringOptions {
  unsigned numWarps = 0;    // warps per program; 0 picks Triton's default (see defaultNumWarps)
  unsigned numStages = 3;   // software pipelining depth of dot loops (a loop's num_stages wins); 1: none
  std::string onlyFunction; // when set, only this tt.func is lowered
  // The last two steps, which trident-opt also runs as passes of their own
  // (--allocate-shared-memory, --insert-barriers); barriers need the allocation.
  bool allocateSharedMemory = true;
  bool insertBarriers = true;
};

// Lowers every tt.func without results of `blockIR` to thread IR for `target`.
// Each thread-IR tt.func carries num_threads and shared_bytes attributes. A tt.func
// with layout attributes (LayoutAttributes.h) is lowered in those layouts, one
// without is assigned its layouts first.
std::optional<Module> lowerToThreadIR(const Module &blockIR, const TargetDesc &target,
                                      const LoweringOptions &options, Diagnostics &diags);

// Shared-memory allocation of a lowered tt.func (SharedMemory.h), setting its
// shared_bytes; an error when `target` has less shared memory than it needs.
bool placeSharedMemory(Op *threadFunc, const TargetDesc &target, Diagnostics &diags);

// The stages from block IR to thread IR that a backend without a list of its own runs
// (CompileToThreadIR.cpp; ThreadIRStages.h for backends that list them): the default
// pass pipeline (inlining, folding, CSE, LICM, DCE) on a copy of `blockIR` unless the
// runtime ran it, the lowering, and both verifiers. A result that does not verify is
// reported as an internal error of the lowering.
std::optional<Module> compileToThreadIR(const Module &blockIR, const TargetDesc &target,
                                        const LoweringOptions &options, Diagnostics &diags);

// Triton's choice when the kernel does not say: 4 warps, 8 for blocks of 8192 or
// more elements; never more threads than the target allows.
unsigned defaultNumWarps(const Op *func, const TargetDesc &target);

} // namespace trident::simt
