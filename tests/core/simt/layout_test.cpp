// The linear-layout algebra: blocked layouts, slices, reshapes, transposes,
// broadcasts, reductions, join/split/cat, and their invariants on many shapes.
#include "trident/simt/Layout.h"
#include "trident/simt/LayoutAssignment.h"

#include <doctest/doctest.h>

#include <map>
#include <set>

using namespace trident::simt;

namespace {

using V = std::vector<int64_t>;

// Every (register, lane, warp) -> flat index, as a multiset of elements held.
std::map<int64_t, int> coverage(const LinearLayout &l) {
  std::map<int64_t, int> seen;
  for (int64_t w = 0; w < l.numWarps(); ++w)
    for (int64_t ln = 0; ln < l.warpSize(); ++ln)
      for (int64_t r = 0; r < l.numRegisters(); ++r)
        ++seen[l.apply(r, ln, w)];
  return seen;
}

} // namespace

TEST_CASE("a blocked layout tiles registers, then lanes, then warps along the order") {
  // 8x64 f32, 4 contiguous per thread, row-major, 32 lanes, 4 warps.
  LinearLayout l = LinearLayout::defaultBlocked(V{8, 64}, 32, 4, 4);
  CHECK(l.str() == "layout<8x64: reg [1, 2] lane [4, 8, 16, 32, 64] warp [128, 256]>");
  CHECK(l.isDisjoint());
  CHECK(l.isSurjective());
  CHECK(l.contiguousRegisters(1) == 4);
  CHECK(l.contiguousRegisters(0) == 1);
  CHECK(l.warpReplicationMask() == 0);
  CHECK(l.laneReplicationMask() == 0);
  // Register 2 of lane 3 of warp 1: column 2 + 3 * 4, row 2 (warp bit 0 is row bit 1).
  CHECK(l.apply(2, 3, 1) == (2 | 12 | 128));
  CHECK(l.unflatten(l.apply(2, 3, 1)) == V{2, 14});
  // 16x8 over 4 warps of 32 lanes: 128 elements, one per thread, rows over warps.
  LinearLayout small = LinearLayout::defaultBlocked(V{4, 8}, 32, 4);
  CHECK(small.str() == "layout<4x8: reg [] lane [1, 2, 4, 8, 16] warp [0, 0]>");
  CHECK(small.warpReplicationMask() == 3);
}

TEST_CASE("default blocked layouts cover every element, each the same number of times") {
  for (V shape : {V{1}, V{16}, V{1024}, V{4, 8}, V{128, 2}, V{2, 512}, V{64, 64}, V{2, 4, 8}, V{1, 1, 256}})
    for (unsigned warps : {1u, 2u, 4u, 8u})
      for (int64_t vec : {1, 2, 4, 8}) {
        INFO(shape.size() << "-d, " << warps << " warps, vec " << vec);
        LinearLayout l = LinearLayout::defaultBlocked(shape, 32, warps, vec);
        CHECK(l.isSurjective());
        CHECK(l.isDisjoint());
        std::map<int64_t, int> seen = coverage(l);
        CHECK(int64_t(seen.size()) == l.numElements());
        std::set<int> counts;
        for (auto [e, c] : seen)
          counts.insert(c);
        CHECK(counts.size() == 1); // uniform replication
        CHECK(l.registerReplicationMask() == 0);
      }
}

TEST_CASE("flat indices round-trip through per-dimension indices") {
  LinearLayout l(V{4, 8, 2}, {}, {}, {});
  for (int64_t f = 0; f < 64; ++f)
    CHECK(l.flatten(l.unflatten(f)) == f);
  CHECK(l.unflatten(0b10'011'1) == V{2, 3, 1});
  CHECK(l.dimOffset(0) == 4);
  CHECK(l.dimBits(1) == 3);
}

TEST_CASE("reshape, expand_dims and transpose move bases, not data") {
  LinearLayout l = LinearLayout::defaultBlocked(V{16, 32}, 32, 4, 4);
  LinearLayout r = l.reshape(V{512});
  CHECK(r.regBases() == l.regBases());
  CHECK(r.shape() == V{512});
  LinearLayout e = l.expandDims(1);
  CHECK(e.shape() == V{16, 1, 32});
  CHECK(e.laneBases() == l.laneBases());
  LinearLayout t = l.transpose(V{1, 0});
  CHECK(t.shape() == V{32, 16});
  // Element (i, j) of l is element (j, i) of t, held by the same register of the same thread.
  for (int64_t w = 0; w < 4; ++w)
    for (int64_t ln = 0; ln < 32; ++ln)
      for (int64_t reg = 0; reg < l.numRegisters(); ++reg) {
        V a = l.unflatten(l.apply(reg, ln, w)), b = t.unflatten(t.apply(reg, ln, w));
        CHECK(a[0] == b[1]);
        CHECK(a[1] == b[0]);
      }
  CHECK(t.transpose(V{1, 0}) == l);
}

TEST_CASE("slices and broadcast sources drop the bits of their dimensions") {
  LinearLayout l = LinearLayout::defaultBlocked(V{32, 64}, 32, 4, 4);
  LinearLayout s = l.sliceOut(1);
  CHECK(s.shape() == V{32});
  // Each thread's rows in s are the rows it holds in l.
  for (int64_t w = 0; w < 4; ++w)
    for (int64_t ln = 0; ln < 32; ++ln)
      for (int64_t reg = 0; reg < l.numRegisters(); ++reg)
        CHECK(s.apply(reg, ln, w) == l.unflatten(l.apply(reg, ln, w))[0]);
  LinearLayout src = l.broadcastSource(V{32, 1});
  CHECK(src.shape() == V{32, 1});
  CHECK(src.numRegisters() == l.numRegisters());
  CHECK(src.registerReplicationMask() != 0); // columns collapse: registers repeat
  LinearLayout unique = src.withoutDuplicateRegisters();
  CHECK(unique.registerReplicationMask() == 0);
}

TEST_CASE("a reduced layout keeps registers off the axis and replicates lanes and warps along it") {
  LinearLayout l = LinearLayout::defaultBlocked(V{32, 64}, 32, 4, 4);
  LinearLayout r1 = reducedLayout(l, 1);
  CHECK(r1.shape() == V{32});
  CHECK(r1.isSurjective());
  for (int64_t b : r1.regBases())
    CHECK(b != 0);
  LinearLayout r0 = reducedLayout(l, 0);
  CHECK(r0.shape() == V{64});
  CHECK(r0.isSurjective());
  LinearLayout scalar = reducedLayout(LinearLayout::defaultBlocked(V{1024}, 32, 4, 4), 0);
  CHECK(scalar.rank() == 0);
  CHECK(scalar.numRegisters() == 1);
  CHECK(scalar.laneReplicationMask() == 31);
  CHECK(scalar.warpReplicationMask() == 3);
}

TEST_CASE("join, split and cat add or remove one register bit") {
  LinearLayout l = LinearLayout::defaultBlocked(V{128}, 32, 4);
  LinearLayout j = joinedLayout(l);
  CHECK(j.shape() == V{128, 2});
  CHECK(j.numRegisters() == 2 * l.numRegisters());
  CHECK(j.isSurjective());
  CHECK(splittableLayout(j) == j);
  CHECK(splitLayout(j) == l);
  LinearLayout c = concatenatedLayout(l);
  CHECK(c.shape() == V{256});
  CHECK(c.isSurjective());
  // A layout with the last dimension spread over lanes is not splittable as is.
  LinearLayout lanes = LinearLayout::defaultBlocked(V{64, 2}, 32, 4);
  CHECK(!(splittableLayout(lanes) == lanes));
  CHECK(splitLayout(splittableLayout(lanes)).isSurjective());
}

TEST_CASE("scan layouts keep the axis fastest: registers, then lanes, then warps") {
  LinearLayout s = scanLayout(V{1024}, 0, 32, 4);
  CHECK(s.regBases() == V{1, 2, 4});
  CHECK(s.contiguousRegisters(0) == 8);
  CHECK(s.laneBases() == V{8, 16, 32, 64, 128});
  CHECK(s.warpBases() == V{256, 512});
  LinearLayout s2 = scanLayout(V{64, 32}, 1, 32, 4);
  CHECK(s2.isSurjective());
  CHECK(s2.contiguousRegisters(1) == 16);
}
