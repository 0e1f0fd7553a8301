#pragma once
// Transfer functions of the axis-info analysis: the facts about an op's results from
// the facts about its operands. Private to the analysis; the driver
// (AxisInfoAnalysis.cpp) handles regions, loops and function arguments.

#include "trident/analysis/AxisInfo.h"

#include <span>
#include <vector>

namespace trident::axis {

// Facts about each result of `op` given `operands` (one per operand, in order). Ops with
// regions get facts about their results only (scf ops are not handled here).
std::vector<AxisInfo> inferResults(const Op *op, std::span<const AxisInfo *const> operands);

// Rules by op family, each returning the facts about the op's single result.
AxisInfo inferShapeOp(const Op *op, std::span<const AxisInfo *const> in);   // splat, broadcast, ...
AxisInfo inferIntegerOp(const Op *op, std::span<const AxisInfo *const> in); // arith.*i, cmpi, select
AxisInfo inferCastOp(const Op *op, std::span<const AxisInfo *const> in);    // ext, trunc, bitcast, ...

// The facts about a result that only shares the constancy of `operands` (element-wise ops
// that the rules know nothing more about).
AxisInfo elementwiseConstancy(Type result, std::span<const AxisInfo *const> operands);

// Integer folding of a binary op at the width of `type`; empty when undefined (x / 0).
std::optional<int64_t> foldBinary(OpCode code, int64_t a, int64_t b, Type type);

} // namespace trident::axis
