#pragma once
// Runs an ordered list of passes over a module. After each pass it can check the
// IR with the verifier, print the IR, and time the pass; a pipeline reads as a
// plain list of calls:
//
//   PassManager pm(options);
//   pm.add("inline", inlineCalls);
//   pm.add("canonicalize", canonicalize);
//   pm.add("cse", eliminateCommonSubexpressions);
//   if (!pm.run(module, diags)) ...
//
// A pass returns false when it failed and said why in `diags`. A pass that leaves
// invalid IR behind is a compiler bug; verification after each pass names it.

#include "trident/ir/IR.h"
#include "trident/support/Diagnostic.h"

#include <chrono>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

namespace trident {

// A pass: transforms the module in place; false means it failed (diagnostics say why).
using PassFunction = std::function<bool(Module &, Diagnostics &)>;

struct PassManagerOptions {
  bool verifyEach = true;                 // run the verifier after every pass
  std::ostream *printAfterEach = nullptr; // when set, print the IR after every pass here
  bool printLocations = false;            // with printAfterEach: append loc(...) to ops
  bool timePasses = false;                // record each pass's wall time (see printTimings)
  // When set, called after every pass that succeeded and verified (a compile's stages:
  // StageTimer times and dumps each pass through it).
  std::function<void(const std::string &pass, const Module &)> afterEach;
};

class PassManager {
public:
  explicit PassManager(PassManagerOptions options = {}) : options_(std::move(options)) {}

  // Appends a pass; passes run in the order they were added.
  void add(std::string name, PassFunction pass);
  // Names of the passes, in order.
  std::vector<std::string> passNames() const;

  // Runs every pass in order; stops at the first one that fails or leaves invalid IR.
  bool run(Module &m, Diagnostics &diags);

  // One row per pass that ran (in order) plus a total: wall time in ms and share.
  void printTimings(std::ostream &os) const;
  // Wall time of each pass of the last run, in order (empty unless timePasses).
  const std::vector<std::pair<std::string, std::chrono::nanoseconds>> &timings() const { return timings_; }

private:
  struct Entry {
    std::string name;
    PassFunction run;
  };
  PassManagerOptions options_;
  std::vector<Entry> passes_;
  std::vector<std::pair<std::string, std::chrono::nanoseconds>> timings_;
};

} // namespace trident
