#pragma once
// Tensor maps: what sm_90's tensor-copy engine (TMA) needs to copy boxes of a
// tt.descriptor_load's tensor into shared memory (docs/simt.md, "TMA").
//
// The CUDA plugin builds each map at launch (cuTensorMapEncodeTiled) from the kernel's
// own arguments: a descriptor whose base, sizes and strides are all kernel arguments or
// constants (a tensordesc parameter, or tl.make_tensor_descriptor over parameters) can
// be served, so no map is made inside the kernel. The lowered kernel takes one extra
// parameter per map, after its own, a 128-byte grid constant; the thread-IR function
// lists the maps in its `tensor_maps` attribute, kTensorMapWords integers each:
//
// A block pointer's load may have a base that is a pointer argument plus terms
// coordinate * stride (attention's Q + off_z * stride_qz + off_h * stride_qh): each term
// is one more, outer dimension of the map, of extent kOuterExtent, whose coordinate the
// copies pass (fixed for the loop; out of the tensor, below 0, it would read zeros). Such
// loads promise no alignment, so their map needs the kernel's specialization to prove
// 16-byte alignment of the base and of every stride but the innermost (arg_divisibility).
//
//   [0] rank r            [1] element bytes        [2] swizzle bytes (0, 32, 64, 128)
//   [3] the base pointer's argument index
//   [4 .. 8]   sizes, outermost first      each: an argument index >= 0 (an integer
//   [9 .. 13]  strides in elements                argument), or -1 - a constant
//   [14 .. 18] the box one copy moves, outermost first (innermost: one swizzle row)
//
// Out-of-bounds elements of a box read zero, as tt.descriptor_load's "zero" padding says.

#include "trident/ir/IR.h"
#include "SharedLayout.h"
#include "trident/simt/TargetDesc.h"

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace trident::simt {

constexpr int64_t kTensorMapWords = 19;
constexpr int64_t kOuterExtent = int64_t(1) << 31;

struct BaseTerm {
  const Value *coordinate; // an i32 value; null: 1
  int64_t stride;          // a reference (an argument index, or -1 - constant)
};

// The pointer argument `base` is (directly, or plus terms appended to `terms`).
std::optional<int64_t> tensorMapBase(const Value *base, std::vector<BaseTerm> &terms);

struct TensorMapSpec {
  int64_t rank = 0, elementBytes = 0, swizzle = 0;
  int64_t base = 0;                    // argument index of the base pointer
  std::vector<int64_t> sizes, strides; // argument index >= 0, or -1 - constant
  std::vector<int64_t> box;            // one copy; its innermost size is copyWidth()
  std::vector<int64_t> tile;           // the whole block a load reads (tt.descriptor_load's shape)

  // Copies one tile takes: the tile's rows cut into swizzle rows.
  int64_t copies() const { return tile.back() / box.back(); }
  // Elements one copy writes (each copy's part of shared memory follows the last one's).
  int64_t copyElements() const;
  bool sameMap(const TensorMapSpec &o) const; // one kernel parameter serves both
  void appendWords(std::vector<int64_t> &out) const;
};

// The map a tt.descriptor_load can read through on `target`, or nothing: a target with
// TMA, zero padding, rank 2, 1-, 2- or 4-byte elements, operands that are arguments or
// constants, a last stride of 1, and a tile whose shared layout (SharedLayout::swizzled
// along its last dimension) is what the copies write. A block pointer's load (one with
// `checked`) also needs the target to take those (TargetDesc::blockPointerTensorMaps, or
// a kernel of `numWarps` at most blockPointerTensorMapWarps; 0: not known, no).
std::optional<TensorMapSpec> tensorMapSpec(const Op *descriptorLoad, const TargetDesc &target, unsigned numWarps);

// Whether the SIMT lowering keeps the load for the tensor-copy engine: it has a map and
// sits in an scf.for whose dots alone read it (directly or through one tt.trans), as
// the loop pipeline's copies need; expand-descriptors expands every other one.
// With `numWarps` known (non-zero), it must make whole warpgroups: th.wgmma reads the tiles.
bool tensorMapCandidate(const Op *descriptorLoad, const TargetDesc &target, unsigned numWarps);

// The coordinates of the outer dimensions a load's base adds to its map, outermost
// first (null: 1); the tile's own offsets follow them.
std::vector<const Value *> tensorMapOuterCoordinates(const Op *descriptorLoad);

// A rank-2 load in an scf.for whose first dimension is the contiguous one (a block
// pointer in order (0, 1), such as attention's K^T) read by dots alone becomes a load of
// the transposed box, with a tensor map, and a tt.trans before each dot; returns whether
// it did.
bool transposeForTensorMap(Op *descriptorLoad, const TargetDesc &target, unsigned numWarps);

// The arrangement a tile read through `spec` has in shared memory.
SharedLayout tensorMapLayout(const TensorMapSpec &spec);

} // namespace trident::simt
