#include "trident/passes/Pipeline.h"

#include "trident/passes/CSE.h"
#include "trident/passes/Canonicalize.h"
#include "trident/passes/DCE.h"
#include "trident/passes/FlattenLoops.h"
#include "trident/passes/Inline.h"
#include "trident/passes/LICM.h"
#include "trident/passes/VersionSigns.h"

namespace trident {

void addDefaultPipeline(PassManager &pm) {
  pm.add("inline", inlineCalls);                // one function per kernel: callees' constants meet their uses
  pm.add("canonicalize", canonicalize);         // fold what inlining exposed
  pm.add("cse", eliminateCommonSubexpressions); // merge repeated index arithmetic
  pm.add("version-signs", versionSigns);        // tile offsets % n vectorize where they are >= 0
  pm.add("licm", hoistLoopInvariants);          // take invariants out of loops
  pm.add("flatten-loops", flattenLoops);        // fuse flatten=True nests: one pipeline across tiles
  pm.add("canonicalize", canonicalize);         // fold what met outside the loops
  pm.add("cse", eliminateCommonSubexpressions); // hoisted copies meet the ones before the loop
  pm.add("dce", eliminateDeadCode);             // drop what folding and merging left unused
}

void markBlockPipelineDone(Module &m) { m.op()->setAttr("block_pipeline", Attribute::string("default")); }

bool blockPipelineDone(const Module &m) {
  const Attribute &a = m.op()->attr("block_pipeline");
  return a.isString() && a.getString() == "default";
}

} // namespace trident
