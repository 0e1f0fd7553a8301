#pragma once
// Shrinks a kernel that fails on a device to a smaller one that fails the same way,
// for bug reports: outputs (stores and atomics) are dropped one at a time while the
// failure stays, then dead code goes; for crashes and compile errors, ops are also
// bypassed (their result replaced by a same-typed operand). Wrong-result failures are
// only reduced by dropping outputs, which cannot change how the remaining outputs are
// computed or compared. Each candidate runs in a child process (no core file), so a
// crashing device (a driver's compiler) kills the candidate, not the reducer; a crash
// is matched by its signal, and a hang (120 s) is not a crash. Outputs are dropped in
// chunks first (halves, quarters, ..., one), then ops bypassed one at a time.

#include "Differential.h"

#include <optional>

namespace trident::e2e {

struct Reduction {
  std::string failure; // "crash (Segmentation fault)", "hang", "run error" or "wrong results"
  size_t opsBefore = 0, opsAfter = 0;
  size_t runs = 0;       // device runs (child processes), the first one included
  bool complete = true;  // false: the time ran out, the kernel is reduced only so far
  RandomKernel kernel; // the reduced kernel (same arguments)
};

// Reduces the kernel of `seed` on device `device` ("vulkan:0", or "compile:cuda:sm_90"
// for a compiler); nullopt when it does not fail there. With `seconds` > 0 it stops trying
// candidates after that long and returns the kernel as far as it got.
std::optional<Reduction> reduceFailure(uint64_t seed, const GeneratorOptions &options, const std::string &device,
                                       double seconds = 0);

} // namespace trident::e2e
