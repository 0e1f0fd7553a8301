#pragma once
// Checks the IR's rules: operand and result counts and types, shapes, attributes,
// dominance, region arguments and terminators. Each message names the op and
// what is wrong, at the op's location.

#include "trident/ir/IR.h"
#include "trident/support/Diagnostic.h"

namespace trident {

bool verify(const Module &m, Diagnostics &diags);
bool verify(const Op *op, Diagnostics &diags);

} // namespace trident
