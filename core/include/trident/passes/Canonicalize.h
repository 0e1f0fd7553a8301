#pragma once
// canonicalize: folds constants and simplifies ops to a canonical form, repeated
// until nothing changes.
//
//   %0 = arith.constant {value = 2} : i32
//   %1 = arith.constant {value = 3} : i32
//   %2 = arith.muli %0, %1 : i32
//   %3 = arith.addi %x, %c0 : i32              // %c0 = 0
//   %4 = tt.splat %2 : block<64xi32>
//   %5 = scf.if %true : i32 ({ scf.yield %3 }, { scf.yield %2 })
//
// becomes
//
//   %2 = arith.constant {value = 6} : i32
//   %4 = arith.constant {value = 6} : block<64xi32>
//   (uses of %3 and %5 now use %x)
//
// What folds:
// - integer arithmetic, shifts, min/max, comparisons and casts on constants, wrapping
//   to the element width; division or remainder by zero, signed overflow of a
//   division and shifts by the width or more are left alone;
// - float arithmetic, comparisons and casts on f64, f32, f16 and bf16 constants,
//   rounded to the element type after each op as the hardware does (computed in
//   double, whose 53 bits make the second rounding exact); truncf honours rtne and
//   rtz. f8 values are not folded (their overflow rules vary by target) except negf
//   and absf, exact for every type; math library functions (exp, sin, sqrt ...) are
//   not folded since devices compute them approximately (tt.precise_sqrt is);
// - identities: x+0, x-0, x*1, x*0, x-x, x/1, x%1, x&0, x&x, x|0, x|x, x^0, x^x,
//   x<<0, min/max(x, x), cmpi of x with itself, select of a constant condition or of
//   equal arms, x*1.0, x/1.0, x+(-0.0), x-0.0, addptr p, 0; a constant operand of a
//   commutative op moves to the right;
// - blocks: splat, broadcast, expand_dims, reshape and trans of a constant give a
//   block constant, of a splat give a splat; broadcast/reshape to the same type and
//   trans with the identity order give their operand;
// - scf.if on a constant condition becomes the ops of the region taken; scf.for with
//   constant bounds (compared signed) that runs zero times gives its initial values,
//   and once becomes its body.
// Ops that folding leaves unused are erased with their unused pure producers.

#include "trident/ir/IR.h"
#include "trident/support/Diagnostic.h"

namespace trident {

// Folds and simplifies every function to a fixed point; always succeeds.
bool canonicalize(Module &m, Diagnostics &diags);

} // namespace trident
