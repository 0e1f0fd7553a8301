#pragma once
// Helpers for the SIMT lowering tests: parse block IR text, lower it, verify the result.

#include "trident/ir/Parser.h"
#include "trident/ir/Printer.h"
#include "trident/ir/Verifier.h"
#include "trident/simt/Lowering.h"
#include "trident/simt/VerifyThreadIR.h"

#include <doctest/doctest.h>

#include <string>

namespace trident::simt::test {

// A target like NVIDIA's: 32 lanes, 1024 threads, 48 KB shared memory, 16-byte accesses.
inline TargetDesc testTarget() {
  TargetDesc t;
  t.name = "test";
  t.warpSize = 32;
  t.maxThreadsPerProgram = 1024;
  t.sharedMemoryBytes = t.maxSharedMemoryBytes = 48 * 1024;
  t.maxVectorBytes = 16;
  return t;
}

inline Module parseOrFail(const std::string &text) {
  Diagnostics diags;
  std::optional<Module> m = parseModule(text, "test.ttir", diags);
  INFO(diags.str());
  REQUIRE(m.has_value());
  bool ok = verify(*m, diags);
  INFO(diags.str());
  REQUIRE(ok);
  return std::move(*m);
}

// Lowers `blockIR` text; the thread IR must verify with both verifiers.
inline Module lowerOrFail(const std::string &blockIR, unsigned numWarps = 4,
                          const TargetDesc &target = testTarget()) {
  Module block = parseOrFail(blockIR);
  Diagnostics diags;
  LoweringOptions options;
  options.numWarps = numWarps;
  std::optional<Module> thread = lowerToThreadIR(block, target, options, diags);
  INFO(diags.str());
  REQUIRE(thread.has_value());
  bool ok = verify(*thread, diags) && verifyThreadIR(*thread, diags);
  INFO(diags.str());
  INFO(print(*thread));
  REQUIRE(ok);
  return std::move(*thread);
}

// How many ops named `name` the module holds.
inline int countOps(const Module &m, std::string_view name) {
  int n = 0;
  m.op()->walk([&](Op *op) { n += op->name() == name; });
  return n;
}

} // namespace trident::simt::test
