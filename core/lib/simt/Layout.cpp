#include "trident/simt/Layout.h"

#include <algorithm>
#include <cassert>
#include <numeric>
#include <set>
#include <sstream>

namespace trident::simt {

bool isPowerOfTwo(int64_t v) { return v > 0 && (v & (v - 1)) == 0; }

unsigned log2Exact(int64_t v) {
  assert(isPowerOfTwo(v));
  unsigned n = 0;
  while ((int64_t(1) << n) < v)
    ++n;
  return n;
}

namespace {

std::vector<int64_t> rowMajorOrder(size_t rank) {
  std::vector<int64_t> order(rank);
  for (size_t i = 0; i < rank; ++i)
    order[i] = static_cast<int64_t>(rank - 1 - i);
  return order;
}

// Maps every basis of `l` through `f` (old flat index -> new flat index).
template <class F> LinearLayout mapBases(const LinearLayout &l, std::vector<int64_t> newShape, F f) {
  auto map = [&](const std::vector<int64_t> &bases) {
    std::vector<int64_t> out;
    out.reserve(bases.size());
    for (int64_t b : bases)
      out.push_back(f(b));
    return out;
  };
  return LinearLayout(std::move(newShape), map(l.regBases()), map(l.laneBases()), map(l.warpBases()));
}

} // namespace

LinearLayout::LinearLayout(std::vector<int64_t> shape, std::vector<int64_t> reg, std::vector<int64_t> lane,
                           std::vector<int64_t> warp)
    : shape_(std::move(shape)), reg_(std::move(reg)), lane_(std::move(lane)), warp_(std::move(warp)) {
  for ([[maybe_unused]] int64_t s : shape_)
    assert(isPowerOfTwo(s) && "layouts need power-of-two shapes");
}

int64_t LinearLayout::numElements() const {
  int64_t n = 1;
  for (int64_t s : shape_)
    n *= s;
  return n;
}

LinearLayout LinearLayout::blocked(std::span<const int64_t> shape, std::span<const int64_t> sizePerThread,
                                   std::span<const int64_t> threadsPerWarp,
                                   std::span<const int64_t> warpsPerProgram, std::span<const int64_t> order) {
  size_t rank = shape.size();
  assert(sizePerThread.size() == rank && threadsPerWarp.size() == rank && warpsPerProgram.size() == rank &&
         order.size() == rank);
  LinearLayout l(std::vector<int64_t>(shape.begin(), shape.end()), {}, {}, {});
  // Next unassigned bit of each dimension; bits past the dimension's size replicate.
  std::vector<unsigned> next(rank, 0);
  auto take = [&](int64_t d) -> int64_t {
    if (next[d] >= l.dimBits(static_cast<unsigned>(d)))
      return 0;
    return int64_t(1) << (l.dimOffset(static_cast<unsigned>(d)) + next[d]++);
  };
  for (int64_t d : order)
    for (unsigned i = 0; i < log2Exact(sizePerThread[d]); ++i)
      if (int64_t b = take(d))
        l.reg_.push_back(b); // registers never replicate: a zero basis is dropped
  for (int64_t d : order)
    for (unsigned i = 0; i < log2Exact(threadsPerWarp[d]); ++i)
      l.lane_.push_back(take(d));
  for (int64_t d : order)
    for (unsigned i = 0; i < log2Exact(warpsPerProgram[d]); ++i)
      l.warp_.push_back(take(d));
  // The tile repeats over what is left, in registers.
  for (int64_t d : order)
    while (int64_t b = take(d))
      l.reg_.push_back(b);
  return l;
}

LinearLayout LinearLayout::defaultBlocked(std::span<const int64_t> shape, unsigned warpSize,
                                          unsigned numWarps, int64_t vectorElems,
                                          std::span<const int64_t> orderIn) {
  size_t rank = shape.size();
  std::vector<int64_t> order =
      orderIn.empty() ? rowMajorOrder(rank) : std::vector<int64_t>(orderIn.begin(), orderIn.end());
  std::vector<int64_t> spt(rank, 1), tpw(rank, 1), wpp(rank, 1);
  if (rank == 0)
    return replicated(shape, warpSize, numWarps);
  spt[order[0]] = std::min<int64_t>(vectorElems, shape[order[0]]);
  // Lanes go along the fastest dimensions first, as far as the block extends; what
  // is left replicates along the slowest one.
  int64_t lanesLeft = warpSize;
  for (int64_t d : order) {
    int64_t room = std::max<int64_t>(1, shape[d] / spt[d]);
    tpw[d] = std::clamp<int64_t>(room, 1, lanesLeft);
    lanesLeft /= tpw[d];
  }
  tpw[order[rank - 1]] *= lanesLeft;
  int64_t warpsLeft = numWarps;
  for (int64_t d : order) {
    int64_t room = std::max<int64_t>(1, shape[d] / (spt[d] * tpw[d]));
    wpp[d] = std::clamp<int64_t>(room, 1, warpsLeft);
    warpsLeft /= wpp[d];
  }
  wpp[order[rank - 1]] *= warpsLeft;
  return blocked(shape, spt, tpw, wpp, order);
}

LinearLayout LinearLayout::replicated(std::span<const int64_t> shape, unsigned warpSize, unsigned numWarps) {
  LinearLayout l(std::vector<int64_t>(shape.begin(), shape.end()), {}, {}, {});
  for (unsigned i = 0; i < log2Exact(l.numElements()); ++i)
    l.reg_.push_back(int64_t(1) << i);
  l.lane_.assign(log2Exact(warpSize), 0);
  l.warp_.assign(log2Exact(numWarps), 0);
  return l;
}

int64_t LinearLayout::apply(int64_t reg, int64_t lane, int64_t warp) const {
  int64_t out = 0;
  for (size_t i = 0; i < reg_.size(); ++i)
    if ((reg >> i) & 1)
      out ^= reg_[i];
  for (size_t i = 0; i < lane_.size(); ++i)
    if ((lane >> i) & 1)
      out ^= lane_[i];
  for (size_t i = 0; i < warp_.size(); ++i)
    if ((warp >> i) & 1)
      out ^= warp_[i];
  return out;
}

unsigned LinearLayout::dimBits(unsigned d) const { return log2Exact(shape_[d]); }

unsigned LinearLayout::dimOffset(unsigned d) const {
  unsigned off = 0;
  for (unsigned i = d + 1; i < rank(); ++i)
    off += dimBits(i);
  return off;
}

std::vector<int64_t> LinearLayout::unflatten(int64_t flat) const {
  std::vector<int64_t> idx(rank());
  for (unsigned d = 0; d < rank(); ++d)
    idx[d] = (flat >> dimOffset(d)) & (shape_[d] - 1);
  return idx;
}

int64_t LinearLayout::flatten(std::span<const int64_t> index) const {
  int64_t flat = 0;
  for (unsigned d = 0; d < rank(); ++d)
    flat |= index[d] << dimOffset(d);
  return flat;
}

bool LinearLayout::isDisjoint() const {
  int64_t seen = 0;
  for (const auto *bases : {&reg_, &lane_, &warp_})
    for (int64_t b : *bases) {
      if (b == 0)
        continue;
      if (!isPowerOfTwo(b) || (seen & b))
        return false;
      seen |= b;
    }
  return true;
}

bool LinearLayout::isSurjective() const {
  // Gaussian elimination over GF(2): the bases must span every flat bit.
  std::vector<int64_t> rows;
  for (const auto *bases : {&reg_, &lane_, &warp_})
    rows.insert(rows.end(), bases->begin(), bases->end());
  unsigned bits = 0;
  for (int64_t s : shape_)
    bits += log2Exact(s);
  unsigned rankFound = 0;
  for (int bit = static_cast<int>(bits) - 1; bit >= 0; --bit) {
    auto pivot =
        std::find_if(rows.begin() + rankFound, rows.end(), [&](int64_t r) { return (r >> bit) & 1; });
    if (pivot == rows.end())
      continue;
    std::iter_swap(rows.begin() + rankFound, pivot);
    for (size_t i = 0; i < rows.size(); ++i)
      if (i != rankFound && ((rows[i] >> bit) & 1))
        rows[i] ^= rows[rankFound];
    ++rankFound;
  }
  return rankFound == bits;
}

namespace {
int64_t zeroMask(const std::vector<int64_t> &bases) {
  int64_t m = 0;
  for (size_t i = 0; i < bases.size(); ++i)
    if (bases[i] == 0)
      m |= int64_t(1) << i;
  return m;
}
} // namespace

int64_t LinearLayout::laneReplicationMask() const { return zeroMask(lane_); }
int64_t LinearLayout::warpReplicationMask() const { return zeroMask(warp_); }
int64_t LinearLayout::registerReplicationMask() const { return zeroMask(reg_); }

int64_t LinearLayout::contiguousRegisters(unsigned d) const {
  unsigned off = dimOffset(d), n = 0;
  while (n < reg_.size() && n < dimBits(d) && reg_[n] == (int64_t(1) << (off + n)))
    ++n;
  return int64_t(1) << n;
}

int64_t LinearLayout::contiguousFlatRegisters() const {
  unsigned n = 0;
  while (n < reg_.size() && reg_[n] == (int64_t(1) << n))
    ++n;
  return int64_t(1) << n;
}

LinearLayout LinearLayout::sliceOut(unsigned axis) const {
  std::vector<int64_t> keep;
  for (unsigned d = 0; d < rank(); ++d)
    if (d != axis)
      keep.push_back(d);
  return project(keep);
}

LinearLayout LinearLayout::project(std::span<const int64_t> keep) const {
  std::vector<int64_t> newShape;
  for (int64_t d : keep)
    newShape.push_back(shape_[d]);
  LinearLayout target(newShape, {}, {}, {});
  return mapBases(*this, newShape, [&](int64_t b) {
    std::vector<int64_t> idx = unflatten(b), out;
    for (int64_t d : keep)
      out.push_back(idx[d]);
    return target.flatten(out);
  });
}

LinearLayout LinearLayout::expandDims(unsigned axis) const {
  std::vector<int64_t> s = shape_;
  s.insert(s.begin() + axis, 1);
  return reshape(s);
}

LinearLayout LinearLayout::reshape(std::span<const int64_t> shape) const {
  // Row-major flat indices do not change under a reshape.
  return mapBases(*this, std::vector<int64_t>(shape.begin(), shape.end()), [](int64_t b) { return b; });
}

LinearLayout LinearLayout::transpose(std::span<const int64_t> order) const {
  std::vector<int64_t> newShape;
  for (int64_t d : order)
    newShape.push_back(shape_[d]);
  LinearLayout target(newShape, {}, {}, {});
  return mapBases(*this, newShape, [&](int64_t b) {
    std::vector<int64_t> idx = unflatten(b), out;
    for (int64_t d : order)
      out.push_back(idx[d]);
    return target.flatten(out);
  });
}

LinearLayout LinearLayout::broadcastSource(std::span<const int64_t> fromShape) const {
  assert(fromShape.size() == rank());
  LinearLayout target(std::vector<int64_t>(fromShape.begin(), fromShape.end()), {}, {}, {});
  return mapBases(*this, target.shape(), [&](int64_t b) {
    std::vector<int64_t> idx = unflatten(b);
    for (unsigned d = 0; d < rank(); ++d)
      if (fromShape[d] == 1)
        idx[d] = 0;
    return target.flatten(idx);
  });
}

LinearLayout LinearLayout::withoutDuplicateRegisters(std::vector<int64_t> *kept) const {
  std::vector<int64_t> reg;
  std::vector<unsigned> bitsKept;
  for (size_t i = 0; i < reg_.size(); ++i)
    if (reg_[i] != 0) {
      reg.push_back(reg_[i]);
      bitsKept.push_back(static_cast<unsigned>(i));
    }
  if (kept) {
    kept->clear();
    for (int64_t r = 0; r < (int64_t(1) << reg.size()); ++r) {
      int64_t old = 0;
      for (size_t i = 0; i < bitsKept.size(); ++i)
        if ((r >> i) & 1)
          old |= int64_t(1) << bitsKept[i];
      kept->push_back(old);
    }
  }
  return LinearLayout(shape_, std::move(reg), lane_, warp_);
}

std::string LinearLayout::str() const {
  std::ostringstream os;
  os << "layout<";
  for (size_t i = 0; i < shape_.size(); ++i)
    os << (i ? "x" : "") << shape_[i];
  auto list = [&](const char *name, const std::vector<int64_t> &v) {
    os << " " << name << " [";
    for (size_t i = 0; i < v.size(); ++i)
      os << (i ? ", " : "") << v[i];
    os << "]";
  };
  os << ":";
  list("reg", reg_);
  list("lane", lane_);
  list("warp", warp_);
  os << ">";
  return os.str();
}

} // namespace trident::simt
