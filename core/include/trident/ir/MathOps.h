#pragma once
// The elementwise math ops' table (MathOps.def) as data and as a visitor: what the
// verifier, the interpreter, the simulator and the backends derive their cases from.

#include "trident/ir/OpInfo.h"

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>

namespace trident {

// MathOps.def's spirv column.
enum MathFlag : uint32_t {
  kMathNone = 0,
  kMathGlslF64 = 1u << 0,  // GLSL.std.450 has the f64 form
  kMathExactF16 = 1u << 1, // f16 runs in f16 on SPIR-V, not in f32
};

enum class MathElements { Float, Integer };

// One row of MathOps.def, less the scalar and llvm columns (expanded by their consumers).
struct MathOpInfo {
  OpCode code;
  int arity;
  MathElements elements;
  const char *devlib; // libdevice / ocml base name; nullptr: the LLVM intrinsic
  const char *libm;   // the CPU's C library function; nullptr: the LLVM intrinsic
  uint32_t glsl;      // GLSL.std.450 instruction; 0: the SPIR-V backend's own sequence
  uint32_t spirv;     // MathFlag bits
};

// The row of `code`; nullptr when it is not an elementwise math op.
const MathOpInfo *mathOpInfo(OpCode code);

namespace detail {
template <int Arity, class Visit, class Scalar> bool visitScalar(Visit &visit, Scalar scalar) {
  visit(std::integral_constant<int, Arity>{}, scalar);
  return true;
}
template <int Arity, class Visit> bool visitScalar(Visit &, std::nullptr_t) { return false; }
} // namespace detail

// Calls visit(std::integral_constant<int, arity>, scalar) with the scalar column of
// `code`'s row (a generic lambda); false, without calling it, when `code` is not a math
// op or has no scalar function.
template <class Visit> bool visitMathScalar(OpCode code, Visit &&visit) {
  switch (code) {
#define TRIDENT_MATH_OP(Id, Name, Arity, Elements, Scalar, ...)                                   \
  case OpCode::Id: return detail::visitScalar<Arity>(visit, Scalar);
#include "trident/ir/MathOps.def"
#undef TRIDENT_MATH_OP
  default: return false;
  }
}

} // namespace trident
