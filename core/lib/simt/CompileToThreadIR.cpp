// The path every backend shares from block IR to verified thread IR (Lowering.h), as a
// list of named stages, each timed and dumped (StageTimer.h):
//
//   the block-IR pipeline    inline, canonicalize, cse, version-signs, licm, canonicalize,
//                            cse, dce (passes/Pipeline.cpp), unless the runtime ran it
//                            already (the module's block_pipeline = "default")
//   expand-descriptors       tt.descriptor_load as masked loads, but where TMA serves it
//   assign-layouts           layouts written onto the block IR as attributes
//   lower-to-thread-ir       every op lowered in those layouts, dot loops pipelined
//   allocate-shared-memory   offsets by liveness
//   insert-barriers          th.barrier where shared memory needs one
//   dce                      what the lowering made for every register but nothing reads
//   verify-thread-ir         both verifiers; a failure is an internal error of the lowering
//
// These are the passes of SimtPasses.h, the ones `trident-opt --assign-layouts ...` runs.
#include "trident/ir/Printer.h"
#include "trident/ir/Verifier.h"
#include "trident/passes/DCE.h"
#include "trident/passes/Pipeline.h"
#include "trident/simt/Lowering.h"
#include "trident/simt/SimtPasses.h"
#include "trident/simt/VerifyThreadIR.h"
#include "trident/support/StageTimer.h"

namespace trident::simt {

std::optional<Module> compileToThreadIR(const Module &blockIR, const TargetDesc &target,
                                        const LoweringOptions &options, Diagnostics &diags) {
  std::vector<Op *> functions = blockIR.functions();
  std::string kernel = !options.onlyFunction.empty() ? options.onlyFunction
                       : functions.size() == 1         ? std::string(func::name(functions[0]))
                                                       : std::string();
  StageTimer stages("simt", kernel);
  auto text = [](const Module &m) { return [&m] { return print(m); }; };
  Module m = blockIR.clone();
  PassManagerOptions pmOptions;
  pmOptions.afterEach = [&](const std::string &pass, const Module &after) {
    stages.lap(pass.c_str(), "tir", text(after));
  };
  PassManager pm(pmOptions);
  if (!blockPipelineDone(m))
    addDefaultPipeline(pm);
  if (!pm.run(m, diags))
    return std::nullopt;
  SimtPassContext context{target, options};
  for (const char *step : {"expand-descriptors", "assign-layouts", "lower-to-thread-ir", "allocate-shared-memory", "insert-barriers"}) {
    if (!lookupSimtPass(step)->run(m, context, diags))
      return std::nullopt;
    stages.lap(step, "tir", text(m));
  }
  eliminateDeadCode(m, diags);
  stages.lap("dce", "tir", text(m));
  if (!verify(m, diags) || !verifyThreadIR(m, diags)) {
    diags.error(Location(), "internal error: the SIMT lowering produced invalid thread IR");
    return std::nullopt;
  }
  stages.lap("verify-thread-ir");
  return m;
}

} // namespace trident::simt
