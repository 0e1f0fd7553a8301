// Verifier rules of the hints and debugging ops.

#include "VerifyTestUtil.h"

using verify_test::Case;

namespace {

const Case kValid[] = {
    {"tt.multiple_of", "    %r = tt.multiple_of %i {values = [16]} : block<4xi32>", ""},
    {"tt.multiple_of", "    %r = tt.multiple_of %n {values = [8]} : i32", ""},
    {"tt.max_contiguous", "    %r = tt.max_contiguous %pb {values = [4]} : block<4xptr<f32>>", ""},
    {"tt.assume", "    tt.assume %c", ""},
    {"tt.print", "    tt.print %x, %n {hex = false, prefix = \"x: \"}", ""},
    {"tt.print", "    tt.print", ""},
    {"tt.assert", "    tt.assert %m {message = \"oops\"}", ""},
    {"gpu.barrier", "    gpu.barrier", ""},
    {"tt.elementwise_inline_asm",
     "    %r = tt.elementwise_inline_asm %i, %i {asm_string = \"add.s32 $0, $1, $2;\", constraints = \"=r,r,r\", "
     "packed_element = 1, pure = true} : block<4xi32>",
     ""},
};

const Case kInvalid[] = {
    {"tt.multiple_of", "    %r = tt.multiple_of %i {values = [16, 16]} : block<4xi32>",
     "'tt.multiple_of' op attribute 'values' has 2 entries, expected 1 (one per dimension of block<4xi32>)"},
    {"tt.multiple_of", "    %r = tt.multiple_of %x {values = [16]} : block<4xf32>",
     "'tt.multiple_of' op operand must have integer or pointer elements, got block<4xf32>"},
    {"tt.multiple_of", "    %r = tt.multiple_of %n : i32",
     "'tt.multiple_of' op requires integer array attribute 'values'"},
    {"tt.max_contiguous", "    %r = tt.max_contiguous %i {values = [0]} : block<4xi32>",
     "'tt.max_contiguous' op attribute 'values' entries must be at least 1, got 0"},
    {"tt.max_contiguous", "    %r = tt.max_contiguous %i {values = [4]} : block<4xi64>",
     "'tt.max_contiguous' op result type must be block<4xi32>, got block<4xi64>"},
    {"tt.assume", "    tt.assume %m", "'tt.assume' op operand must be i1, got block<4xi1>"},
    {"tt.print", "    tt.print %x {prefix = 3}", "'tt.print' op attribute 'prefix' must be a string, got 3"},
    {"tt.print", "    tt.print %x {hex = \"no\"}",
     "'tt.print' op attribute 'hex' must be true or false, got \"no\""},
    {"tt.assert", "    tt.assert %i", "'tt.assert' op condition must have i1 elements, got block<4xi32>"},
    {"tt.assert", "    tt.assert %c {message = 1}",
     "'tt.assert' op attribute 'message' must be a string, got 1"},
    {"gpu.barrier",
     R"(    %s = tt.reduce %x {axis = 0} : f32 ({
    ^(%l0: f32, %r0: f32):
      gpu.barrier
      %t = arith.addf %l0, %r0 : f32
      tt.reduce.return %t
    }))",
     "'gpu.barrier' op cannot be inside the combiner of 'tt.reduce'"},
    {"tt.elementwise_inline_asm",
     "    %r = tt.elementwise_inline_asm %i, %x {asm_string = \"add.s32 $0, $1, $2;\", constraints = \"=r,r,r\", "
     "packed_element = 1, pure = true} : block<8xi32>",
     "'tt.elementwise_inline_asm' op operand of type block<4xi32> does not have the shape of the result block<8xi32>"},
};

verify_test::Register registerValid(kValid), registerInvalid(kInvalid);

} // namespace

TEST_CASE("hints and debugging ops: valid samples pass") { verify_test::runCases(kValid); }

TEST_CASE("hints and debugging ops: invalid samples give the expected message") {
  verify_test::runCases(kInvalid);
}
