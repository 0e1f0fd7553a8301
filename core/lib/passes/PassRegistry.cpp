#include "trident/passes/PassRegistry.h"

#include "trident/passes/CSE.h"
#include "trident/passes/Canonicalize.h"
#include "trident/passes/DCE.h"
#include "trident/passes/FlattenLoops.h"
#include "trident/passes/Inline.h"
#include "trident/passes/LICM.h"
#include "trident/passes/VersionSigns.h"

namespace trident {

namespace {

const PassInfo kPasses[] = {
    {"inline", "inline tt.call of functions not marked noinline, drop unused private functions", inlineCalls},
    {"canonicalize", "fold constants, simplify identities and branches on constants", canonicalize},
    {"cse", "merge identical pure ops", eliminateCommonSubexpressions},
    {"version-signs", "run kernels twice over: with signed % and // dividends' scalars >= 0, and as written",
     versionSigns},
    {"licm", "hoist loop-invariant pure ops out of scf.for and scf.while", hoistLoopInvariants},
    {"flatten-loops", "fuse an scf.for marked flatten with the one scf.for in its body", flattenLoops},
    {"dce", "remove unused pure ops, unused loads and unused loop results", eliminateDeadCode},
};

} // namespace

std::span<const PassInfo> allPasses() { return kPasses; }

const PassInfo *lookupPass(std::string_view name) {
  for (const PassInfo &p : kPasses)
    if (p.name == name)
      return &p;
  return nullptr;
}

} // namespace trident
