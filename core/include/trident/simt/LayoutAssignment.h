#pragma once
// Layout assignment: picks a linear layout for every block value of a function.
//
// Dots on matrix units come first: their results take the accumulator layout, which
// flows forward to the loops that carry them, the elementwise ops that use them and
// the stores of those (a store takes the layout of a value computed from a dot
// rather than converting it). Then memory ops are the anchors: each gets a coalesced blocked layout whose threads
// hold as many contiguous elements as axis info allows (up to the target's widest
// access). Anchor layouts flow backward through elementwise and shape ops to the
// values that feed them, then every value still without a layout gets one forward
// from its operands (or Triton's default blocked layout). The lowering converts
// where an op's operands disagree with the layout it needs.
//
//   %p = tt.addptr %s, %r : block<1024xptr<f32>>   layout<1024: reg [1, 2, 512] lane [4, ...] ...>
//   %x = tt.load %p : block<1024xf32>               (same layout, 4-wide access)

#include "trident/ir/IR.h"
#include "trident/simt/DotLayout.h"
#include "trident/simt/Layout.h"
#include "trident/simt/TargetDesc.h"

#include <unordered_map>

namespace trident::simt {

class LayoutAssignment {
public:
  // The layout of a block value (scalars: the replicated rank-0 layout).
  LinearLayout layout(const Value *v) const;
  bool has(const Value *v) const { return layouts_.count(v) != 0; }
  void set(const Value *v, LinearLayout l) { layouts_[v] = std::move(l); }
  // The layout a load/store/atomic accesses memory in (its operands are converted to it).
  LinearLayout accessLayout(const Op *memoryOp) const;
  // Contiguous elements per thread that it may access at once (1: not vectorizable).
  int64_t vectorElements(const Op *memoryOp) const;
  void setAccess(const Op *memoryOp, LinearLayout layout, int64_t vectorElements);
  // How a tt.dot runs on matrix units (null: with multiply-adds).
  const MmaPlan *mmaPlan(const Op *dot) const;
  void setMmaPlan(const Op *dot, MmaPlan plan) { mma_[dot] = plan; }

  unsigned warpSize = 32, numWarps = 4;

private:
  std::unordered_map<const Value *, LinearLayout> layouts_;
  std::unordered_map<const Op *, std::pair<LinearLayout, int64_t>> access_;
  std::unordered_map<const Op *, MmaPlan> mma_;
};

// Assigns layouts to the block values of `func` (a tt.func of block IR).
LayoutAssignment assignLayouts(const Op *func, const TargetDesc &target, unsigned numWarps);

// The layout of a reduction's result along `axis` of a value laid out as `input`
// (which must be disjoint): registers along the axis disappear, lanes and warps
// along it become replicas.
LinearLayout reducedLayout(const LinearLayout &input, unsigned axis);
// The layout tt.join produces from inputs laid out as `input`: one more register bit
// selects the input (the new last dimension).
LinearLayout joinedLayout(const LinearLayout &input);
// The layout tt.cat produces from inputs laid out as `input`: one more register bit
// selects the input (the top bit of dimension 0).
LinearLayout concatenatedLayout(const LinearLayout &input);
// `input` when a register bit selects the last dimension's two halves (tt.split can
// take it apart), else a blocked layout where one does.
LinearLayout splittableLayout(const LinearLayout &input);
// The layout of each half that tt.split takes out of a splittable layout.
LinearLayout splitLayout(const LinearLayout &splittable);
// The layout tt.scan needs along `axis`: each thread holds a contiguous run of the
// axis, lanes then warps continue it (a blocked layout with the axis fastest).
LinearLayout scanLayout(std::span<const int64_t> shape, unsigned axis, unsigned warpSize, unsigned numWarps);

} // namespace trident::simt
