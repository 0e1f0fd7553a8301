// The stages every backend's table of contents lists from block IR to verified thread IR
// (ThreadIRStages.h), in the order a backend without stages of its own runs them (the
// CPU plugin, a plugin built outside the tree):
//
//   the block-IR pipeline    inline, canonicalize, cse, version-signs, licm, canonicalize,
//                            cse, dce (passes/Pipeline.cpp), unless the runtime ran it
//                            already (the module's block_pipeline = "default")
//   expand-descriptors       tt.descriptor_load as masked loads, but where TMA serves it
//   assign-layouts           layouts written onto the block IR as attributes
//   lower-to-thread-ir       every op lowered in those layouts, dot loops pipelined
//   allocate-shared-memory   offsets by liveness
//   fewer-ring-stages        where the rings keep a second program off each
//                            multiprocessor and one stage fewer would not, the two
//                            steps before again with one stage fewer
//   min-programs             the programs a multiprocessor should hold
//   insert-barriers          th.barrier where shared memory needs one
//   dce                      what the lowering made for every register but nothing reads
//   verify-thread-ir         both verifiers; a failure is an internal error of the lowering
//
// The SIMT steps are the passes of SimtPasses.h, the ones `trident-opt --assign-layouts ...` runs.
#include "trident/simt/Lowering.h"
#include "trident/simt/ThreadIRStages.h"

namespace trident::simt {

std::optional<Module> compileToThreadIR(const Module &blockIR, const TargetDesc &target,
                                        const LoweringOptions &options, Diagnostics &diags) {
  ThreadIRStages s(blockIR, target, options, diags);
  s.blockPipeline();
  s.pass("expand-descriptors");
  s.pass("assign-layouts");
  s.pass("lower-to-thread-ir");
  s.pass("allocate-shared-memory");
  s.fewerRingStages();
  s.markMinPrograms();
  s.pass("insert-barriers");
  s.dce();
  return s.verified();
}

} // namespace trident::simt
