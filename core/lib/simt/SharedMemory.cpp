#include "trident/simt/SharedMemory.h"

#include <algorithm>
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

int64_t allocateSharedMemory(Op *func) {
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
    int64_t offset = 0;
    for (auto [lo, hi] : busy) {
      if (offset + cur.size <= lo)
        break;
      offset = std::max(offset, (hi + align - 1) / align * align);
    }
    cur.offset = offset;
    cur.alloc->setAttr("offset", Attribute::integer(offset));
    total = std::max(total, offset + cur.size);
  }
  return (total + kAlignment - 1) / kAlignment * kAlignment;
}

} // namespace trident::simt
