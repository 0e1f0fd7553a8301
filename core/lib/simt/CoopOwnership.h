#pragma once
// Which conversion buffers between cooperative-matrix tiles and registers each subgroup
// uses alone (LowerCoopMatrix.cpp marks them {subgroup = 1}; Barriers.h then orders their
// accesses with subgroup barriers).

#include "SharedLayout.h"
#include "trident/simt/TargetDesc.h"

#include <cstdint>

namespace trident::simt {

// True when `tiles` (a coopLayout: tiles of `s` stored with a stride of `N` elements) and
// `other` (a register layout) put each warp's elements at offsets of `at` that no other
// warp uses: both give warp basis k the same offset, a single bit, and nothing else
// either side adds to an offset (registers, lanes, tile origins, a tile's rows and
// columns) has a bit of those.
bool ownedBySubgroups(const LinearLayout &tiles, const CoopMatrixShape &s, const LinearLayout &other,
                      const SharedLayout &at, int64_t N);

} // namespace trident::simt
