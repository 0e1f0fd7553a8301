#pragma once
// Checks the IR's rules: operand and result counts and types, shapes, attributes,
// dominance, region arguments and terminators. Each message names the op and
// what is wrong, at the op's location:
//
//   kernel.py:7:9: error: 'arith.addi' op operand types must match, got i32 and i64
//
// Every error is reported, not only the first. docs/ir.md describes the rules op by op.

#include "trident/ir/IR.h"
#include "trident/support/Diagnostic.h"

#include <initializer_list>
#include <string_view>

namespace trident {

// Verifies a whole module; true when it breaks no rule, else false with errors added to `diags`.
bool verify(const Module &m, Diagnostics &diags);
// Verifies `op` and everything nested in it; it may use the values that dominate it from around it.
bool verify(const Op *op, Diagnostics &diags);

// The kinds of an atomic read-modify-write, tt.atomic_rmw's and the thread IR's th.atomic_rmw.
inline const std::initializer_list<std::string_view> kAtomicRMWKinds = {
    "add", "fadd", "and", "or", "xor", "max", "min", "umax", "umin", "xchg"};
// Whether an atomic read-modify-write of `kind` (one of kAtomicRMWKinds) takes `element`
// values: "fadd" f16, f32 and f64; "xchg" 32- and 64-bit integers and floats; the others
// 32- and 64-bit integers.
bool atomicKindSupports(std::string_view kind, Type element);

} // namespace trident
