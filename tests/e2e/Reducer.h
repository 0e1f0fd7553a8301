#pragma once
// Shrinks a kernel that fails on a device to a smaller one that fails the same way,
// for bug reports: outputs (stores and atomics) are dropped one at a time while the
// failure stays, then dead code goes; for crashes and compile errors, ops are also
// bypassed (their result replaced by a same-typed operand). Wrong-result failures are
// only reduced by dropping outputs, which cannot change how the remaining outputs are
// computed or compared. Each candidate runs in a child process.

#include "Differential.h"

#include <optional>

namespace trident::e2e {

struct Reduction {
  std::string failure; // "crash", "run error" or "wrong results"
  size_t opsBefore = 0, opsAfter = 0;
  RandomKernel kernel; // the reduced kernel (same arguments)
};

// Reduces the kernel of `seed` on device `device` ("vulkan:0", or "compile:cuda:sm_90"
// for a compiler); nullopt when it does not fail there.
std::optional<Reduction> reduceFailure(uint64_t seed, const GeneratorOptions &options, const std::string &device);

} // namespace trident::e2e
