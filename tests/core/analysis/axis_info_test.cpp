// Axis info on small kernels written as IR text: seeds, arithmetic, masks, modulo
// wrap, division, hints and assumptions.
#include "AxisTestUtil.h"

using namespace trident;
using namespace trident::testing;

TEST_CASE("vector add: pid * BLOCK + arange is contiguous and BLOCK-aligned") {
  Analyzed a = analyzeKernel("%0: ptr<f32>, %1: ptr<f32>, %2: i32", "[16, 16, 16]", R"(
    %3 = tt.get_program_id {axis = 0} : i32
    %4 = arith.constant {value = 1024} : i32
    %5 = arith.muli %3, %4 : i32
    %6 = tt.make_range {end = 1024, start = 0} : block<1024xi32>
    %7 = tt.splat %5 : block<1024xi32>
    %8 = arith.addi %7, %6 : block<1024xi32>
    %9 = tt.splat %2 : block<1024xi32>
    %10 = arith.cmpi %8, %9 {predicate = "slt"} : block<1024xi1>
    %11 = tt.splat %0 : block<1024xptr<f32>>
    %12 = tt.addptr %11, %8 : block<1024xptr<f32>>
    %13 = tt.load %12, %10 : block<1024xf32>
    %14 = tt.splat %1 : block<1024xptr<f32>>
    %15 = tt.addptr %14, %8 : block<1024xptr<f32>>
    tt.store %15, %13, %10
)");
  CHECK(a.str(0) == "div=[16] contig=[1] const=[1]");
  CHECK(a.str(3) == "div=[1] contig=[1] const=[1]");
  CHECK(a.str(4) == "div=[1024] contig=[1] const=[1] value=1024");
  CHECK(a.str(5) == "div=[1024] contig=[1] const=[1]");
  CHECK(a[6].divisibility(0) == kMax);
  CHECK(a[6].contiguity(0) == 1024);
  CHECK(a.str(7) == "div=[1024] contig=[1] const=[1024]");
  CHECK(a.str(8) == "div=[1024] contig=[1024] const=[1]");
  CHECK(a[8].nonNegative());
  // n is a multiple of 16, so the mask flips only at multiples of 16.
  CHECK(a.str(10) == "div=[1] contig=[1] const=[16]");
  CHECK(a.str(12) == "div=[16] contig=[1024] const=[1]");
  CHECK(a.vectorWidth(12) == 4);
  CHECK(a.vectorWidth(12, 10) == 4);
  CHECK(a.vectorWidth(15, 10) == 4);
}

TEST_CASE("vector add without specialization: unknown n limits the mask, not the pointer") {
  Analyzed a = analyzeKernel("%0: ptr<f32>, %1: i32", "", R"(
    %2 = tt.get_program_id {axis = 0} : i32
    %3 = arith.constant {value = 256} : i32
    %4 = arith.muli %2, %3 : i32
    %5 = tt.make_range {end = 256, start = 0} : block<256xi32>
    %6 = tt.splat %4 : block<256xi32>
    %7 = arith.addi %6, %5 : block<256xi32>
    %8 = tt.splat %1 : block<256xi32>
    %9 = arith.cmpi %7, %8 {predicate = "slt"} : block<256xi1>
    %10 = tt.splat %0 : block<256xptr<f32>>
    %11 = tt.addptr %10, %7 : block<256xptr<f32>>
)");
  // A pointer without divisibility is only assumed aligned to its element.
  CHECK(a.str(0) == "div=[4] contig=[1] const=[1]");
  CHECK(a.str(9) == "div=[1] contig=[1] const=[1]");
  CHECK(a.str(11) == "div=[4] contig=[256] const=[1]");
  CHECK(a.vectorWidth(11) == 1);
  CHECK(a.vectorWidth(11, 9) == 1);
}

TEST_CASE("seeds: constants, ranges, program ids and argument divisibility") {
  Analyzed a =
      analyzeKernel("%0: ptr<f16>, %1: ptr<f64>, %2: i32, %3: i64, %4: ptr<i8>", "[1, 32, 16, 8, 64]", R"(
    %5 = arith.constant {value = 48} : i32
    %6 = arith.constant {value = 0} : block<4x8xi32>
    %7 = arith.constant {value = -12} : i64
    %8 = arith.constant {value = 1.5} : block<16xf32>
    %9 = tt.make_range {end = 12, start = 4} : block<8xi32>
    %10 = tt.make_range {end = 7, start = 6} : block<1xi32>
    %11 = tt.get_num_programs {axis = 1} : i32
    %12 = arith.constant {value = true} : block<8xi1>
)");
  CHECK(a.str(0) == "div=[2] contig=[1] const=[1]"); // 1 = unknown: element alignment
  CHECK(a.str(1) == "div=[32] contig=[1] const=[1]");
  CHECK(a.str(2) == "div=[16] contig=[1] const=[1]");
  CHECK(a.str(3) == "div=[8] contig=[1] const=[1]");
  CHECK(a.str(4) == "div=[64] contig=[1] const=[1]");
  CHECK(a.str(5) == "div=[16] contig=[1] const=[1] value=48");
  CHECK(a[6].divisibility() == AxisInfo::DimVector{kMax, kMax});
  CHECK(a[6].constancy() == AxisInfo::DimVector{4, 8});
  CHECK(a[6].constantValue() == 0);
  CHECK(a.str(7) == "div=[4] contig=[1] const=[1] value=-12");
  CHECK(!a[7].nonNegative());
  CHECK(a.str(8) == "div=[1] contig=[1] const=[16]");
  CHECK(a.str(9) == "div=[4] contig=[8] const=[1]");
  CHECK(a.str(10) == "div=[2] contig=[1] const=[1] value=6");
  CHECK(a.str(11) == "div=[1] contig=[1] const=[1]");
  CHECK(a[11].nonNegative());
  CHECK(a.str(12) == "div=[1] contig=[1] const=[8] value=1");
}

TEST_CASE("constant folding follows the integer width") {
  Analyzed a = analyzeKernel("%0: i32", "", R"(
    %1 = arith.constant {value = 6} : i32
    %2 = arith.constant {value = 8} : i32
    %3 = arith.muli %1, %2 : i32
    %4 = arith.addi %3, %1 : i32
    %5 = arith.constant {value = 2147483647} : i32
    %6 = arith.addi %5, %1 : i32
    %7 = arith.cmpi %1, %2 {predicate = "slt"} : i1
    %8 = arith.constant {value = 0} : i32
    %9 = arith.divsi %1, %8 : i32
    %10 = arith.muli %0, %8 : i32
    %11 = arith.shli %1, %2 : i32
    %12 = arith.constant {value = 200} : i8
    %13 = arith.extui %12 : i32
)");
  CHECK(a[3].constantValue() == 48);
  CHECK(a.str(4) == "div=[2] contig=[1] const=[1] value=54");
  CHECK(a[6].constantValue() == -2147483643); // wraps at 32 bits
  CHECK(a[7].constantValue() == 1);
  CHECK(!a[9].constantValue()); // division by zero folds to nothing
  CHECK(a[10].constantValue() == 0);
  CHECK(a[11].constantValue() == 6 << 8);
  CHECK(a[12].constantValue() == -56);
  CHECK(a[13].constantValue() == 200);
}

TEST_CASE("masks: slt and sge against aligned bounds keep constancy, sle and eq do not") {
  Analyzed a = analyzeKernel("%0: i32, %1: i32", "[16, 1]", R"(
    %2 = tt.make_range {end = 128, start = 0} : block<128xi32>
    %3 = tt.splat %0 : block<128xi32>
    %4 = arith.cmpi %2, %3 {predicate = "slt"} : block<128xi1>
    %5 = arith.cmpi %2, %3 {predicate = "sge"} : block<128xi1>
    %6 = arith.cmpi %2, %3 {predicate = "sle"} : block<128xi1>
    %7 = arith.cmpi %2, %3 {predicate = "eq"} : block<128xi1>
    %8 = arith.cmpi %3, %2 {predicate = "sgt"} : block<128xi1>
    %9 = arith.cmpi %3, %2 {predicate = "slt"} : block<128xi1>
    %10 = arith.cmpi %2, %3 {predicate = "ult"} : block<128xi1>
    %11 = tt.splat %1 : block<128xi32>
    %12 = arith.cmpi %2, %11 {predicate = "slt"} : block<128xi1>
    %13 = arith.andi %4, %12 : block<128xi1>
    %14 = arith.constant {value = 64} : block<128xi32>
    %15 = arith.cmpi %2, %14 {predicate = "slt"} : block<128xi1>
    %16 = arith.andi %4, %15 : block<128xi1>
)");
  CHECK(a[4].constancy(0) == 16);
  CHECK(a[5].constancy(0) == 16);
  CHECK(a[6].constancy(0) == 1); // flips at n + 1
  CHECK(a[7].constancy(0) == 1);
  CHECK(a[8].constancy(0) == 16); // n > x  is  x < n
  CHECK(a[9].constancy(0) == 1);  // n < x  is  x > n
  CHECK(a[10].constancy(0) == 16);
  CHECK(a[12].constancy(0) == 1); // bound of unknown divisibility
  CHECK(a[13].constancy(0) == 1);
  CHECK(a[15].constancy(0) == 64);
  CHECK(a[16].constancy(0) == 16);
}

TEST_CASE("2-D mask from a row bound is constant along the columns") {
  Analyzed a = analyzeKernel("%0: i32", "[16]", R"(
    %1 = tt.make_range {end = 64, start = 0} : block<64xi32>
    %2 = tt.expand_dims %1 {axis = 1} : block<64x1xi32>
    %3 = tt.splat %0 : block<64x1xi32>
    %4 = arith.cmpi %2, %3 {predicate = "slt"} : block<64x1xi1>
    %5 = tt.broadcast %4 : block<64x32xi1>
    %6 = tt.make_range {end = 32, start = 0} : block<32xi32>
    %7 = tt.expand_dims %6 {axis = 0} : block<1x32xi32>
    %8 = tt.splat %0 : block<1x32xi32>
    %9 = arith.cmpi %7, %8 {predicate = "slt"} : block<1x32xi1>
    %10 = tt.broadcast %9 : block<64x32xi1>
    %11 = arith.andi %5, %10 : block<64x32xi1>
)");
  CHECK(a.str(2) == "div=[4611686018427387904, 1] contig=[64, 1] const=[1, 1]");
  CHECK(a[4].constancy() == AxisInfo::DimVector{16, 1});
  CHECK(a[5].constancy() == AxisInfo::DimVector{16, 32});
  CHECK(a[10].constancy() == AxisInfo::DimVector{64, 16});
  CHECK(a[11].constancy() == AxisInfo::DimVector{16, 16});
}

TEST_CASE("modulo wrap keeps contiguity only up to the divisor's alignment") {
  Analyzed a = analyzeKernel("%0: i32, %1: i32, %2: i32", "[16, 1, 1]", R"(
    %3 = tt.make_range {end = 128, start = 0} : block<128xi32>
    %4 = tt.splat %0 : block<128xi32>
    %5 = arith.remsi %3, %4 : block<128xi32>
    %6 = tt.splat %1 : block<128xi32>
    %7 = arith.remsi %3, %6 : block<128xi32>
    %8 = arith.constant {value = 64} : block<128xi32>
    %9 = arith.remsi %3, %8 : block<128xi32>
    %10 = arith.constant {value = 48} : block<128xi32>
    %11 = arith.remui %3, %10 : block<128xi32>
    %12 = arith.constant {value = 63} : block<128xi32>
    %13 = arith.andi %3, %12 : block<128xi32>
    %14 = arith.constant {value = 1000} : block<128xi32>
    %15 = arith.remsi %3, %14 : block<128xi32>
    %16 = arith.constant {value = 3} : block<128xi32>
    %17 = arith.addi %3, %16 : block<128xi32>
    %18 = arith.remsi %17, %8 : block<128xi32>
)");
  CHECK(a.str(5) == "div=[16] contig=[16] const=[1]");
  CHECK(a.str(7) == "div=[1] contig=[1] const=[1]");
  CHECK(a.str(9) == "div=[64] contig=[64] const=[1]");
  CHECK(a.str(11) == "div=[16] contig=[16] const=[1]");
  CHECK(a.str(13) == "div=[64] contig=[64] const=[1]");
  CHECK(a[15].contiguity(0) == 8); // 1000 = 8 * 125
  CHECK(a[17].divisibility(0) == 1);
  CHECK(a[18].contiguity(0) == 1); // 3 + arange wraps at 61 -> 0
}

TEST_CASE("signed remainder and division need a non-negative dividend; tt.assume gives one") {
  Analyzed a = analyzeKernel("%0: i32", "[16]", R"(
    %1 = tt.make_range {end = 64, start = 0} : block<64xi32>
    %2 = tt.splat %0 : block<64xi32>
    %3 = arith.addi %2, %1 : block<64xi32>
    %4 = arith.constant {value = 32} : block<64xi32>
    %5 = arith.remsi %3, %4 : block<64xi32>
    %6 = arith.remui %3, %4 : block<64xi32>
    %7 = arith.divsi %3, %4 : block<64xi32>
)");
  // %0 may be negative: -16..47 % 32 is not contiguous across -1 -> 0.
  CHECK(a[5].contiguity(0) == 1);
  CHECK(a[6].contiguity(0) == 16);
  CHECK(a[7].constancy(0) == 1);

  Analyzed b = analyzeKernel("%0: i32", "[16]", R"(
    %1 = arith.constant {value = 0} : i32
    %2 = arith.cmpi %0, %1 {predicate = "sge"} : i1
    tt.assume %2
    %3 = tt.make_range {end = 64, start = 0} : block<64xi32>
    %4 = tt.splat %0 : block<64xi32>
    %5 = arith.addi %4, %3 : block<64xi32>
    %6 = arith.constant {value = 32} : block<64xi32>
    %7 = arith.remsi %5, %6 : block<64xi32>
    %8 = arith.divsi %5, %6 : block<64xi32>
)");
  CHECK(b[0].nonNegative());
  CHECK(b[7].contiguity(0) == 16);
  CHECK(b[8].constancy(0) == 16);
}

TEST_CASE("tt.assume of a remainder gives divisibility, only in its own block") {
  Analyzed a = analyzeKernel("%0: i32, %1: i32, %2: i1", "", R"(
    %3 = arith.constant {value = 16} : i32
    %4 = arith.remsi %0, %3 : i32
    %5 = arith.constant {value = 0} : i32
    %6 = arith.cmpi %4, %5 {predicate = "eq"} : i1
    tt.assume %6
    %7 = arith.remsi %1, %3 : i32
    %8 = arith.cmpi %7, %5 {predicate = "eq"} : i1
    scf.if %2 ({
      tt.assume %8
      scf.yield
    }, {})
    %9 = arith.constant {value = 7} : i32
    %10 = arith.andi %1, %9 : i32
    %11 = arith.cmpi %5, %10 {predicate = "eq"} : i1
    tt.assume %11
)");
  CHECK(a[0].divisibility(0) == 16);
  // The remainder test on %1 only holds inside the if; the mask test holds everywhere.
  CHECK(a[1].divisibility(0) == 8);
}

TEST_CASE("division and shifts by aligned divisors make runs of equal values") {
  Analyzed a = analyzeKernel("%0: i32", "[16]", R"(
    %1 = tt.make_range {end = 128, start = 0} : block<128xi32>
    %2 = arith.constant {value = 4} : block<128xi32>
    %3 = arith.divsi %1, %2 : block<128xi32>
    %4 = arith.constant {value = 3} : block<128xi32>
    %5 = arith.shrsi %1, %4 : block<128xi32>
    %6 = tt.splat %0 : block<128xi32>
    %7 = arith.divui %1, %6 : block<128xi32>
    %8 = arith.shli %1, %2 : block<128xi32>
    %9 = arith.constant {value = 256} : i32
    %10 = arith.constant {value = 2} : i32
    %11 = arith.divsi %9, %10 : i32
    %12 = arith.muli %0, %9 : i32
    %13 = arith.shrui %12, %10 : i32
    %14 = arith.constant {value = 1} : block<128xi32>
    %15 = arith.divsi %1, %14 : block<128xi32>
)");
  CHECK(a.str(3) == "div=[1] contig=[1] const=[4]");
  CHECK(a.str(5) == "div=[1] contig=[1] const=[8]");
  CHECK(a.str(7) == "div=[1] contig=[1] const=[16]");
  CHECK(a.str(8) == "div=[16] contig=[1] const=[1]");
  CHECK(a[11].constantValue() == 128);
  CHECK(a.str(13) == "div=[1024] contig=[1] const=[1]");
  CHECK(a[15] == a[1]);
}

TEST_CASE("hints override what the analysis found") {
  Analyzed a = analyzeKernel("%0: ptr<f32>, %1: ptr<i32>", "[16, 16]", R"(
    %2 = tt.make_range {end = 64, start = 0} : block<64xi32>
    %3 = tt.splat %1 : block<64xptr<i32>>
    %4 = tt.addptr %3, %2 : block<64xptr<i32>>
    %5 = tt.load %4 : block<64xi32>
    %6 = tt.multiple_of %5 {values = [8]} : block<64xi32>
    %7 = tt.max_contiguous %6 {values = [8]} : block<64xi32>
    %8 = tt.splat %0 : block<64xptr<f32>>
    %9 = tt.addptr %8, %7 : block<64xptr<f32>>
    %10 = tt.addptr %8, %5 : block<64xptr<f32>>
    %11 = tt.max_contiguous %5 {values = [1000]} : block<64xi32>
    %12 = tt.expand_dims %2 {axis = 0} : block<1x64xi32>
    %13 = tt.broadcast %12 : block<4x64xi32>
    %14 = tt.multiple_of %13 {values = [1, 32]} : block<4x64xi32>
)");
  CHECK(a.str(5) == "div=[1] contig=[1] const=[1]");
  CHECK(a.str(6) == "div=[8] contig=[1] const=[1]");
  CHECK(a.str(7) == "div=[8] contig=[8] const=[1]");
  CHECK(a.str(9) == "div=[16] contig=[8] const=[1]");
  CHECK(a.vectorWidth(9) == 4);
  CHECK(a.vectorWidth(10) == 1);
  CHECK(a[11].contiguity(0) == 64); // clamped to the dimension
  CHECK(a[14].divisibility() == AxisInfo::DimVector{1, 32});
  CHECK(a[14].contiguity() == AxisInfo::DimVector{1, 64});
}

TEST_CASE("casts keep the bits; pointer casts that change the element drop contiguity") {
  Analyzed a = analyzeKernel("%0: ptr<f32>, %1: i32", "[16, 16]", R"(
    %2 = tt.make_range {end = 32, start = 0} : block<32xi32>
    %3 = tt.splat %1 : block<32xi32>
    %4 = arith.addi %3, %2 : block<32xi32>
    %5 = arith.extsi %4 : block<32xi64>
    %6 = arith.trunci %5 : block<32xi16>
    %7 = tt.splat %0 : block<32xptr<f32>>
    %8 = tt.addptr %7, %5 : block<32xptr<f32>>
    %9 = tt.bitcast %8 : block<32xptr<i32>>
    %10 = tt.bitcast %8 : block<32xptr<f16>>
    %11 = tt.ptr_to_int %8 : block<32xi64>
    %12 = arith.sitofp %4 : block<32xf32>
    %13 = arith.extui %1 : i64
)");
  CHECK(a.str(5) == "div=[16] contig=[32] const=[1]");
  CHECK(a.str(6) == "div=[16] contig=[32] const=[1]");
  CHECK(a.str(8) == "div=[16] contig=[32] const=[1]");
  CHECK(a.str(9) == "div=[16] contig=[32] const=[1]");
  CHECK(a.str(10) == "div=[16] contig=[1] const=[1]");
  CHECK(a.str(11) == "div=[16] contig=[1] const=[1]");
  CHECK(a.str(12) == "div=[1] contig=[1] const=[1]");
  CHECK(a[13].nonNegative());
}
