// Verifier rules of pointers, bitcasts, loads, stores and atomics.

#include "VerifyTestUtil.h"

using verify_test::Case;

namespace {

const Case kValid[] = {
    {"tt.addptr", "    %r = tt.addptr %pb, %i : block<4xptr<f32>>", ""},
    {"tt.addptr", "    %r = tt.addptr %p, %l : ptr<f32>", ""},
    {"tt.ptr_to_int", "    %r = tt.ptr_to_int %pb : block<4xi64>", ""},
    {"tt.int_to_ptr", "    %r = tt.int_to_ptr %j : block<4xptr<f16>>", ""},
    {"tt.bitcast", "    %r = tt.bitcast %x : block<4xi32>", ""},
    {"tt.bitcast", "    %r = tt.bitcast %p : ptr<i8>", ""},
    {"tt.bitcast", "    %r = tt.bitcast %h : i16", ""},
    {"tt.load", "    %r = tt.load %pb : block<4xf32>", ""},
    {"tt.descriptor_load", "    %r = tt.descriptor_load %p, %l, %l, %l, %l, %n, %n {padding = \"zero\"} : block<4x8xf32>", ""},
    {"tt.descriptor_load",
     "    %r = tt.descriptor_load %p, %l, %l, %l, %l, %n, %n {cache = \"cg\", checked = 1, padding = \"zero\"} : "
     "block<4x8xf32>",
     ""},
    {"tt.load", "    %r = tt.load %p : f32", ""},
    {"tt.load",
     "    %r = tt.load %pb, %m, %x {cache = \"cg\", eviction = \"evict_last\", volatile = true} : "
     "block<4xf32>",
     ""},
    {"tt.store", "    tt.store %pb, %x, %m {cache = \"wb\", eviction = \"evict_first\"}", ""},
    {"tt.store", "    tt.store %p, %f", ""},
    {"tt.atomic_rmw",
     "    %r = tt.atomic_rmw %pb, %x, %m {kind = \"fadd\", scope = \"gpu\", sem = \"acq_rel\"} : "
     "block<4xf32>",
     ""},
    {"tt.atomic_rmw",
     "    %r = tt.atomic_rmw %pi, %n {kind = \"umax\", scope = \"cta\", sem = \"relaxed\"} : i32", ""},
    {"tt.atomic_rmw", "    %r = tt.atomic_rmw %p, %f {kind = \"xchg\"} : f32", ""},
    {"tt.atomic_cas", "    %r = tt.atomic_cas %pi, %n, %n {scope = \"sys\", sem = \"acquire\"} : i32", ""},
    {"tt.atomic_cas", "    %q = tt.bitcast %p : ptr<f16>\n    %r = tt.atomic_cas %q, %h, %h : f16", ""},
};

const Case kInvalid[] = {
    {"tt.addptr", "    %r = tt.addptr %pb, %n : block<4xptr<f32>>",
     "'tt.addptr' op offset shape must match the pointer shape, got block<4xptr<f32>> and i32"},
    {"tt.addptr", "    %r = tt.addptr %p, %f : ptr<f32>",
     "'tt.addptr' op offset must have integer elements, got f32"},
    {"tt.addptr", "    %r = tt.addptr %i, %i : block<4xi32>",
     "'tt.addptr' op pointer operand must have pointer elements, got block<4xi32>"},
    {"tt.addptr", "    %r = tt.addptr %p, %n : ptr<f16>",
     "'tt.addptr' op result type must be ptr<f32>, got ptr<f16>"},
    {"tt.ptr_to_int", "    %r = tt.ptr_to_int %pb : block<4xi32>",
     "'tt.ptr_to_int' op result type must be block<4xi64>, got block<4xi32>"},
    {"tt.ptr_to_int", "    %r = tt.ptr_to_int %l : i64",
     "'tt.ptr_to_int' op operand must have pointer elements, got i64"},
    {"tt.int_to_ptr", "    %r = tt.int_to_ptr %n : ptr<f32>",
     "'tt.int_to_ptr' op operand must have i64 elements, got i32"},
    {"tt.int_to_ptr", "    %r = tt.int_to_ptr %j : ptr<f32>",
     "'tt.int_to_ptr' op result shape must match the operand shape, got block<4xi64> and ptr<f32>"},
    {"tt.int_to_ptr", "    %r = tt.int_to_ptr %l : i64",
     "'tt.int_to_ptr' op result must have pointer elements, got i64"},
    {"tt.bitcast", "    %r = tt.bitcast %x : block<4xi64>",
     "'tt.bitcast' op operand and result must have one bit width, got block<4xf32> and block<4xi64>"},
    {"tt.bitcast", "    %r = tt.bitcast %l : ptr<f32>",
     "'tt.bitcast' op cannot bitcast between pointers and non-pointers (i64 to ptr<f32>), use tt.ptr_to_int "
     "or "
     "tt.int_to_ptr"},
    {"tt.bitcast", "    %r = tt.bitcast %x : i32",
     "'tt.bitcast' op result shape must match the operand shape, got block<4xf32> and i32"},
    {"tt.descriptor_load", "    %r = tt.descriptor_load %p, %l, %l, %l, %n, %n, %n {padding = \"zero\"} : block<4x8xf32>",
     "'tt.descriptor_load' op operand 4 must be i64, got i32"},
    {"tt.descriptor_load",
     "    %r = tt.descriptor_load %p, %l, %l, %l, %l, %n, %n {checked = 4, padding = \"zero\"} : block<4x8xf32>",
     "'tt.descriptor_load' op 'checked' must be a mask of the 2 dimensions, got 4"},
    {"tt.load", "    %r = tt.load %pb : block<4xf16>",
     "'tt.load' op result type must be block<4xf32>, got block<4xf16>"},
    {"tt.load", "    %r = tt.load %pb, %i : block<4xf32>",
     "'tt.load' op mask type must be block<4xi1>, got block<4xi32>"},
    {"tt.load", "    %r = tt.load %pb, %c : block<4xf32>",
     "'tt.load' op mask type must be block<4xi1>, got i1"},
    {"tt.load", "    %r = tt.load %pb, %m, %i : block<4xf32>",
     "'tt.load' op 'other' type must be block<4xf32>, got block<4xi32>"},
    {"tt.load", "    %r = tt.load %x : block<4xf32>",
     "'tt.load' op pointer operand must have pointer elements, got block<4xf32>"},
    {"tt.load", "    %r = tt.load %pb {cache = \"wb\"} : block<4xf32>",
     "'tt.load' op attribute 'cache' must be one of \"\", ca, cg, cv, got \"wb\""},
    {"tt.load", "    %r = tt.load %pb {volatile = \"yes\"} : block<4xf32>",
     "'tt.load' op attribute 'volatile' must be true or false, got \"yes\""},
    {"tt.store", "    tt.store %pb, %i",
     "'tt.store' op value type must be block<4xf32> to store through block<4xptr<f32>>, got block<4xi32>"},
    {"tt.store", "    tt.store %pb, %x, %c", "'tt.store' op mask type must be block<4xi1>, got i1"},
    {"tt.store", "    tt.store %pb, %x {eviction = \"evict_soon\"}",
     "'tt.store' op attribute 'eviction' must be one of \"\", evict_normal, evict_first, evict_last, got "
     "\"evict_soon\""},
    {"tt.store", "    tt.store %x, %x",
     "'tt.store' op pointer operand must have pointer elements, got block<4xf32>"},
    {"tt.atomic_rmw", "    %r = tt.atomic_rmw %pi, %n {kind = \"fadd\"} : i32",
     "'tt.atomic_rmw' op kind \"fadd\" does not support i32 elements"},
    {"tt.atomic_rmw", "    %r = tt.atomic_rmw %p, %f {kind = \"max\"} : f32",
     "'tt.atomic_rmw' op kind \"max\" does not support f32 elements"},
    {"tt.atomic_rmw", "    %r = tt.atomic_rmw %p, %f : f32",
     "'tt.atomic_rmw' op requires string attribute 'kind'"},
    {"tt.atomic_rmw", "    %r = tt.atomic_rmw %p, %f {kind = \"mul\"} : f32",
     "'tt.atomic_rmw' op attribute 'kind' must be one of add, fadd, and, or, xor, max, min, umax, umin, "
     "xchg, got "
     "\"mul\""},
    {"tt.atomic_rmw", "    %r = tt.atomic_rmw %p, %f {kind = \"fadd\", sem = \"seq_cst\"} : f32",
     "'tt.atomic_rmw' op attribute 'sem' must be one of relaxed, acquire, release, acq_rel, got \"seq_cst\""},
    {"tt.atomic_rmw", "    %r = tt.atomic_rmw %p, %f {kind = \"fadd\", scope = \"device\"} : f32",
     "'tt.atomic_rmw' op attribute 'scope' must be one of gpu, cta, sys, got \"device\""},
    {"tt.atomic_rmw", "    %r = tt.atomic_rmw %pb, %f {kind = \"fadd\"} : f32",
     "'tt.atomic_rmw' op value type must be block<4xf32> to update through block<4xptr<f32>>, got f32"},
    {"tt.atomic_rmw", "    %r = tt.atomic_rmw %pb, %x, %i {kind = \"fadd\"} : block<4xf32>",
     "'tt.atomic_rmw' op mask type must be block<4xi1>, got block<4xi32>"},
    {"tt.atomic_rmw", "    %r = tt.atomic_rmw %p, %f {kind = \"xchg\"} : i32",
     "'tt.atomic_rmw' op result type must be f32, got i32"},
    {"tt.atomic_cas",
     "    %q = tt.bitcast %p : ptr<i8>\n    %v = arith.constant {value = 1} : i8\n"
     "    %r = tt.atomic_cas %q, %v, %v : i8",
     "'tt.atomic_cas' op does not support i8 elements (16-, 32- or 64-bit integers and floats only)"},
    {"tt.atomic_cas", "    %r = tt.atomic_cas %pi, %n, %l : i32",
     "'tt.atomic_cas' op compare and value types must be i32 to update through ptr<i32>, got i32 and i64"},
    {"tt.atomic_cas", "    %r = tt.atomic_cas %pi, %n, %n {sem = \"acq\"} : i32",
     "'tt.atomic_cas' op attribute 'sem' must be one of relaxed, acquire, release, acq_rel, got \"acq\""},
};

verify_test::Register registerValid(kValid), registerInvalid(kInvalid);

} // namespace

TEST_CASE("memory ops: valid samples pass") { verify_test::runCases(kValid); }

TEST_CASE("memory ops: invalid samples give the expected message") { verify_test::runCases(kInvalid); }
