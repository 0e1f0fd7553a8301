#include "CoopOwnership.h"

#include <vector>

namespace trident::simt {

bool ownedBySubgroups(const LinearLayout &tiles, const CoopMatrixShape &s, const LinearLayout &other,
                      const SharedLayout &at, int64_t N) {
  LinearLayout offsets = at.offsets(other);
  if (tiles.warpBases().size() != offsets.warpBases().size() || tiles.warpBases().empty())
    return false;
  int64_t warpBits = 0;
  for (size_t k = 0; k < tiles.warpBases().size(); ++k) {
    int64_t o = at.offset(tiles.warpBases()[k]);
    if (!isPowerOfTwo(o) || o != offsets.warpBases()[k] || (warpBits & o))
      return false;
    warpBits |= o;
  }
  for (const std::vector<int64_t> *bases : {&offsets.regBases(), &offsets.laneBases()})
    for (int64_t b : *bases)
      if (b & warpBits)
        return false;
  // The tiles' side adds its terms (subgroupBase, plus, the stride): distinct single bits
  // add without carries, so those too must stay clear of the warps' bits.
  std::vector<int64_t> terms;
  for (int64_t b : tiles.regBases())
    terms.push_back(at.offset(b));
  for (int64_t i = 1; i < s.m; i <<= 1)
    terms.push_back(i * N);
  for (int64_t j = 1; j < s.n; j <<= 1)
    terms.push_back(j);
  int64_t seen = warpBits;
  for (int64_t t : terms) {
    if (t == 0)
      continue;
    if (!isPowerOfTwo(t) || (seen & t))
      return false;
    seen |= t;
  }
  return true;
}

} // namespace trident::simt
