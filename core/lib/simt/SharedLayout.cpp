#include "SharedLayout.h"

#include <algorithm>

namespace trident::simt {

SharedLayout SharedLayout::rowMajor(int64_t numElements) {
  SharedLayout s;
  for (unsigned i = 0; i < log2Exact(numElements); ++i)
    s.bases.push_back(int64_t(1) << i);
  return s;
}

SharedLayout SharedLayout::swizzled(std::span<const int64_t> shape, unsigned contiguousDim,
                                    unsigned elementBytes, unsigned chunkBytes) {
  int64_t total = 1;
  for (int64_t d : shape)
    total *= d;
  SharedLayout s = rowMajor(total);
  size_t rank = shape.size();
  if (rank < 2 || contiguousDim + 2 < rank)
    return s;
  unsigned rowDim = contiguousDim == rank - 1 ? unsigned(rank - 2) : unsigned(rank - 1);
  int64_t inner = shape[contiguousDim], outer = shape[rowDim];
  int64_t chunk = std::max<int64_t>(chunkBytes, elementBytes);
  int64_t rowBytes = inner * elementBytes, vec = chunk / elementBytes;
  if (rowBytes < 2 * chunk || vec < 1)
    return s; // one chunk per row: 128 / chunk rows are 128 consecutive bytes already
  unsigned innerBits = log2Exact(inner), outerBits = log2Exact(outer);
  unsigned perPhaseBits = log2Exact(std::max<int64_t>(1, 128 / rowBytes));
  unsigned maxPhaseBits = log2Exact(std::min<int64_t>(128 / chunk, rowBytes / chunk));
  unsigned vecBits = log2Exact(vec);
  // Flat-index bit positions of the two tile dimensions (row-major over `shape`).
  auto dimOffset = [&](unsigned d) {
    unsigned off = 0;
    for (size_t i = d + 1; i < rank; ++i)
      off += log2Exact(shape[i]);
    return off;
  };
  unsigned innerAt = dimOffset(contiguousDim), outerAt = dimOffset(rowDim);
  // Offsets: the inner index within a 128-byte row in bits [0, rowBits), the row index
  // above it, the inner index's 128-byte blocks above that, stacked tiles above all.
  unsigned rowBits = std::min(innerBits, log2Exact(128 / elementBytes));
  for (unsigned i = 0; i < innerBits; ++i)
    s.bases[innerAt + i] = int64_t(1) << (i < rowBits ? i : i + outerBits);
  for (unsigned i = 0; i < outerBits; ++i) {
    int64_t b = int64_t(1) << (rowBits + i);
    if (i >= perPhaseBits && i < perPhaseBits + maxPhaseBits)
      b ^= int64_t(1) << (vecBits + (i - perPhaseBits));
    s.bases[outerAt + i] = b;
  }
  // Leading dimensions keep their row-major positions (above both tile dimensions).
  return s;
}

SharedLayout SharedLayout::transposed(std::span<const int64_t> shape) const {
  unsigned colBits = log2Exact(shape[1]);
  SharedLayout t;
  t.bases.assign(bases.begin() + colBits, bases.end()); // the rows' bits become the low ones
  t.bases.insert(t.bases.end(), bases.begin(), bases.begin() + colBits);
  return t;
}

int64_t SharedLayout::offset(int64_t flat) const {
  int64_t o = 0;
  for (size_t i = 0; i < bases.size(); ++i)
    if (flat >> i & 1)
      o ^= bases[i];
  return o;
}

LinearLayout SharedLayout::offsets(const LinearLayout &layout) const {
  auto map = [&](const std::vector<int64_t> &from) {
    std::vector<int64_t> out;
    for (int64_t b : from)
      out.push_back(offset(b));
    return out;
  };
  return LinearLayout({layout.numElements()}, map(layout.regBases()), map(layout.laneBases()),
                      map(layout.warpBases()));
}

bool SharedLayout::isRowMajor() const {
  for (size_t i = 0; i < bases.size(); ++i)
    if (bases[i] != int64_t(1) << i)
      return false;
  return true;
}

int64_t contiguousSharedRegisters(const LinearLayout &offsets) {
  unsigned n = 0;
  const std::vector<int64_t> &reg = offsets.regBases();
  while (n < reg.size() && reg[n] == (int64_t(1) << n))
    ++n;
  // Every other basis must leave the low n bits alone, or a vector would straddle.
  int64_t low = (int64_t(1) << n) - 1;
  auto clean = [&](const std::vector<int64_t> &bases, size_t from) {
    for (size_t i = from; i < bases.size(); ++i)
      if (bases[i] & low)
        return false;
    return true;
  };
  while (n > 0 && !(clean(reg, n) && clean(offsets.laneBases(), 0) && clean(offsets.warpBases(), 0))) {
    --n;
    low >>= 1;
  }
  return int64_t(1) << n;
}

} // namespace trident::simt

namespace trident::simt {

std::optional<MatrixDescriptor> matrixDescriptor(const SharedLayout &shared, std::span<const int64_t> shape,
                                                 unsigned kDim, unsigned elementBytes) {
  if (shape.size() != 2 || shared.bases.empty() || kDim > 1)
    return std::nullopt;
  // The contiguous dimension is the one whose lowest index bit is offset bit 0.
  unsigned colBits = log2Exact(shape[1]);
  unsigned contiguous = shared.bases[0] == 1 ? 1 : 0;
  if (contiguous == 0 && (colBits >= shared.bases.size() || shared.bases[colBits] != 1))
    return std::nullopt;
  if (shared.bases != SharedLayout::swizzled(shape, contiguous, elementBytes).bases)
    return std::nullopt;
  int64_t innerBytes = shape[contiguous] * elementBytes, rows = shape[1 - contiguous];
  MatrixDescriptor d;
  d.mnMajor = contiguous == kDim ? false : true;
  d.swizzle = std::min<int64_t>(128, innerBytes);
  if (d.swizzle != 32 && d.swizzle != 64 && d.swizzle != 128)
    return std::nullopt;
  d.sbo = 8 * d.swizzle;
  d.lbo = d.mnMajor ? rows * d.swizzle : 16;
  return d;
}

} // namespace trident::simt
