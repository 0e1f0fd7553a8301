#pragma once
// The arithmetic ops' table (ArithOps.def) as data: what the verifier, the interpreter,
// axis info and the SPIR-V backend derive their cases from (the backends expand the
// llvm and spirv columns themselves).

#include "trident/ir/OpInfo.h"

namespace trident {

enum class ArithElements { Integer, Float };

// One row of ArithOps.def, less the backends' columns.
struct ArithOpInfo {
  OpCode code;
  int arity;
  ArithElements elements;
};

// The row of `code`; nullptr when it is not an ArithOps.def op.
const ArithOpInfo *arithOpInfo(OpCode code);

} // namespace trident
