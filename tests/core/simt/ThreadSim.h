#pragma once
// A test-only simulator of thread IR: runs every thread of a program in lockstep
// (thread IR's control flow is uniform), with warp shuffles, shared memory and
// barriers. It checks what a GPU would not: global accesses stay inside registered
// buffers and are aligned to their size, and shared-memory accesses of different
// threads are separated by a barrier (a race is an error), and reads of shared
// memory see written bytes.

#include "trident/ir/IR.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace trident::simt::test {

class ThreadSim {
public:
  explicit ThreadSim(unsigned warpSize = 32) : warpSize_(warpSize) {}

  void addBuffer(void *base, size_t bytes) { buffers_.push_back({reinterpret_cast<uintptr_t>(base), bytes}); }

  // Runs `kernel` over `grid` programs; each argument is the bits of a scalar or a
  // host address. Returns false with `error` set on the first problem found.
  bool run(const Module &threadIR, std::string_view kernel, const std::vector<uint64_t> &args,
           std::array<uint32_t, 3> grid, std::string &error);

  // Barriers executed over the last run (all programs).
  uint64_t barriersExecuted() const { return barriers_; }

private:
  struct Buffer {
    uintptr_t base;
    size_t bytes;
  };
  friend class SimProgram;
  unsigned warpSize_;
  std::vector<Buffer> buffers_;
  uint64_t barriers_ = 0;
};

} // namespace trident::simt::test
