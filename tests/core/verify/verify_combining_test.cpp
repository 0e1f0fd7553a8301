// Verifier rules of tt.dot, tt.reduce, tt.scan and their combiner terminators.

#include "VerifyTestUtil.h"

using verify_test::Case;

namespace {

const Case kValid[] = {
    {"tt.dot", "    %r = tt.dot %a, %b, %acc {input_precision = \"ieee\"} : block<16x32xf32>", ""},
    {"tt.dot", R"(    %a3 = tt.expand_dims %a {axis = 0} : block<1x16x8xf16>
    %b3 = tt.expand_dims %b {axis = 0} : block<1x8x32xf16>
    %c3 = arith.constant {value = 0.0} : block<1x16x32xf16>
    %r = tt.dot %a3, %b3, %c3 : block<1x16x32xf16>)",
     ""},
    {"tt.dot", R"(    %ai = arith.constant {value = 1} : block<16x16xi8>
    %ci = arith.constant {value = 0} : block<16x16xi32>
    %r = tt.dot %ai, %ai, %ci : block<16x16xi32>)",
     ""},
    {"tt.dot", R"(    %a8 = arith.constant {value = 1.0} : block<16x32xf8e4m3>
    %b8 = arith.constant {value = 1.0} : block<32x16xf8e5m2>
    %c8 = arith.constant {value = 0.0} : block<16x16xf32>
    %r = tt.dot %a8, %b8, %c8 {max_num_imprecise_acc = 32} : block<16x16xf32>)",
     ""},
    {"tt.dot", R"(    %af = arith.constant {value = 1.0} : block<16x16xf32>
    %r = tt.dot %af, %af, %af {input_precision = "tf32x3"} : block<16x16xf32>)",
     ""},
    {"tt.reduce", R"(    %r = tt.reduce %x2 {axis = 1} : block<4xf32> ({
    ^(%l0: f32, %r0: f32):
      %s = arith.addf %l0, %r0 : f32
      tt.reduce.return %s
    }))",
     ""},
    {"tt.reduce.return", R"(    %v, %k = tt.reduce %x, %i {axis = 0} : f32, i32 ({
    ^(%l0: f32, %l1: i32, %r0: f32, %r1: i32):
      %gt = arith.cmpf %l0, %r0 {predicate = "ogt"} : i1
      %mv = arith.select %gt, %l0, %r0 : f32
      %mi = arith.select %gt, %l1, %r1 : i32
      tt.reduce.return %mv, %mi
    }))",
     ""},
    {"tt.scan", R"(    %r = tt.scan %x2 {axis = 0, reverse = true} : block<4x8xf32> ({
    ^(%l0: f32, %r0: f32):
      %s = arith.addf %l0, %r0 : f32
      tt.scan.return %s
    }))",
     ""},
    {"tt.scan.return", R"(    %r = tt.scan %pb {axis = 0} : block<4xptr<f32>> ({
    ^(%l0: ptr<f32>, %r0: ptr<f32>):
      tt.scan.return %r0
    }))",
     ""},
};

const Case kInvalid[] = {
    {"tt.dot", "    %r = tt.dot %b, %a, %acc : block<16x32xf32>",
     "'tt.dot' op shapes do not multiply: a is 8x32, b is 16x8, acc is 16x32 (expected [B x] MxK, KxN and "
     "MxN)"},
    {"tt.dot",
     "    %ah = arith.constant {value = 0.0} : block<16x32xbf16>\n"
     "    %r = tt.dot %a, %b, %ah : block<16x32xbf16>",
     "'tt.dot' op cannot multiply f16 by f16 into bf16 (expected f16 or f32)"},
    {"tt.dot",
     "    %bf = arith.constant {value = 0.0} : block<8x32xf32>\n"
     "    %r = tt.dot %a, %bf, %acc : block<16x32xf32>",
     "'tt.dot' op cannot multiply f16 by f32 into f32 (unsupported input types)"},
    {"tt.dot", "    %r = tt.dot %x, %x, %x : block<4xf32>",
     "'tt.dot' op operands must be blocks of rank 2 (or 3, batched) of one rank, got block<4xf32>, "
     "block<4xf32> and "
     "block<4xf32>"},
    {"tt.dot", "    %r = tt.dot %a, %b, %acc {input_precision = \"tf16\"} : block<16x32xf32>",
     "'tt.dot' op attribute 'input_precision' must be one of ieee, tf32, tf32x3, got \"tf16\""},
    {"tt.dot", "    %r = tt.dot %a, %b, %acc : block<16x32xf16>",
     "'tt.dot' op result type must be block<16x32xf32>, got block<16x32xf16>"},
    {"tt.reduce", R"(    %r = tt.reduce %x2 {axis = 2} : block<4xf32> ({
    ^(%l0: f32, %r0: f32):
      tt.reduce.return %l0
    }))",
     "'tt.reduce' op attribute 'axis' must be in [0, 2), got 2"},
    {"tt.reduce", R"(    %r = tt.reduce %x2 {axis = 1} : block<8xf32> ({
    ^(%l0: f32, %r0: f32):
      tt.reduce.return %l0
    }))",
     "'tt.reduce' op result type must be block<4xf32>, got block<8xf32>"},
    {"tt.reduce", R"(    %r = tt.reduce %x {axis = 0} : f32 ({
    ^(%l0: f32):
      tt.reduce.return %l0
    }))",
     "'tt.reduce' op region has 1 argument, expected 2 (the operands' element types, twice)"},
    {"tt.reduce", R"(    %r, %s = tt.reduce %x, %x2 {axis = 0} : f32, f32 ({
    ^(%l0: f32, %l1: f32, %r0: f32, %r1: f32):
      tt.reduce.return %l0, %l1
    }))",
     "'tt.reduce' op operands must have one shape, got block<4xf32> and block<4x8xf32>"},
    {"tt.reduce", R"(    %r = tt.reduce %f {axis = 0} : f32 ({
    ^(%l0: f32, %r0: f32):
      tt.reduce.return %l0
    }))",
     "'tt.reduce' op operand must be a block, got f32"},
    {"tt.reduce", R"(    %r = tt.reduce %x {axis = 0} : f32 ({
    ^(%l0: f32, %r0: f32):
      %s = arith.addf %l0, %r0 : f32
    }))",
     "'tt.reduce' op region must end in 'tt.reduce.return'"},
    {"tt.reduce.return", R"(    %r = tt.reduce %x {axis = 0} : f32 ({
    ^(%l0: f32, %r0: f32):
      tt.reduce.return %n
    }))",
     "'tt.reduce.return' op value #0 has type i32, expected f32 to match the 'tt.reduce' operand element "
     "types"},
    {"tt.scan", R"(    %r = tt.scan %x {axis = 0} : block<4xf16> ({
    ^(%l0: f32, %r0: f32):
      tt.scan.return %l0
    }))",
     "'tt.scan' op result type must be block<4xf32>, got block<4xf16>"},
    {"tt.scan", R"(    %r = tt.scan %x {axis = 0, reverse = 1} : block<4xf32> ({
    ^(%l0: f32, %r0: f32):
      tt.scan.return %l0
    }))",
     "'tt.scan' op attribute 'reverse' must be true or false, got 1"},
    {"tt.scan", R"(    %r = tt.scan %x {axis = 0} : block<4xf32> ({
    ^(%l0: f32, %r0: f32):
      tt.reduce.return %l0
    }))",
     "'tt.scan' op region must end in 'tt.scan.return'\n'tt.reduce.return' op must be directly inside "
     "'tt.reduce'"},
    {"tt.scan.return", R"(    %r = tt.scan %x {axis = 0} : block<4xf32> ({
    ^(%l0: f32, %r0: f32):
      tt.scan.return %l0, %r0
    }))",
     "'tt.scan.return' op passes 2 values, expected 1 to match the 'tt.scan' operand element types"},
};

verify_test::Register registerValid(kValid), registerInvalid(kInvalid);

} // namespace

TEST_CASE("dot, reduce and scan: valid samples pass") { verify_test::runCases(kValid); }

TEST_CASE("dot, reduce and scan: invalid samples give the expected message") {
  verify_test::runCases(kInvalid);
}
