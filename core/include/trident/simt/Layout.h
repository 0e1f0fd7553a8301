#pragma once
// Linear layouts: how the elements of a block spread over the registers of a
// thread, the lanes of a warp and the warps of a program.
//
// A block of power-of-two shape has a row-major flat index of B bits. A layout
// is a linear map over GF(2) from the bits of (register, lane, warp) to those B
// bits, given by one basis per input bit: the element held in register r of lane
// l of warp w has flat index
//     XOR of reg[i] for the set bits i of r, lane[j] for those of l, warp[k] of w.
// A zero basis means replication (the lanes or warps differing in that bit hold
// the same elements). Blocked layouts, their slices (reduction results), and
// matrix-atom layouts are all of this form; conversions, vector widths and
// shuffles then follow from the bases alone.
//
//   block<8x64xf32>, 4 warps of 32 lanes, 4 contiguous f32 per thread:
//     reg  = [1, 2]             (column bits 0-1)
//     lane = [4, 8, 16, 32, 64] (column bits 2-5, then row bit 0)
//     warp = [128, 256]         (row bits 1-2)
//   printed "layout<8x64: reg [1, 2] lane [4, 8, 16, 32, 64] warp [128, 256]>"
//   block<4x8xf32> on the same threads: "layout<4x8: reg [] lane [1, 2, 4, 8, 16] warp [0, 0]>"
//   (32 elements, one per lane; the four warps hold copies)

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace trident::simt {

class LinearLayout {
public:
  LinearLayout() = default;
  LinearLayout(std::vector<int64_t> shape, std::vector<int64_t> reg, std::vector<int64_t> lane,
               std::vector<int64_t> warp);

  // Triton's blocked layout: sizePerThread contiguous elements per thread, lanes and
  // warps tiling the block along `order` (fastest dimension first); the tile repeats
  // over larger blocks (more registers) and smaller blocks replicate it.
  static LinearLayout blocked(std::span<const int64_t> shape, std::span<const int64_t> sizePerThread,
                              std::span<const int64_t> threadsPerWarp,
                              std::span<const int64_t> warpsPerProgram, std::span<const int64_t> order);
  // A blocked layout for `shape` with `vectorElems` contiguous elements per thread
  // along order[0], lanes then warps spread along `order` as Triton's default does.
  // Empty `order` means row-major (last dimension fastest).
  static LinearLayout defaultBlocked(std::span<const int64_t> shape, unsigned warpSize, unsigned numWarps,
                                     int64_t vectorElems = 1, std::span<const int64_t> order = {});
  // The layout of a value every thread holds whole (scalars, or replicated blocks).
  static LinearLayout replicated(std::span<const int64_t> shape, unsigned warpSize, unsigned numWarps);

  const std::vector<int64_t> &shape() const { return shape_; }
  unsigned rank() const { return static_cast<unsigned>(shape_.size()); }
  const std::vector<int64_t> &regBases() const { return reg_; }
  const std::vector<int64_t> &laneBases() const { return lane_; }
  const std::vector<int64_t> &warpBases() const { return warp_; }
  int64_t numRegisters() const { return int64_t(1) << reg_.size(); }
  int64_t numElements() const;
  unsigned warpSize() const { return 1u << lane_.size(); }
  unsigned numWarps() const { return 1u << warp_.size(); }

  // The flat index held in register r of lane l of warp w.
  int64_t apply(int64_t reg, int64_t lane, int64_t warp) const;
  // The flat index that register r contributes (lane 0, warp 0).
  int64_t registerOffset(int64_t reg) const { return apply(reg, 0, 0); }

  // Bit position and width of dimension d inside the flat index.
  unsigned dimOffset(unsigned d) const;
  unsigned dimBits(unsigned d) const;
  // The per-dimension index of a flat index, and back.
  std::vector<int64_t> unflatten(int64_t flat) const;
  int64_t flatten(std::span<const int64_t> index) const;

  // True when every nonzero basis is a single bit and no two are equal, so XOR-ing
  // bases is the same as adding them (blocked layouts are disjoint).
  bool isDisjoint() const;
  // True when every element of the block is held somewhere (the map is onto).
  bool isSurjective() const;
  // Lanes (warps) differing only in these bits hold the same elements.
  int64_t laneReplicationMask() const;
  int64_t warpReplicationMask() const;
  // Registers whose index has a bit of this mask set duplicate a lower register.
  int64_t registerReplicationMask() const;

  // How many registers from r = 0 hold consecutive elements along dimension d
  // (1, 2, 4, ...): the width of a vector access at register multiples of it.
  int64_t contiguousRegisters(unsigned d) const;
  // How many registers from r = 0 hold consecutive flat indices.
  int64_t contiguousFlatRegisters() const;

  // ---- layouts of derived blocks (same registers, lanes and warps) ----
  // The block without dimension `axis` (a reduction's result): each basis loses
  // that dimension's bits; bases entirely in it become zero.
  LinearLayout sliceOut(unsigned axis) const;
  // The block with a new dimension of size 1 at `axis`.
  LinearLayout expandDims(unsigned axis) const;
  // The same flat order viewed with another shape of equal size.
  LinearLayout reshape(std::span<const int64_t> shape) const;
  // Dimension i of the result is dimension order[i] of this block.
  LinearLayout transpose(std::span<const int64_t> order) const;
  // Keeps only the dimensions in `keep` (in their order): the layout of a slice
  // along the others. Bases lose the bits of the dropped dimensions.
  LinearLayout project(std::span<const int64_t> keep) const;
  // The inverse of broadcasting a block whose dimensions of size 1 in `from` grew
  // to this shape: the layout the smaller block must have so that register r of
  // each thread holds the element register r of the result repeats.
  LinearLayout broadcastSource(std::span<const int64_t> fromShape) const;
  // Drops register bases that are zero (duplicates); `kept` receives, per remaining
  // register, the register of this layout it came from.
  LinearLayout withoutDuplicateRegisters(std::vector<int64_t> *kept = nullptr) const;

  // "layout<8x64: reg [1, 2] lane [...] warp [...]>"
  std::string str() const;
  bool operator==(const LinearLayout &) const = default;

private:
  std::vector<int64_t> shape_;
  std::vector<int64_t> reg_, lane_, warp_;
};

// log2 of a power of two.
unsigned log2Exact(int64_t v);
bool isPowerOfTwo(int64_t v);

} // namespace trident::simt
