#include "trident/simt/SharedMemory.h"

#include <algorithm>
#include <limits>
#include <unordered_map>
#include <vector>

namespace trident::simt {

namespace {

constexpr int64_t kAlignment = 16;

struct Interval {
  Op *alloc;
  int64_t start, end; // positions in a pre-order numbering of the function's ops
  int64_t size, offset = 0;
};

// The op of `block` that is or contains `op` (null when `op` is outside `block`).
Op *ancestorIn(Op *op, Block *block) {
  while (op && op->parentBlock() != block)
    op = op->parentOp();
  return op;
}

} // namespace

int64_t allocateSharedMemory(Op *func, int64_t spreadLimit) {
  std::unordered_map<const Op *, int64_t> first, last;
  int64_t counter = 0;
  func->walk([&](Op *op) { first[op] = counter++; });
  // last[op]: the highest position inside op (itself when it has no regions).
  func->walk([&](Op *op) {
    int64_t p = first[op];
    for (Op *a = op; a; a = a->parentOp())
      last[a] = std::max(last[a], p);
  });

  std::vector<Interval> intervals;
  func->walk([&](Op *op) {
    if (!op->is(OpCode::ThSharedAlloc))
      return;
    Interval iv{op, first[op], first[op], op->intAttr("size")};
    for (const Use &u : op->result()->uses())
      if (Op *a = ancestorIn(u.user, op->parentBlock()))
        iv.end = std::max(iv.end, last[a]);
    intervals.push_back(iv);
  });
  std::sort(intervals.begin(), intervals.end(),
            [](const Interval &a, const Interval &b) { return a.start < b.start; });

  int64_t total = 0;
  for (size_t i = 0; i < intervals.size(); ++i) {
    Interval &cur = intervals[i];
    // Byte ranges of earlier allocations still live here, sorted by offset.
    std::vector<std::pair<int64_t, int64_t>> busy;
    for (size_t j = 0; j < i; ++j)
      if (intervals[j].end >= cur.start)
        busy.push_back({intervals[j].offset, intervals[j].offset + intervals[j].size});
    std::sort(busy.begin(), busy.end());
    // th.shared_alloc's optional `align` (swizzled tiles whose pattern follows the
    // address bits) raises the alignment.
    int64_t align = cur.alloc->attr("align").isInt() ? std::max(kAlignment, cur.alloc->intAttr("align")) : kAlignment;
    auto up = [&](int64_t x) { return (x + align - 1) / align * align; };
    int64_t offset = 0;
    for (auto [lo, hi] : busy) {
      if (offset + cur.size <= lo)
        break;
      offset = std::max(offset, up(hi));
    }
    if (spreadLimit > 0) {
      // Of the places that fit under the limit, the one whose bytes died longest ago:
      // the fewer recent accesses it overlaps, the fewer barriers it needs.
      auto diedAt = [&](int64_t at) {
        int64_t latest = -1;
        for (size_t j = 0; j < i; ++j) {
          const Interval &e = intervals[j];
          bool overlaps = e.offset < at + cur.size && at < e.offset + e.size;
          if (overlaps && e.end >= cur.start)
            return std::numeric_limits<int64_t>::max(); // still live
          if (overlaps)
            latest = std::max(latest, e.end);
        }
        return latest;
      };
      std::vector<int64_t> candidates{0};
      for (size_t j = 0; j < i; ++j)
        candidates.push_back(up(intervals[j].offset + intervals[j].size));
      std::sort(candidates.begin(), candidates.end());
      int64_t best = diedAt(offset);
      for (int64_t at : candidates) {
        if (at + cur.size > spreadLimit)
          break;
        int64_t died = diedAt(at);
        if (died < best) {
          best = died;
          offset = at;
        }
      }
    }
    cur.offset = offset;
    cur.alloc->setAttr("offset", Attribute::integer(offset));
    total = std::max(total, offset + cur.size);
  }
  total = (total + kAlignment - 1) / kAlignment * kAlignment;
  // Spreading the early ones can leave no room for a later one: then the lowest offsets.
  return spreadLimit > 0 && total > spreadLimit ? allocateSharedMemory(func, 0) : total;
}

} // namespace trident::simt
