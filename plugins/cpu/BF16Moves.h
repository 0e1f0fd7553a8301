#pragma once
// bf16 values that are only moved keep their bits on x86-64.
//
// LLVM 19's x86 backend holds a `bfloat` that lives across basic blocks as an f32 (the
// bits shifted up by 16) and rounds it back at the store (`vcvtneps2bf16` with
// AVX512-BF16, a call of `__truncsfbf2` without): a load of a signaling NaN stored
// unchanged comes out quiet (0xff88 -> 0xffc8), where every other device keeps the bits
// (random kernels 3976 and 7821 on cpu:0). Moves must not change bits, so after the
// optimizer every bf16 load, store, phi, select, element insert, extract and shuffle, and
// freeze is made an i16 one; what computes with the value (fpext, fcmp, calls) gets it
// back through a bitcast, which costs nothing.
//
//   %x = load bfloat, ptr %a            %x.i = load i16, ptr %a
//   br label %next                      br label %next
// next:                          ->   next:
//   store bfloat %x, ptr %b             store i16 %x.i, ptr %b
//
// It also saves the round trip: the 8 to 12 instructions of the f32 form a move paid.

#include <llvm/IR/Module.h>

namespace trident::cpu {

// Rewrites the moves of bf16 values (scalars and vectors) in `m` as above.
void keepBF16Bits(llvm::Module &m);

} // namespace trident::cpu
