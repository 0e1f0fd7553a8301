#pragma once
// Internal to canonicalize: computes an elementwise op (arithmetic, comparison,
// select, cast) on constant operands exactly as the IR's semantics define it.
// Returns nothing where the result is not defined (division by zero, shifts too
// wide, out-of-range float-to-int casts) or not folded (narrow floats, math
// library functions, rounding modes other than nearest-even).

#include "Constant.h"

#include <optional>
#include <span>

namespace trident::passes {

// `op`'s result element for the given operand elements; `result` is the result's
// element type.
std::optional<ConstantValue> evaluate(const Op *op, std::span<const ConstantValue> operands, Type result);

} // namespace trident::passes
