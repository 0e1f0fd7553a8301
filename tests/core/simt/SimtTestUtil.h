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

#include "ThreadSim.h"

#include <random>
#include <sstream>

namespace trident::simt::test {

inline uint64_t ptrArg(const void *p) { return reinterpret_cast<uint64_t>(p); }
inline uint64_t i32Arg(int32_t v) { return static_cast<uint32_t>(v); }

// Runs `kernel` of `threadIR` in the simulator over `grid`; `buffers` are the only memory it may touch.
inline void simulate(const Module &threadIR, std::string_view kernel, const std::vector<uint64_t> &args,
                     std::array<uint32_t, 3> grid, std::initializer_list<std::pair<void *, size_t>> buffers,
                     ThreadSim *simOut = nullptr) {
  ThreadSim local;
  ThreadSim &sim = simOut ? *simOut : local;
  for (auto [p, bytes] : buffers)
    sim.addBuffer(p, bytes);
  std::string error;
  bool ok = sim.run(threadIR, kernel, args, grid, error);
  INFO(error);
  INFO(print(threadIR));
  REQUIRE(ok);
}

// ---- running hand-written thread IR

inline Module parseThreadIR(const std::string &text) {
  Diagnostics diags;
  std::optional<Module> m = parseModule(text, "test.ttir", diags);
  INFO(diags.str());
  INFO(text);
  REQUIRE(m.has_value());
  bool ok = verify(*m, diags) && simt::verifyThreadIR(*m, diags);
  INFO(diags.str());
  REQUIRE(ok);
  return std::move(*m);
}

// Runs kernel "k" of `text` as one program; returns the simulator's error ("": none).
inline std::string runKernel(ThreadSim &sim, const std::string &text, const std::vector<uint64_t> &args) {
  Module m = parseThreadIR(text);
  std::string error;
  sim.run(m, "k", args, {1, 1, 1}, error);
  return error;
}

// A kernel "k" of `threads` threads and `sharedBytes` of shared memory.
inline std::string kernel(unsigned threads, unsigned sharedBytes, const std::string &params,
                          const std::string &body) {
  std::ostringstream k;
  k << "builtin.module ({\n  tt.func {num_threads = " << threads << ", shared_bytes = " << sharedBytes
    << ", sym_name = \"k\"} ({\n  ^(" << params << "):\n    %t = th.thread_id : i32\n"
    << body << "    tt.return\n  })\n})\n";
  return k.str();
}

// Replaces every `{key}` of `text`.
inline std::string fill(std::string text, const std::vector<std::pair<std::string, std::string>> &keys) {
  for (const auto &[key, value] : keys)
    for (size_t at; (at = text.find("{" + key + "}")) != std::string::npos;)
      text.replace(at, key.size() + 2, value);
  return text;
}

inline std::vector<float> randomFloats(size_t n, uint32_t seed, float lo = -1.f, float hi = 1.f) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (float &x : v)
    x = dist(gen);
  return v;
}

} // namespace trident::simt::test
