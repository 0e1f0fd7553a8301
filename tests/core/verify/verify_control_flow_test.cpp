// Verifier rules of scf.for, scf.if, scf.while, scf.yield and scf.condition.

#include "VerifyTestUtil.h"

using verify_test::Case;

namespace {

const Case kValid[] = {
    {"scf.for", R"(    %lb = arith.constant {value = 0} : i32
    %st = arith.constant {value = 1} : i32
    %r = scf.for %lb, %n, %st, %f : f32 ({
    ^(%iv: i32, %t: f32):
      %s = arith.addf %t, %t : f32
      scf.yield %s
    }))",
     ""},
    {"scf.for", R"(    scf.for %l, %l, %l ({
    ^(%iv: i64):
      scf.yield
    }))",
     ""},
    {"scf.if", R"(    %r = scf.if %c : f32 ({
      scf.yield %f
    }, {
      %z = arith.negf %f : f32
      scf.yield %z
    }))",
     ""},
    {"scf.if", R"(    scf.if %c ({
      tt.store %p, %f
      scf.yield
    }, {
    }))",
     ""},
    {"scf.while", R"(    %r = scf.while %n : i32 ({
    ^(%a0: i32):
      %k = arith.cmpi %a0, %n {predicate = "slt"} : i1
      scf.condition %k, %a0
    }, {
    ^(%b0: i32):
      %one = arith.constant {value = 1} : i32
      %nx = arith.addi %b0, %one : i32
      scf.yield %nx
    }))",
     ""},
    {"scf.yield", R"(    %r, %s = scf.if %c : f32, i32 ({
      scf.yield %f, %n
    }, {
      scf.yield %f, %n
    }))",
     ""},
    {"scf.condition", R"(    scf.while %f ({
    ^(%a0: f32):
      scf.condition %c
    }, {
      scf.yield %f
    }))",
     ""},
};

const Case kInvalid[] = {
    {"scf.for", R"(    %lb = arith.constant {value = 0} : i32
    scf.for %lb, %l, %lb ({
    ^(%iv: i32):
      scf.yield
    }))",
     "'scf.for' op lower bound, upper bound and step must have one integer scalar type, got i32, i64 and "
     "i32"},
    {"scf.for", R"(    scf.for %f, %f, %f ({
    ^(%iv: f32):
      scf.yield
    }))",
     "'scf.for' op lower bound, upper bound and step must have one integer scalar type, got f32, f32 and "
     "f32"},
    {"scf.for", R"(    %r = scf.for %n, %n, %n, %f : f32 ({
    ^(%iv: i32, %t: f16):
      scf.yield %f
    }))",
     "'scf.for' op region argument #1 has type f16, expected f32 (the induction variable, then one per "
     "loop-carried value)"},
    {"scf.for", R"(    %r = scf.for %n, %n, %n, %f : f32 ({
      scf.yield %f
    }))",
     "'scf.for' op region has 0 arguments, expected 2 (the induction variable, then one per loop-carried "
     "value)"},
    {"scf.for", R"(    %r = scf.for %n, %n, %n, %f : f16 ({
    ^(%iv: i32, %t: f32):
      scf.yield %t
    }))",
     "'scf.for' op result #0 has type f16, but its initial value has type f32\n"
     "'scf.yield' op value #0 has type f32, expected f16 to match the 'scf.for' results"},
    {"scf.for", R"(    scf.for %n, %n, %n ({
    ^(%iv: i32):
      %z = arith.addi %iv, %iv : i32
    }))",
     "'scf.for' op region must end in 'scf.yield'"},
    {"scf.yield", R"(    %r = scf.for %n, %n, %n, %f : f32 ({
    ^(%iv: i32, %t: f32):
      scf.yield %iv
    }))",
     "'scf.yield' op value #0 has type i32, expected f32 to match the 'scf.for' results"},
    {"scf.yield", R"(    scf.while ({
      scf.condition %c
    }, {
      scf.yield %n
    }))",
     "'scf.yield' op passes 1 value, expected 0 to match the 'scf.while' initial values"},
    {"scf.yield", R"(    %r = scf.if %c : f32 ({
      scf.yield
    }, {
      scf.yield %f
    }))",
     "'scf.yield' op passes 0 values, expected 1 to match the 'scf.if' results"},
    {"scf.if", R"(    scf.if %m ({
      scf.yield
    }, {
    }))",
     "'scf.if' op condition must be i1, got block<4xi1>"},
    {"scf.if", R"(    %r = scf.if %c : f32 ({
      scf.yield %f
    }, {
    }))",
     "'scf.if' op else region must not be empty when the op has results"},
    {"scf.if", R"(    scf.if %c ({
      tt.store %p, %f
    }, {
    }))",
     "'scf.if' op region #0 must end in 'scf.yield'"},
    {"scf.if", R"(    scf.if %c ({
    ^(%q: i32):
      scf.yield
    }, {
    }))",
     "'scf.if' op region #0 must have no arguments"},
    {"scf.while", R"(    %r = scf.while %n : i32 ({
    ^(%a0: i64):
      scf.condition %c, %n
    }, {
    ^(%b0: i32):
      scf.yield %b0
    }))",
     "'scf.while' op region #0 argument #0 has type i64, expected i32 (one per initial value)"},
    {"scf.while", R"(    %r = scf.while %n : i32 ({
    ^(%a0: i32):
      scf.condition %c, %a0
    }, {
      scf.yield %n
    }))",
     "'scf.while' op region #1 has 0 arguments, expected 1 (one per result)"},
    {"scf.while", R"(    scf.while ({
      scf.yield
    }, {
      scf.yield
    }))",
     "'scf.while' op region #0 must end in 'scf.condition'\n"
     "'scf.yield' op must be directly inside 'scf.for', 'scf.if' or the after region of 'scf.while'"},
    {"scf.condition", R"(    scf.while ({
      scf.condition %n
    }, {
      scf.yield
    }))",
     "'scf.condition' op condition must be i1, got i32"},
    {"scf.condition", R"(    %r = scf.while : f32 ({
      scf.condition %c, %n
    }, {
    ^(%b0: f32):
      scf.yield
    }))",
     "'scf.condition' op value #0 has type i32, expected f32 to match the 'scf.while' results"},
    {"scf.condition", R"(    scf.for %n, %n, %n ({
    ^(%iv: i32):
      scf.condition %c
    }))",
     "'scf.for' op region must end in 'scf.yield'\n"
     "'scf.condition' op must be directly inside the before region of 'scf.while'"},
};

verify_test::Register registerValid(kValid), registerInvalid(kInvalid);

} // namespace

TEST_CASE("control flow ops: valid samples pass") { verify_test::runCases(kValid); }

TEST_CASE("control flow ops: invalid samples give the expected message") { verify_test::runCases(kInvalid); }
