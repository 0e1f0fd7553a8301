#pragma once
// Lets the host plugin run any box of a grid as its own interpreter run, so that
// program instances spread over threads. Every tt.func gains six trailing i32
// parameters: the box's offset (x, y, z) and the whole grid's size (x, y, z).
//
//   before:  %p = tt.get_program_id {axis = 0} : i32
//            %n = tt.get_num_programs {axis = 0} : i32
//   after:   ^(..., %ox: i32, %oy: i32, %oz: i32, %nx: i32, %ny: i32, %nz: i32):
//            %q = tt.get_program_id {axis = 0} : i32
//            %p = arith.addi %q, %ox : i32            (uses of %n read %nx)
//
// tt.call ops pass the caller's six values on to the callee.

#include "trident/ir/IR.h"

namespace trident::host {

constexpr unsigned kSliceParams = 6;

void addProgramSlicing(Module &m);

// True when a function of `m` uses atomics (such kernels run their programs one
// at a time: the interpreter's atomics are not atomic across threads).
bool usesAtomics(const Module &m);

} // namespace trident::host
