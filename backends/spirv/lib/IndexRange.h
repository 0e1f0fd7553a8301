#pragma once
// Bounds of the integer values a kernel indexes with, for address arithmetic.
//
// A block's element offsets are built from thread, lane and warp ids and
// constants: `lane | warp << 5`, then `+ 128`, `+ 256`... LLVM sees the ids'
// ranges and folds `base + sext(x + 128) * 4` into `(base + x * 4) + 512`, one
// address register and immediate offsets. A Vulkan driver sees only the SPIR-V:
// without knowing that `x + 128` cannot wrap, it must sign-extend, shift and add
// in 64 bits for every element. IndexRanges proves the bounds here so the
// translation of tt.addptr can write the folded form itself.
//
// Only scalar integers of at most 32 bits are tracked; everything else is unknown.

#include "trident/ir/IR.h"

#include <cstdint>
#include <optional>
#include <unordered_map>

namespace trident::spirv {

struct IntRange {
  int64_t lo, hi; // inclusive bounds of the value read as a signed integer
  bool nonNegative() const { return lo >= 0; }
};

class IndexRanges {
public:
  IndexRanges(int64_t warpSize, int64_t numThreads) : warpSize_(warpSize), numThreads_(numThreads) {}

  // The bounds of `v` when thread ids and constants prove them, else nullopt.
  std::optional<IntRange> of(Value *v);

private:
  std::optional<IntRange> compute(Op *op);

  int64_t warpSize_, numThreads_;
  std::unordered_map<const Value *, std::optional<IntRange>> memo_;
};

} // namespace trident::spirv
