#pragma once
// The rules of thread IR on top of the generic ones (trident::verify checks those
// first): every value is a scalar, pointer or short vector; block-IR-only ops are
// absent; each th.* op has operands, results and attributes of the right kinds.
// Messages read "'th.load' op <what is wrong>" at the op's location.

#include "trident/ir/IR.h"
#include "trident/support/Diagnostic.h"

namespace trident::simt {

// True when `m` is valid thread IR (assuming trident::verify(m) passed).
bool verifyThreadIR(const Module &m, Diagnostics &diags);

} // namespace trident::simt
