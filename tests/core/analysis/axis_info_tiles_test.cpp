// Axis info of 2-D pointer tiles, loops with loop-carried pointers, branches, shape
// ops, and the vector widths the lowering reads from it.
#include "AxisTestUtil.h"

#include <functional>

using namespace trident;
using namespace trident::testing;

namespace {

// A matmul-style loop over K: a 64x32 tile of A (row-major, stride_am a multiple of 16)
// advanced by `step` elements each iteration.
std::string matmulKernel(int step) {
  return kernelText("%0: ptr<f16>, %1: i32, %2: i32", "[16, 16, 16]", R"(
    %3 = tt.get_program_id {axis = 0} : i32
    %4 = arith.constant {value = 64} : i32
    %5 = arith.muli %3, %4 : i32
    %6 = tt.make_range {end = 64, start = 0} : block<64xi32>
    %7 = tt.splat %5 : block<64xi32>
    %8 = arith.addi %7, %6 : block<64xi32>
    %9 = tt.make_range {end = 32, start = 0} : block<32xi32>
    %10 = tt.expand_dims %8 {axis = 1} : block<64x1xi32>
    %11 = tt.splat %1 : block<64x1xi32>
    %12 = arith.muli %10, %11 : block<64x1xi32>
    %13 = tt.expand_dims %9 {axis = 0} : block<1x32xi32>
    %14 = tt.broadcast %12 : block<64x32xi32>
    %15 = tt.broadcast %13 : block<64x32xi32>
    %16 = arith.addi %14, %15 : block<64x32xi32>
    %17 = tt.splat %0 : block<64x32xptr<f16>>
    %18 = tt.addptr %17, %16 : block<64x32xptr<f16>>
    %19 = arith.constant {value = 0} : i32
    %20 = arith.constant {value = 32} : i32
    %21 = arith.constant {value = 0.0} : block<64x32xf32>
    %22 = arith.constant {value = )" + std::to_string(step) + R"(} : block<64x32xi32>
    %23, %24 = scf.for %19, %2, %20, %18, %21 : block<64x32xptr<f16>>, block<64x32xf32> ({
    ^(%25: i32, %26: block<64x32xptr<f16>>, %27: block<64x32xf32>):
      %28 = tt.load %26 : block<64x32xf16>
      %29 = arith.extf %28 : block<64x32xf32>
      %30 = arith.addf %27, %29 : block<64x32xf32>
      %31 = tt.addptr %26, %22 : block<64x32xptr<f16>>
      scf.yield %31, %30
    })
)");
}

} // namespace

TEST_CASE("matmul tile: row-major offsets are contiguous along the columns") {
  Analyzed a = analyzeText(matmulKernel(32));
  CHECK(a.str(8) == "div=[64] contig=[64] const=[1]");
  CHECK(a.str(10) == "div=[64, 1] contig=[64, 1] const=[1, 1]");
  CHECK(a.str(12) == "div=[16, 16] contig=[1, 1] const=[1, 1]");
  CHECK(a.str(14) == "div=[16, 16] contig=[1, 1] const=[1, 32]");
  CHECK(a.str(15) == "div=[1, 4611686018427387904] contig=[1, 32] const=[64, 1]");
  CHECK(a.str(16) == "div=[1, 16] contig=[1, 32] const=[1, 1]");
  // Along the rows every address is only known to be element-aligned.
  CHECK(a.str(18) == "div=[2, 16] contig=[1, 32] const=[1, 1]");
  CHECK(a.analysis->contiguityOrder(a.value(18)) == std::vector<unsigned>{1, 0});
  CHECK(a.vectorWidth(18) == 8);
  CHECK(a.vectorWidth(18, -1, 8) == 4);
  CHECK(a.vectorWidth(18, -1, 16, 0) == 1);
}

TEST_CASE("loop-carried pointer increments: aligned steps keep the vector width") {
  Analyzed a = analyzeText(matmulKernel(32));
  CHECK(a.str(25) == "div=[32] contig=[1] const=[1]"); // k = 0 + i * 32
  CHECK(a[25].nonNegative());
  CHECK(a.str(26) == "div=[2, 16] contig=[1, 32] const=[1, 1]");
  CHECK(a.str(31) == "div=[2, 16] contig=[1, 32] const=[1, 1]");
  CHECK(a.str(23) == a.str(26));
  CHECK(a.vectorWidth(26) == 8);
  CHECK(a[27].constancy() == AxisInfo::DimVector{1, 1}); // the accumulator changes
  CHECK(a[21].constancy() == AxisInfo::DimVector{64, 32});
}

TEST_CASE("loop-carried pointer increments: a misaligned step lowers the carried alignment") {
  Analyzed a = analyzeText(matmulKernel(3));
  // Iteration 1 starts 16-byte aligned, iteration 2 is 6 bytes further: only 2-byte alignment holds.
  CHECK(a.str(26) == "div=[2, 2] contig=[1, 32] const=[1, 1]");
  CHECK(a.str(23) == "div=[2, 2] contig=[1, 32] const=[1, 1]");
  CHECK(a.vectorWidth(26) == 1);
  Analyzed b = analyzeText(matmulKernel(4));
  CHECK(b.vectorWidth(26) == 4); // 8-byte steps
}

TEST_CASE("column-major tile: contiguous along the rows") {
  Analyzed a = analyzeKernel("%0: ptr<f32>, %1: i32", "[16, 16]", R"(
    %2 = tt.make_range {end = 32, start = 0} : block<32xi32>
    %3 = tt.expand_dims %2 {axis = 1} : block<32x1xi32>
    %4 = tt.make_range {end = 16, start = 0} : block<16xi32>
    %5 = tt.expand_dims %4 {axis = 0} : block<1x16xi32>
    %6 = tt.splat %1 : block<1x16xi32>
    %7 = arith.muli %5, %6 : block<1x16xi32>
    %8 = tt.broadcast %3 : block<32x16xi32>
    %9 = tt.broadcast %7 : block<32x16xi32>
    %10 = arith.addi %8, %9 : block<32x16xi32>
    %11 = tt.splat %0 : block<32x16xptr<f32>>
    %12 = tt.addptr %11, %10 : block<32x16xptr<f32>>
    %13 = tt.trans %12 {order = [1, 0]} : block<16x32xptr<f32>>
)");
  CHECK(a.str(10) == "div=[16, 1] contig=[32, 1] const=[1, 1]");
  CHECK(a.str(12) == "div=[16, 4] contig=[32, 1] const=[1, 1]");
  CHECK(a.analysis->contiguityOrder(a.value(12)) == std::vector<unsigned>{0, 1});
  CHECK(a.vectorWidth(12) == 4);
  CHECK(a.str(13) == "div=[4, 16] contig=[1, 32] const=[1, 1]");
  CHECK(a.vectorWidth(13) == 4);
}

TEST_CASE("misaligned and partially aligned offsets") {
  Analyzed a = analyzeKernel("%0: ptr<f32>, %1: ptr<f16>, %2: ptr<i8>", "[16, 16, 16]", R"(
    %3 = tt.make_range {end = 128, start = 0} : block<128xi32>
    %4 = arith.constant {value = 1} : block<128xi32>
    %5 = arith.addi %3, %4 : block<128xi32>
    %6 = tt.splat %0 : block<128xptr<f32>>
    %7 = tt.addptr %6, %5 : block<128xptr<f32>>
    %8 = arith.constant {value = 4} : block<128xi32>
    %9 = arith.addi %3, %8 : block<128xi32>
    %10 = tt.splat %1 : block<128xptr<f16>>
    %11 = tt.addptr %10, %9 : block<128xptr<f16>>
    %12 = tt.splat %2 : block<128xptr<i8>>
    %13 = tt.addptr %12, %3 : block<128xptr<i8>>
    %14 = tt.addptr %6, %3 : block<128xptr<f32>>
)");
  CHECK(a.str(7) == "div=[4] contig=[128] const=[1]");
  CHECK(a.vectorWidth(7) == 1);
  CHECK(a.str(11) == "div=[8] contig=[128] const=[1]");
  CHECK(a.vectorWidth(11) == 4);
  CHECK(a.vectorWidth(13) == 16);
  CHECK(a.vectorWidth(13, -1, 4) == 4);
  CHECK(a.vectorWidth(14, -1, 32) == 4);           // alignment, not the byte limit, stops at 16 bytes
  CHECK(a.vectorWidth(3) == 1);                    // not a pointer
  CHECK(a.analysis->vectorWidth(a.value(0)) == 1); // a scalar pointer
}

TEST_CASE("scf.if results meet both branches") {
  Analyzed a = analyzeKernel("%0: ptr<f32>, %1: i1", "[16, 1]", R"(
    %2 = tt.make_range {end = 64, start = 0} : block<64xi32>
    %3 = tt.splat %0 : block<64xptr<f32>>
    %4 = tt.addptr %3, %2 : block<64xptr<f32>>
    %5 = scf.if %1 : block<64xptr<f32>> ({
      scf.yield %4
    }, {
      %6 = arith.constant {value = 2} : block<64xi32>
      %7 = tt.addptr %4, %6 : block<64xptr<f32>>
      scf.yield %7
    })
    %8 = arith.constant {value = true} : i1
    %9 = scf.if %8 : block<64xptr<f32>> ({
      scf.yield %4
    }, {
      %10 = arith.constant {value = 1} : block<64xi32>
      %11 = tt.addptr %4, %10 : block<64xptr<f32>>
      scf.yield %11
    })
)");
  CHECK(a.str(5) == "div=[8] contig=[64] const=[1]");
  CHECK(a.vectorWidth(5) == 2);
  CHECK(a.str(9) == "div=[16] contig=[64] const=[1]"); // the condition is known
}

TEST_CASE("scf.while: loop-carried counters reach a fixpoint") {
  Analyzed a = analyzeKernel("%0: i32", "", R"(
    %1 = arith.constant {value = 0} : i32
    %2 = arith.constant {value = 16} : i32
    %3 = arith.constant {value = 1} : i32
    %4, %5 = scf.while %1, %1 : i32, i32 ({
    ^(%6: i32, %7: i32):
      %8 = arith.cmpi %6, %0 {predicate = "slt"} : i1
      scf.condition %8, %6, %7
    }, {
    ^(%9: i32, %10: i32):
      %11 = arith.addi %9, %2 : i32
      %12 = arith.addi %10, %3 : i32
      scf.yield %11, %12
    })
)");
  CHECK(a.str(4) == "div=[16] contig=[1] const=[1]");
  CHECK(a[4].nonNegative());
  CHECK(a.str(5) == "div=[1] contig=[1] const=[1]");
  CHECK(!a[6].constantValue());
}

TEST_CASE("loop-carried values that rotate need several rounds; deep nests stay bounded") {
  Analyzed a = analyzeKernel("%0: i32", "", R"(
    %1 = arith.constant {value = 0} : i32
    %2 = arith.constant {value = 1} : i32
    %3 = arith.constant {value = 64} : i32
    %4, %5, %6 = scf.for %1, %0, %2, %1, %1, %1 : i32, i32, i32 ({
    ^(%7: i32, %8: i32, %9: i32, %10: i32):
      %11 = arith.addi %8, %3 : i32
      scf.yield %9, %10, %11
    })
)");
  for (unsigned v : {4u, 5u, 6u, 8u, 9u, 10u})
    CHECK(a.str(v) == "div=[64] contig=[1] const=[1]");

  // Five nested loops each carrying a counter stepped by 8: the outer three iterate to
  // their fixpoint, the deeper two take their carried values as unknown.
  std::string body = "    %1 = arith.constant {value = 0} : i32\n"
                     "    %2 = arith.constant {value = 1} : i32\n"
                     "    %3 = arith.constant {value = 8} : i32\n";
  unsigned next = 4;
  std::vector<unsigned> carried;
  auto name = [](unsigned n) { return "%" + std::to_string(n); };
  std::function<void(int, const std::string &)> nest = [&](int depth, const std::string &init) {
    std::string indent(4 + 2 * depth, ' ');
    unsigned result = next++, iv = next++, arg = next++;
    carried.push_back(arg);
    body += indent + name(result) + " = scf.for %1, %0, %2, " + init + " : i32 ({\n";
    body += indent + "^(" + name(iv) + ": i32, " + name(arg) + ": i32):\n";
    if (depth < 4)
      nest(depth + 1, name(arg));
    unsigned sum = next++;
    body += indent + "  " + name(sum) + " = arith.addi " + name(arg) + ", %3 : i32\n";
    body += indent + "  scf.yield " + name(sum) + "\n" + indent + "})\n";
  };
  nest(0, "%1");
  Analyzed b = analyzeKernel("%0: i32", "", body);
  CHECK(b[carried[0]].divisibility(0) == 8);
  CHECK(b[carried[2]].divisibility(0) == 8);
  CHECK(b[carried[3]].divisibility(0) == 1);
  CHECK(b[carried[4]].divisibility(0) == 1);
  CHECK(b[4].divisibility(0) == 8);
}

TEST_CASE("shape ops: trans permutes, reshape keeps exact facts only across unit dimensions") {
  Analyzed a = analyzeKernel("%0: i32", "", R"(
    %1 = tt.make_range {end = 32, start = 0} : block<32xi32>
    %2 = tt.expand_dims %1 {axis = 0} : block<1x32xi32>
    %3 = tt.broadcast %2 : block<16x32xi32>
    %4 = tt.trans %3 {order = [1, 0]} : block<32x16xi32>
    %5 = tt.reshape %2 : block<32x1xi32>
    %6 = tt.reshape %3 : block<512xi32>
    %7 = arith.constant {value = 5} : block<4x8xi32>
    %8 = tt.reshape %7 : block<32xi32>
    %9 = tt.join %1, %1 : block<32x2xi32>
    %10, %11 = tt.split %9 : block<32xi32>, block<32xi32>
    %12 = tt.cat %1, %1 : block<64xi32>
    %13 = tt.reshape %2 {allow_reorder = true} : block<32xi32>
)");
  CHECK(a.str(3) == "div=[1, 4611686018427387904] contig=[1, 32] const=[16, 1]");
  CHECK(a.str(4) == "div=[4611686018427387904, 1] contig=[32, 1] const=[1, 16]");
  CHECK(a.str(5) == "div=[4611686018427387904, 1] contig=[32, 1] const=[1, 1]");
  CHECK(a.str(6) == "div=[1] contig=[1] const=[1]");
  CHECK(a.str(8) == "div=[1] contig=[1] const=[32] value=5");
  CHECK(a.str(9) == "div=[4611686018427387904, 1] contig=[32, 1] const=[1, 1]");
  CHECK(a[10] == a[1]);
  CHECK(a[11] == a[1]);
  CHECK(a.str(12) == "div=[1] contig=[1] const=[1]");
  CHECK(a.str(13) == "div=[1] contig=[1] const=[1]");
}

TEST_CASE("combiner arguments, loads and calls are unknown; equal addresses load equal values") {
  Analyzed a = analyzeKernel("%0: ptr<i32>, %1: block<8xi32>", "[16, 1]", R"(
    %2 = tt.splat %0 : block<8xptr<i32>>
    %3 = tt.load %2 : block<8xi32>
    %4 = tt.make_range {end = 8, start = 0} : block<8xi32>
    %5 = tt.reduce %4 {axis = 0} : i32 ({
    ^(%6: i32, %7: i32):
      %8 = arith.addi %6, %7 : i32
      tt.reduce.return %8
    })
    %9 = tt.addptr %2, %4 : block<8xptr<i32>>
    %10 = tt.load %9 : block<8xi32>
    %11 = tt.load %0 : i32
)");
  CHECK(a.str(1) == "div=[1] contig=[1] const=[1]");
  CHECK(a.str(3) == "div=[1] contig=[1] const=[8]");
  CHECK(a.str(5) == "div=[1] contig=[1] const=[1]");
  CHECK(a.str(6) == "div=[1] contig=[1] const=[1]");
  CHECK(a.str(8) == "div=[1] contig=[1] const=[1]");
  CHECK(a.str(10) == "div=[1] contig=[1] const=[1]");
  CHECK(a.str(11) == "div=[1] contig=[1] const=[1]");
}

TEST_CASE("printAxisInfo numbers values as the printer does") {
  Analyzed a = analyzeKernel("%0: ptr<f32>, %1: i32", "[16, 16]", R"(
    %2 = tt.make_range {end = 4, start = 0} : block<4xi32>
    %3 = arith.constant {value = 0} : i32
    %4 = arith.constant {value = 4} : i32
    %5 = scf.for %3, %1, %4, %3 : i32 ({
    ^(%6: i32, %7: i32):
      %8 = arith.addi %7, %6 : i32
      scf.yield %8
    })
)");
  CHECK(printAxisInfo(a.module) ==
        "tt.func @k\n"
        "  %0 = arg : ptr<f32> div=[16] contig=[1] const=[1]\n"
        "  %1 = arg : i32 div=[16] contig=[1] const=[1]\n"
        "  %2 = tt.make_range : block<4xi32> div=[4611686018427387904] contig=[4] const=[1]\n"
        "  %3 = arith.constant : i32 div=[4611686018427387904] contig=[1] const=[1] value=0\n"
        "  %4 = arith.constant : i32 div=[4] contig=[1] const=[1] value=4\n"
        "  %5 = scf.for : i32 div=[4] contig=[1] const=[1]\n"
        "  scf.for {\n"
        "    %6 = arg : i32 div=[4] contig=[1] const=[1]\n"
        "    %7 = arg : i32 div=[4] contig=[1] const=[1]\n"
        "    %8 = arith.addi : i32 div=[4] contig=[1] const=[1]\n"
        "  }\n");
}
