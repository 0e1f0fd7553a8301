#pragma once
// The stages from block IR to verified thread IR, one call each, so that a backend lists
// them in order in its table of contents (backends/nvptx/lib/Stages.cpp and the others);
// compileToThreadIR (Lowering.h) is the list a new backend starts from. Each call is a
// stage that TRIDENT_TIME_STAGES times and TRIDENT_DUMP_IR dumps, as "simt"
// (StageTimer.h). After a failure, reported in `diags`, the later calls do nothing and
// verified() is empty.
//
//   simt::ThreadIRStages s(blockIR, target, options, diags);
//   s.blockPipeline();                 // -> NN-simt-inline.tir ... (unless the runtime ran it)
//   s.pass("assign-layouts");          // -> NN-simt-assign-layouts.tir
//   ...
//   std::optional<Module> threadIR = s.verified();

#include "trident/ir/IR.h"
#include "trident/simt/Lowering.h"
#include "trident/simt/TargetDesc.h"
#include "trident/support/Diagnostic.h"
#include "trident/support/StageTimer.h"

#include <optional>

namespace trident::simt {

class ThreadIRStages {
public:
  // A copy of `blockIR` to be lowered for `target`; `options.onlyFunction` (or the one
  // function) names the dump's folder.
  ThreadIRStages(const Module &blockIR, const TargetDesc &target, const LoweringOptions &options,
                 Diagnostics &diags);

  // The block-IR pipeline (passes/Pipeline.cpp), a stage per pass, unless the module
  // says the runtime ran it (block_pipeline = "default"): it runs once per compile.
  void blockPipeline();
  // The pass `name` of SimtPasses.h ("expand-descriptors" ... "insert-barriers").
  void pass(const char *name);
  // Where the dot loops' rings keep a second program off each multiprocessor and one
  // stage fewer would not, lowers and allocates again with one stage fewer (TargetDesc's
  // sharedMemoryPerProcessor and registersPerProcessor; nothing without them). Runs
  // after "allocate-shared-memory".
  void fewerRingStages();
  // min_programs on each kernel: the programs a multiprocessor should hold (the same
  // TargetDesc fields; NVPTX hands it to ptxas when asked).
  void markMinPrograms();
  // What the lowering made for every register but nothing reads.
  void dce();
  // Both verifiers (a failure is an internal error of the lowering): the thread IR, or
  // nothing after any failure.
  std::optional<Module> verified();

private:
  StageTimer stages_;
  TargetDesc target_;
  LoweringOptions options_;
  Diagnostics &diags_;
  Module m_;
  std::optional<Module> laidOut_; // the module before lower-to-thread-ir, for fewerRingStages
  bool ok_ = true;
};

} // namespace trident::simt
