// Verifier rules of the ops that make and reshape blocks.

#include "VerifyTestUtil.h"

using verify_test::Case;

namespace {

const Case kValid[] = {
    {"tt.get_program_id", "    %r = tt.get_program_id {axis = 2} : i32", ""},
    {"tt.get_num_programs", "    %r = tt.get_num_programs {axis = 0} : i32", ""},
    {"tt.make_range", "    %r = tt.make_range {end = 1024, start = 0} : block<1024xi32>", ""},
    {"tt.make_range", "    %r = tt.make_range {end = 24, start = 8} : block<16xi32>", ""},
    {"arith.constant", "    %r = arith.constant {value = 1.5} : block<4x8xf32>", ""},
    {"arith.constant", "    %r = arith.constant {value = -128} : i8", ""},
    {"arith.constant", "    %r = arith.constant {value = 255} : block<2xi8>", ""},
    {"arith.constant", "    %r = arith.constant {value = true} : block<4xi1>", ""},
    {"arith.constant", "    %r = arith.constant {value = -inf} : bf16", ""},
    {"tt.splat", "    %r = tt.splat %n : block<4x8xi32>", ""},
    {"tt.splat", "    %r = tt.splat %p : block<4xptr<f32>>", ""},
    {"tt.broadcast",
     "    %e = tt.expand_dims %x {axis = 1} : block<4x1xf32>\n"
     "    %r = tt.broadcast %e : block<4x8xf32>",
     ""},
    {"tt.expand_dims", "    %r = tt.expand_dims %x2 {axis = 2} : block<4x8x1xf32>", ""},
    {"tt.reshape", "    %r = tt.reshape %x2 {allow_reorder = true} : block<2x2x8xf32>", ""},
    {"tt.reshape", "    %r = tt.reshape %x2 : block<32xf32>", ""},
    {"tt.trans", "    %r = tt.trans %x2 {order = [1, 0]} : block<8x4xf32>", ""},
    {"tt.join", "    %r = tt.join %x, %y : block<4x2xf32>", ""},
    {"tt.join", "    %r = tt.join %f, %f : block<2xf32>", ""},
    {"tt.split",
     "    %jn = tt.join %x, %y : block<4x2xf32>\n    %r, %s = tt.split %jn : block<4xf32>, block<4xf32>", ""},
    {"tt.split", "    %jn = tt.join %n, %n : block<2xi32>\n    %r, %s = tt.split %jn : i32, i32", ""},
    {"tt.cat", "    %r = tt.cat %x2, %x2 : block<8x8xf32>", ""},
};

const Case kInvalid[] = {
    {"tt.get_program_id", "    %r = tt.get_program_id {axis = 3} : i32",
     "'tt.get_program_id' op attribute 'axis' must be 0, 1 or 2, got 3"},
    {"tt.get_program_id", "    %r = tt.get_program_id : i32",
     "'tt.get_program_id' op requires integer attribute 'axis'"},
    {"tt.get_num_programs", "    %r = tt.get_num_programs {axis = 1} : i64",
     "'tt.get_num_programs' op result type must be i32, got i64"},
    {"tt.make_range", "    %r = tt.make_range {end = 12, start = 0} : block<16xi32>",
     "'tt.make_range' op range has 12 elements, which is not a power of two"},
    {"tt.make_range", "    %r = tt.make_range {end = 4, start = 4} : block<4xi32>",
     "'tt.make_range' op attribute 'end' (4) must be greater than 'start' (4)"},
    {"tt.make_range", "    %r = tt.make_range {end = 8, start = -8} : block<16xi32>",
     "'tt.make_range' op range [-8, 8) must lie within [0, 2^31]"},
    {"tt.make_range", "    %r = tt.make_range {end = 16, start = 0} : block<16xi64>",
     "'tt.make_range' op result type must be block<16xi32>, got block<16xi64>"},
    {"tt.make_range", "    %r = tt.make_range {end = 16.0, start = 0} : block<16xi32>",
     "'tt.make_range' op attribute 'end' must be an integer, got 16.0"},
    {"arith.constant", "    %r = arith.constant {value = 1} : f32",
     "'arith.constant' op attribute 'value' must be a float for f32, got 1"},
    {"arith.constant", "    %r = arith.constant {value = 1.0} : block<4xi32>",
     "'arith.constant' op attribute 'value' must be an integer for block<4xi32>, got 1.0"},
    {"arith.constant", "    %r = arith.constant {value = 1} : i1",
     "'arith.constant' op attribute 'value' must be true or false for i1, got 1"},
    {"arith.constant", "    %r = arith.constant {value = 256} : i8",
     "'arith.constant' op value 256 does not fit in i8"},
    {"arith.constant", "    %r = arith.constant : i32", "'arith.constant' op requires attribute 'value'"},
    {"arith.constant", "    %r = arith.constant {value = 0} : ptr<f32>",
     "'arith.constant' op result must have integer or float elements, got ptr<f32>"},
    {"tt.splat", "    %r = tt.splat %n : block<4xi64>",
     "'tt.splat' op result elements must have the operand's type i32, got block<4xi64>"},
    {"tt.splat", "    %r = tt.splat %x : block<4xf32>",
     "'tt.splat' op operand must be a scalar, got block<4xf32>"},
    {"tt.splat", "    %r = tt.splat %n : i32", "'tt.splat' op result must be a block, got i32"},
    {"tt.broadcast", "    %r = tt.broadcast %x : block<4x8xf32>",
     "'tt.broadcast' op operand and result must have one rank, got block<4xf32> and block<4x8xf32>"},
    {"tt.broadcast", "    %r = tt.broadcast %x2 : block<8x8xf32>",
     "'tt.broadcast' op cannot broadcast block<4x8xf32> to block<8x8xf32>: dimension 0 is neither equal nor "
     "1"},
    {"tt.broadcast", "    %r = tt.broadcast %x : block<4xf16>",
     "'tt.broadcast' op result element type must be f32, got block<4xf16>"},
    {"tt.expand_dims", "    %r = tt.expand_dims %x {axis = 2} : block<4x1xf32>",
     "'tt.expand_dims' op attribute 'axis' must be in [0, 1], got 2"},
    {"tt.expand_dims", "    %r = tt.expand_dims %x {axis = 0} : block<4x1xf32>",
     "'tt.expand_dims' op result type must be block<1x4xf32>, got block<4x1xf32>"},
    {"tt.expand_dims", "    %r = tt.expand_dims %f {axis = 0} : block<1xf32>",
     "'tt.expand_dims' op operand must be a block, got f32"},
    {"tt.reshape", "    %r = tt.reshape %x2 : block<64xf32>",
     "'tt.reshape' op cannot reshape block<4x8xf32> to block<64xf32>: element counts differ"},
    {"tt.reshape", "    %r = tt.reshape %x2 {allow_reorder = 1} : block<32xf32>",
     "'tt.reshape' op attribute 'allow_reorder' must be true or false, got 1"},
    {"tt.reshape", "    %r = tt.reshape %x2 : block<32xi32>",
     "'tt.reshape' op result element type must be f32, got block<32xi32>"},
    {"tt.trans", "    %r = tt.trans %x2 {order = [1, 1]} : block<8x4xf32>",
     "'tt.trans' op attribute 'order' must be a permutation of 0..1, got [1, 1]"},
    {"tt.trans", "    %r = tt.trans %x2 {order = [0, 1]} : block<8x4xf32>",
     "'tt.trans' op result type must be block<4x8xf32>, got block<8x4xf32>"},
    {"tt.trans", "    %r = tt.trans %x2 : block<8x4xf32>",
     "'tt.trans' op requires integer array attribute 'order'"},
    {"tt.join", "    %r = tt.join %x, %i : block<4x2xf32>",
     "'tt.join' op operand types must match, got block<4xf32> and block<4xi32>"},
    {"tt.join", "    %r = tt.join %x, %y : block<2x4xf32>",
     "'tt.join' op result type must be block<4x2xf32>, got block<2x4xf32>"},
    {"tt.split", "    %r, %s = tt.split %x2 : block<4xf32>, block<4xf32>",
     "'tt.split' op operand's last dimension must be 2, got block<4x8xf32>"},
    {"tt.split",
     "    %jn = tt.join %x, %y : block<4x2xf32>\n    %r, %s = tt.split %jn : block<4xf32>, block<4xf16>",
     "'tt.split' op result #1 type must be block<4xf32>, got block<4xf16>"},
    {"tt.cat", "    %r = tt.cat %x, %y : block<4xf32>",
     "'tt.cat' op result type must be block<8xf32>, got block<4xf32>"},
    {"tt.cat", "    %r = tt.cat %x, %i : block<8xf32>",
     "'tt.cat' op operand types must match, got block<4xf32> and block<4xi32>"},
    {"tt.cat", "    %r = tt.cat %f, %f : block<2xf32>", "'tt.cat' op operand must be a block, got f32"},
};

verify_test::Register registerValid(kValid), registerInvalid(kInvalid);

} // namespace

TEST_CASE("block construction ops: valid samples pass") { verify_test::runCases(kValid); }

TEST_CASE("block construction ops: invalid samples give the expected message") {
  verify_test::runCases(kInvalid);
}
