// The path every backend shares from block IR to verified thread IR (Lowering.h).
#include "trident/ir/Verifier.h"
#include "trident/passes/DCE.h"
#include "trident/passes/Pipeline.h"
#include "trident/simt/Lowering.h"
#include "trident/simt/VerifyThreadIR.h"

namespace trident::simt {

std::optional<Module> compileToThreadIR(const Module &blockIR, const TargetDesc &target,
                                        const LoweringOptions &options, Diagnostics &diags) {
  Module optimized = blockIR.clone();
  PassManager pm;
  addDefaultPipeline(pm);
  if (!pm.run(optimized, diags))
    return std::nullopt;
  std::optional<Module> threadIR = lowerToThreadIR(optimized, target, options, diags);
  if (!threadIR)
    return std::nullopt;
  // What the lowering made for every register but nothing reads: the pointers of a
  // vector's other elements, address state a pipelined loop no longer needs.
  eliminateDeadCode(*threadIR, diags);
  if (!verify(*threadIR, diags) || !verifyThreadIR(*threadIR, diags)) {
    diags.error(Location(), "internal error: the SIMT lowering produced invalid thread IR");
    return std::nullopt;
  }
  return threadIR;
}

} // namespace trident::simt
