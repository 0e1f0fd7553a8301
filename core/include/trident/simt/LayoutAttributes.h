#pragma once
// Layouts in IR text: a LayoutAssignment written onto block-IR ops as attributes and
// read back, so that layout assignment and the lowering are passes on text
// (`trident-opt --assign-layouts`, then `--lower-to-thread-ir`; docs/simt.md).
//
//   tt.func {num_warps = 4, ...}                           the warps the layouts are for
//   %r = tt.make_range {end = 1024, layouts = [layout<1024: reg [1, 2, 512] lane [4, ...]
//                       warp [128, 256]>], start = 0} : block<1024xi32>
//                                                          one layout per block result
//   %x = tt.load %p {access_layout = layout<...>, access_vector = 4, layouts = [...]}
//                                                          a memory op's access and width
//   %d = tt.dot %a, %b, %c {mma_atom = "mma.m16n8k16.f32.f16", mma_warps = [4, 1], ...}
//                                                          a dot on matrix units
//   scf.for ... {arg_layouts = [...]}                      the block arguments of its regions

#include "trident/ir/IR.h"
#include "trident/simt/LayoutAssignment.h"
#include "trident/simt/TargetDesc.h"
#include "trident/support/Diagnostic.h"

#include <optional>

namespace trident::simt {

// The layout as the IR carries it, and back.
LayoutBases toBases(const LinearLayout &layout);
LinearLayout fromBases(const LayoutBases &bases);

// Writes `layouts` (assigned to `func`) onto the ops of `func` as the attributes above.
void writeLayoutAttributes(Op *func, const LayoutAssignment &layouts);
// True when `func` carries layout attributes (its num_warps).
bool hasLayoutAttributes(const Op *func);
// The assignment the attributes of `func` describe, checked against the values' shapes
// and `target` (warp size, matrix atoms); nothing, with diagnostics, when they are
// missing or inconsistent.
std::optional<LayoutAssignment> readLayoutAttributes(const Op *func, const TargetDesc &target, Diagnostics &diags);
// Removes every layout attribute from `func` and the ops inside it.
void eraseLayoutAttributes(Op *func);

} // namespace trident::simt
