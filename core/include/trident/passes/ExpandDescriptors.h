#pragma once
// expand-descriptors: tt.descriptor_load (a box of a tensor descriptor, docs/ir.md) as
// the block loads a block pointer makes, every dimension bounds-checked: elements
// outside the tensor read the padding (zero or NaN), as Triton's TMA gives them.
//
//   %t = tt.descriptor_load %x, %M, %N, %sM, %c1, %m, %n {padding = "zero"} : block<64x32xf16>
//
// becomes
//
//   %rows = (extsi(%m) + extsi(arange(0, 64))) : block<64xi64>, %cols likewise over 32
//   %ptr  = tt.addptr (splat %x), rows[:, None] * %sM + cols[None, :] * %c1
//   %mask = (0 <= rows < %M)[:, None] & (0 <= cols < %N)[None, :]
//   %t    = tt.load %ptr, %mask, (splat 0.0)
//
// The SIMT lowering runs it first on targets without a tensor-copy engine; on sm_90 it
// keeps the loads that TMA serves (simt/Tma.h) and expands the rest.

#include "trident/ir/IR.h"
#include "trident/support/Diagnostic.h"

#include <functional>

namespace trident {

// Expands every tt.descriptor_load for which `keep` (when given) is false.
bool expandDescriptorLoads(Module &m, Diagnostics &diags, const std::function<bool(const Op *)> &keep = {});

// The pass: expands them all.
bool expandDescriptors(Module &m, Diagnostics &diags);

} // namespace trident
