// Dot layouts as linear layouts (DotLayout.h), swizzled shared arrangements
// (SharedLayout.h) and how layout assignment places dots: the accumulator layout flows
// to the store, operand layouts of a chained dot meet the accumulator of the first.
#include "../../../core/lib/simt/SharedLayout.h"
#include "NvidiaAtoms.h"
#include "SimtTestUtil.h"

#include "trident/simt/DotLayout.h"
#include "trident/simt/LayoutAssignment.h"

using namespace trident;
using namespace trident::simt;
using namespace trident::simt::test;

namespace {

TargetDesc nvidiaLike() {
  TargetDesc t = testTarget();
  t.matrixAtoms = nvidiaAtoms();
  t.emitsMatrixAtoms = true;
  t.ldmatrix = true;
  return t;
}

// C = A @ B for 64 x 64 tiles of `T`, all of it stored.
std::string dotKernel() {
  return R"(builtin.module ({
  tt.func {arg_divisibility = [16, 16, 16], sym_name = "dot"} ({
  ^(%a: ptr<T>, %b: ptr<T>, %c: ptr<f32>):
    %r = tt.make_range {end = 64, start = 0} : block<64xi32>
    %rows = tt.expand_dims %r {axis = 1} : block<64x1xi32>
    %c64 = arith.constant {value = 64} : block<64x1xi32>
    %rowoff = arith.muli %rows, %c64 : block<64x1xi32>
    %rowb = tt.broadcast %rowoff : block<64x64xi32>
    %cols = tt.expand_dims %r {axis = 0} : block<1x64xi32>
    %colb = tt.broadcast %cols : block<64x64xi32>
    %o = arith.addi %rowb, %colb : block<64x64xi32>
    %pa = tt.splat %a : block<64x64xptr<T>>
    %pa2 = tt.addptr %pa, %o : block<64x64xptr<T>>
    %x = tt.load %pa2 : block<64x64xT>
    %pb = tt.splat %b : block<64x64xptr<T>>
    %pb2 = tt.addptr %pb, %o : block<64x64xptr<T>>
    %y = tt.load %pb2 : block<64x64xT>
    %z = arith.constant {value = 0.0} : block<64x64xf32>
    %d = tt.dot %x, %y, %z {input_precision = "PREC"} : block<64x64xf32>
    %pc = tt.splat %c : block<64x64xptr<f32>>
    %pc2 = tt.addptr %pc, %o : block<64x64xptr<f32>>
    tt.store %pc2, %d
    tt.return
  })
}))";
}

std::string withType(std::string text, const std::string &t, const std::string &precision) {
  for (size_t at; (at = text.find("xT>")) != std::string::npos;)
    text.replace(at, 3, "x" + t + ">");
  for (size_t at; (at = text.find("<T>")) != std::string::npos;)
    text.replace(at, 3, "<" + t + ">");
  text.replace(text.find("PREC"), 4, precision);
  return text;
}

Op *findOp(Op *f, OpCode code) {
  Op *found = nullptr;
  f->walk([&](Op *op) {
    if (!found && op->is(code))
      found = op;
  });
  REQUIRE(found);
  return found;
}

} // namespace

TEST_CASE("accumulator and operand layouts of m16n8k16 are the atom's fragments, tiled") {
  TargetDesc t = nvidiaLike();
  MmaPlan alongM{&t.matrixAtoms[0], 4, 1};
  // The example of DotLayout.h: 64 x 64 on 4 warps along M.
  CHECK(mmaAccumulatorLayout(std::vector<int64_t>{64, 64}, alongM, 4).str() ==
        "layout<64x64: reg [1, 512, 8, 16, 32] lane [2, 4, 64, 128, 256] warp [1024, 2048]>");
  // Register for register the A operand of a next dot with K = 64.
  CHECK(mmaOperandLayout(std::vector<int64_t>{64, 64}, alongM, 0, 4) ==
        mmaAccumulatorLayout(std::vector<int64_t>{64, 64}, alongM, 4));
  // B (K x N) on warps 2 x 2: the M warp bit replicates, the N one tiles columns.
  MmaPlan square{&t.matrixAtoms[0], 2, 2};
  LinearLayout b = mmaOperandLayout(std::vector<int64_t>{32, 64}, square, 1, 4);
  CHECK(b.warpBases() == std::vector<int64_t>{0, 32});
  CHECK(b.isSurjective());
  CHECK(mmaAccumulatorLayout(std::vector<int64_t>{64, 64}, square, 4).isSurjective());
}

TEST_CASE("warps tile M and N as Triton picks them, or M alone for chained dots") {
  TargetDesc t = nvidiaLike();
  Module m = parseOrFail(withType(dotKernel(), "f16", "ieee"));
  Op *dot = findOp(m.functions()[0], OpCode::Dot);
  std::optional<MmaPlan> p = planMma(dot, t, 4, false);
  REQUIRE(p);
  CHECK(p->atom->name == "mma.m16n8k16.f32.f16");
  CHECK((p->warpsM == 2 && p->warpsN == 2));
  p = planMma(dot, t, 8, true);
  CHECK((p->warpsM == 4 && p->warpsN == 2)); // M has 4 atoms: the rest go to N
  CHECK(!planMma(dot, testTarget(), 4, false)); // no atoms: multiply-adds
  // f32 inputs take the tf32 atom only when the dot allows tf32.
  Module f32 = parseOrFail(withType(dotKernel(), "f32", "tf32"));
  p = planMma(findOp(f32.functions()[0], OpCode::Dot), t, 4, false);
  REQUIRE(p);
  CHECK(p->atom->name == "mma.m16n8k8.f32.tf32");
  Module ieee = parseOrFail(withType(dotKernel(), "f32", "ieee"));
  CHECK(!planMma(findOp(ieee.functions()[0], OpCode::Dot), t, 4, false));
}

TEST_CASE("layout assignment: the dot's accumulator layout reaches the store") {
  TargetDesc t = nvidiaLike();
  Module m = parseOrFail(withType(dotKernel(), "bf16", "ieee"));
  Op *f = m.functions()[0];
  LayoutAssignment layouts = assignLayouts(f, t, 4);
  Op *dot = findOp(f, OpCode::Dot), *store = findOp(f, OpCode::Store);
  REQUIRE(layouts.mmaPlan(dot));
  LinearLayout acc = mmaAccumulatorLayout(dot->result()->type().shape(), *layouts.mmaPlan(dot), 4);
  CHECK(layouts.layout(dot->result()) == acc);
  CHECK(layouts.accessLayout(store) == acc);
  CHECK(layouts.vectorElements(store) == 2); // the atom's two neighbouring columns

  // Lowered: operands through shared memory and ldmatrix, no shared memory for the result.
  Module thread = lowerOrFail(withType(dotKernel(), "bf16", "ieee"), 4, t);
  CHECK(countOps(thread, "th.mma") == 2 * 4 * 4); // (32 / 16) x (32 / 8) atoms x 4 k steps per warp
  CHECK(countOps(thread, "th.ldmatrix") > 0);
  CHECK(countOps(thread, "th.store_shared") == 2 * 4); // A and B: 4096 elements / 128 threads / 8
}

TEST_CASE("a shared layout seen transposed puts element (j, i) where the original puts (i, j)") {
  // A 32 x 64 tile (rows along dimension 1) read as the 64 x 32 block tl.trans gives, and
  // back: what a pipelined stage's transposed reader sees (Pipeline.cpp).
  SharedLayout s = SharedLayout::swizzled(std::vector<int64_t>{32, 64}, 1, 2);
  SharedLayout t = s.transposed(std::vector<int64_t>{32, 64});
  for (int64_t i = 0; i < 32; ++i)
    for (int64_t j = 0; j < 64; ++j)
      REQUIRE(t.offset(j * 32 + i) == s.offset(i * 64 + j));
  CHECK(t.transposed(std::vector<int64_t>{64, 32}).bases == s.bases);
  // The transpose of a canonical tile is the canonical tile of the transposed shape with
  // rows along the same (now first) dimension, so one th.wgmma descriptor scheme serves both.
  CHECK(t.bases == SharedLayout::swizzled(std::vector<int64_t>{64, 32}, 0, 2).bases);
}

TEST_CASE("swizzled shared layouts permute 16-byte chunks by row") {
  // 64 x 64 f16, rows of 128 bytes: chunk' = chunk ^ (row % 8), as SharedLayout.h says.
  SharedLayout s = SharedLayout::swizzled(std::vector<int64_t>{64, 64}, 1, 2);
  CHECK(s.bases == std::vector<int64_t>{1, 2, 4, 8, 16, 32, 64 ^ 8, 128 ^ 16, 256 ^ 32, 512, 1024, 2048});
  // Every offset is taken once (a permutation of the tile).
  std::vector<int> seen(4096, 0);
  for (int64_t flat = 0; flat < 4096; ++flat)
    ++seen[size_t(s.offset(flat))];
  CHECK(std::count(seen.begin(), seen.end(), 1) == 4096);
  // Rows of 64 bytes: two rows share a phase.
  SharedLayout narrow = SharedLayout::swizzled(std::vector<int64_t>{64, 32}, 1, 2);
  CHECK(narrow.bases[5] == 32);       // row bit 0: no phase
  CHECK(narrow.bases[6] == (64 ^ 8)); // row bit 1: phase bit 0
  // Rows of 16 bytes stay row-major.
  CHECK(SharedLayout::swizzled(std::vector<int64_t>{64, 8}, 1, 2).isRowMajor());
  // Along the other dimension (column-contiguous storage of a row-major block).
  SharedLayout columns = SharedLayout::swizzled(std::vector<int64_t>{64, 64}, 0, 2);
  CHECK(columns.bases[6] == 1);         // row bit 0 is offset bit 0
  CHECK(columns.bases[0] == (64 ^ 8));  // column bit 0 starts the next row, phase 1
}
