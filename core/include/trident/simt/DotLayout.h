#pragma once
// Layouts of dots on matrix units (docs/simt.md, "Dots on matrix units").
//
// A dot D[M x N] = A[M x K] * B[K x N] + C runs as a grid of the target's atoms
// (MatrixAtom: one warp computes m x n x k): the warps tile M and N (warpsM x warpsN),
// each warp repeats the atom over its part of M and N and over all of K. The
// layouts below are that tiling written as linear layouts, so the accumulator, the
// operands and everything computed from them convert, vectorize and shuffle through
// the same algebra as any other layout:
//
//   accumulator (M x N): reg  = the atom's C registers, then N repeats, then M repeats
//                        lane = the atom's C lanes;  warp = M tiles, then N tiles
//   A (M x K):           reg  = the atom's A registers, then K steps, then M repeats
//                        lane = the atom's A lanes;  warp = M tiles, N tiles replicate
//   B (K x N):           reg  = the atom's B registers, then K steps, then N repeats
//                        lane = the atom's B lanes;  warp = M tiles replicate, N tiles
//
// An atom of a warpgroup (sm_90's wgmma, m64 x n x k16) places its 4 warps on M inside
// the atom (its maps' warp bits: rows 16 and 32); warpgroups then tile M and N as warps
// do, M first. Its B is read from shared memory, so only A and C have register layouts.
//
// m16n8k16 f16 on 4 warps, a 64x64 accumulator (warps 4 x 1): each warp owns 16 rows,
//   reg [1, 512, 8, 16, 32] lane [2, 4, 64, 128, 256] warp [1024, 2048]
// and the C registers of one atom are the first two bits. With the register order
// above, the accumulator of one dot is register for register the A operand of the
// next (attention's P = softmax(Q K^T) feeding P V): no conversion at all.

#include "trident/ir/IR.h"
#include "trident/simt/Layout.h"
#include "trident/simt/TargetDesc.h"

#include <array>
#include <optional>
#include <span>

namespace trident::simt {

struct MmaPlan {
  const MatrixAtom *atom = nullptr;
  int64_t warpsM = 1, warpsN = 1; // issuers (warps, or warpgroups) tiling M and N; any others replicate
};

// The atom and warp tiling for `dot` (a rank-2 tt.dot) on `target`; nothing when no
// atom takes its element types and precision or its shape is not a multiple of one.
// `warpsAlongM` puts every warp on M where M allows (dots chained through their
// accumulators must agree on the tiling of M). `kContiguous[i]`: operand i (A, B) is
// written to shared memory contiguous along K, as atoms that read only K-major tiles
// (MatrixAtom::kMajorOnly) need.
std::optional<MmaPlan> planMma(const Op *dot, const TargetDesc &target, unsigned numWarps, bool warpsAlongM,
                               std::array<bool, 2> kContiguous = {false, false});

// The accumulator layout of an M x N dot result.
LinearLayout mmaAccumulatorLayout(std::span<const int64_t> shape, const MmaPlan &plan, unsigned numWarps);
// The layout operand 0 (A, M x K) or 1 (B, K x N) of such a dot is read in.
LinearLayout mmaOperandLayout(std::span<const int64_t> shape, const MmaPlan &plan, unsigned operand,
                              unsigned numWarps);

// Dots on cooperative matrices (TargetDesc::coopMatrices: Vulkan): the device's shape
// and the subgroups tiling M and N (Triton's split, in tiles), for a rank-2 dot whose
// element types the device multiplies and whose shape is a multiple of it; nothing else.
struct CoopPlan {
  const CoopMatrixShape *shape = nullptr;
  int64_t warpsM = 1, warpsN = 1;
};
// Where the shape has known layouts (CoopMatrixShape::layouts) and the dot is chained to
// another through its A operand (attention's P = softmax(Q K^T) into P V; elementwise ops
// between), every subgroup goes along M first, as planMma's warpsAlongM: the first dot's
// result is then the second's A in registers, component for component.
std::optional<CoopPlan> planCoop(const Op *dot, const TargetDesc &target, unsigned numWarps);
// With known layouts: the block layout of a dot's accumulator (use 2, M x N), A (0, M x K)
// or B (1, K x N) as the subgroups' components hold it: a tile's component bits, then the
// tiles (the accumulator's along N, then M; an operand's K steps, then its M or N
// repeats), the lanes of a tile, warps tiling M then N (an operand's other dimension
// replicates). Component i of tile t (coopLayout's order, LowerCoopMatrix.cpp) is
// register t * components + i.
LinearLayout coopComponentLayout(std::span<const int64_t> shape, const CoopPlan &plan, unsigned use);
// The ordinary layout of an M x N cooperative-matrix result, for what reads it as a
// block (epilogues, reductions, stores): each subgroup holds its own part, its lanes
// within one row of tiles (8 contiguous columns per register run, then columns, then
// rows), so the tiles reach it through shared memory one row of tiles at a time.
LinearLayout coopResultLayout(std::span<const int64_t> shape, const CoopPlan &plan, unsigned warpSize);
// The flat index (in a block of `shape`) of the element at (row, col) of an atom operand
// register or lane bit list: the XOR of the (row, col) pairs of the set bits of `bits`.
int64_t atomElement(const std::vector<std::pair<int64_t, int64_t>> &bases, int64_t bits,
                    std::span<const int64_t> shape);

} // namespace trident::simt
