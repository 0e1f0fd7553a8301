#pragma once
// The steps of the SIMT lowering as passes on a module, each named after its flag
// (trident-opt --assign-layouts ...), its file and its lit test folder (tests/lit/simt):
//
//   assign-layouts          block IR -> block IR with layout attributes (LayoutAttributes.h)
//   lower-to-thread-ir      block IR -> thread IR: every op lowered in its layouts (Lowering.h),
//                           pipelined dot loops included; shared memory not yet placed
//                           (offset = -1), no barriers
//   allocate-shared-memory  thread IR: offsets by liveness and shared_bytes (SharedMemory.h)
//   insert-barriers         thread IR: the th.barrier ops shared memory needs (Barriers.h)
//   verify-thread-ir        thread IR: the rules of docs/thread-ir.md (VerifyThreadIR.h)
//
// Run in this order (then --dce) they make what a backend's Stages.cpp makes
// (ThreadIRStages.h calls them by name).

#include "trident/ir/IR.h"
#include "trident/simt/Lowering.h"
#include "trident/simt/TargetDesc.h"
#include "trident/support/Diagnostic.h"

#include <span>
#include <string_view>

namespace trident::simt {

// What the passes need beyond the IR: the target and the lowering's options.
struct SimtPassContext {
  TargetDesc target;
  LoweringOptions lowering;
};

struct SimtPassInfo {
  std::string_view name;    // "assign-layouts"
  std::string_view summary; // one line, for --help
  bool (*run)(Module &, const SimtPassContext &, Diagnostics &);
};

// Every SIMT pass, in the order of the lowering.
std::span<const SimtPassInfo> simtPasses();
// The pass called `name`, or null.
const SimtPassInfo *lookupSimtPass(std::string_view name);

} // namespace trident::simt
