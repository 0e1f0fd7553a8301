#pragma once
// Where the elements of a block live in a shared-memory array: a linear map over
// GF(2) from the bits of an element's row-major flat index to the bits of its offset
// (in elements). Composed with a register layout (`offsets`), it gives the offset of
// every register of every thread as a per-thread base XOR a constant, so stores and
// loads keep the same index arithmetic whatever the arrangement.
//
// Row-major is the identity. Swizzled tiles (Triton's "shared" encoding, as a linear
// map) keep rows along the tile's contiguous dimension and permute the 16-byte chunks
// of each row by XOR with a phase taken from the row index:
//
//   chunk' = chunk ^ ((row / perPhase) % maxPhase),  perPhase = max(1, 128 / rowBytes),
//                                                    maxPhase = min(8, rowBytes / 16)
//
// Rows longer than 128 bytes are cut into 128-byte blocks, each block a tile of its own
// (placed one after another along the row), which keeps every row of a block 128 bytes
// from the next: the canonical layouts sm_90's wgmma reads (matrixDescriptor below) and
// as free of bank conflicts as one long row.
//
// so the eight 16-byte pieces that one column of 8 consecutive rows occupies (what an
// ldmatrix of one 8x8 matrix reads, or what a transposing read touches) fall in eight
// different groups of 4 banks, and 16-byte writes along rows stay conflict-free too.
//   64 x 64 f16 (rows of 128 bytes, 8 chunks): chunk' = chunk ^ (row % 8)
//   bases: col bits 1, 2, 4, 8, 16, 32; row bits 64 ^ 8, 128 ^ 16, 256 ^ 32, 512, ...

#include "trident/simt/Layout.h"

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace trident::simt {

struct SharedLayout {
  std::vector<int64_t> bases; // one per flat-index bit: the offset bits it sets

  static SharedLayout rowMajor(int64_t numElements);
  // A swizzled tile of `shape` (rank >= 2; the last two dimensions are the tile, any
  // leading ones stack tiles) whose rows run along `contiguousDim` (rank-2 or rank-1).
  // Row-major when rows are shorter than 16 bytes. `chunkBytes` (4, 8 or 16) is the unit
  // the swizzle permutes: with C-byte chunks, maxPhase = min(128 / C, rowBytes / C), so
  // 128 / C rows reading the same chunk (a phase of C-byte reads: AMD's ds_read_b64 of
  // MFMA fragments, 16 lanes at 16 rows) fall in distinct banks.
  static SharedLayout swizzled(std::span<const int64_t> shape, unsigned contiguousDim, unsigned elementBytes,
                               unsigned chunkBytes = 16);

  int64_t offset(int64_t flat) const;
  // The same arrangement of a rank-2 block of `shape` seen as its transpose (the block
  // of shape {shape[1], shape[0]} whose element (j, i) is this one's (i, j)).
  SharedLayout transposed(std::span<const int64_t> shape) const;
  // `layout` with every basis replaced by its offset: a rank-1 layout whose "flat
  // index" is the shared-memory offset of each register of each thread.
  LinearLayout offsets(const LinearLayout &layout) const;
  bool isRowMajor() const;
};

// How th.wgmma finds a rank-2 tile stored as `shared` (its x_major, x_swizzle, x_sbo and
// x_lbo attributes, ThreadOps.def): nothing unless `shared` is a swizzled tile as above
// with rows of 32, 64 or 128 bytes (or blocks of 128). `kDim` is the tile's K dimension
// (1 for A, 0 for B).
struct MatrixDescriptor {
  bool mnMajor = false; // rows run along M (or N), not K
  int64_t swizzle = 0;  // bytes per row of the repeating pattern
  int64_t sbo = 0;      // bytes from 8 rows to the next 8
  int64_t lbo = 0;      // bytes from one 128-byte block along the rows to the next (mn-major)
};
std::optional<MatrixDescriptor> matrixDescriptor(const SharedLayout &shared, std::span<const int64_t> shape,
                                                 unsigned kDim, unsigned elementBytes);

// How many registers from r = 0 of `offsets` (from SharedLayout::offsets) are
// consecutive, aligned elements of shared memory: the width of one vector access.
int64_t contiguousSharedRegisters(const LinearLayout &offsets);

} // namespace trident::simt
