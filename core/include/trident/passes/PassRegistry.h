#pragma once
// Every pass by its name, which is also its command-line flag (--canonicalize),
// its file name and the name of its lit test.

#include "trident/passes/PassManager.h"

#include <span>
#include <string_view>

namespace trident {

struct PassInfo {
  std::string_view name;    // "canonicalize"
  std::string_view summary; // one line, for --help
  bool (*run)(Module &, Diagnostics &);
};

// All passes, in the order of the default pipeline.
std::span<const PassInfo> allPasses();
// The pass called `name`, or null.
const PassInfo *lookupPass(std::string_view name);

} // namespace trident
