// Layout assignment on IR text: anchors at memory ops, vector widths from axis
// info, propagation back to the values that feed them.
#include "KernelTemplates.h"
#include "SimtTestUtil.h"

#include "trident/simt/LayoutAssignment.h"

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace trident;
using namespace trident::simt;
using namespace trident::simt::test;

namespace {

std::string kernelText(const std::string &name) {
  std::ifstream in(std::filesystem::path(__FILE__).parent_path() / "kernels" / name);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The first op named `name` in `f`.
Op *findOp(Op *f, std::string_view name) {
  Op *found = nullptr;
  f->walk([&](Op *op) {
    if (!found && op->name() == name)
      found = op;
  });
  REQUIRE(found);
  return found;
}

} // namespace

TEST_CASE("vector add: 4-wide coalesced accesses, the index arithmetic in the same layout") {
  Module m = parseOrFail(kernelText("vector_add.ttir"));
  Op *f = m.functions()[0];
  LayoutAssignment a = assignLayouts(f, testTarget(), 4);
  Op *load = findOp(f, "tt.load");
  CHECK(a.vectorElements(load) == 4);
  LinearLayout l = a.accessLayout(load);
  CHECK(l.str() == "layout<1024: reg [1, 2, 512] lane [4, 8, 16, 32, 64] warp [128, 256]>");
  CHECK(a.layout(load->result()) == l);
  CHECK(a.layout(findOp(f, "tt.make_range")->result()) == l);
  CHECK(a.layout(findOp(f, "arith.cmpi")->result()) == l);
  CHECK(a.vectorElements(findOp(f, "tt.store")) == 4);
}

TEST_CASE("an unaligned mask bound keeps accesses scalar; an aligned one allows vectors") {
  std::string text = kernelText("softmax.ttir");
  Module m = parseOrFail(text);
  LayoutAssignment a = assignLayouts(m.functions()[0], testTarget(), 4);
  CHECK(a.vectorElements(findOp(m.functions()[0], "tt.load")) == 1);
  text.replace(text.find("[16, 16, 16, 16, 1]"), 19, "[16, 16, 16, 16, 16]");
  Module m16 = parseOrFail(text);
  LayoutAssignment a16 = assignLayouts(m16.functions()[0], testTarget(), 4);
  CHECK(a16.vectorElements(findOp(m16.functions()[0], "tt.load")) == 4);
  // The reduction of the whole row is a scalar every thread holds.
  CHECK(a16.layout(findOp(m16.functions()[0], "tt.reduce")->result()).rank() == 0);
}

TEST_CASE("a 2-D tile is accessed along its contiguous rows; its transpose along columns") {
  Module m = parseOrFail(transposeKernel(32, 64));
  Op *f = m.functions()[0];
  LayoutAssignment a = assignLayouts(f, testTarget(), 4);
  LinearLayout in = a.accessLayout(findOp(f, "tt.load"));
  CHECK(in.contiguousRegisters(1) == 4); // 4 f32 along the row
  Op *store = nullptr;
  f->walk([&](Op *op) {
    if (op->is(OpCode::Store))
      store = op;
  });
  LinearLayout out = a.accessLayout(store);
  CHECK(out.contiguousRegisters(1) == 4); // the output rows are contiguous too
  // The store's layout flows back through the arithmetic to the transpose, whose input
  // then converts once, through shared memory; so does the loaded y it adds. Index
  // arithmetic is computed again in each layout instead of being converted.
  CHECK(a.layout(findOp(f, "tt.trans")->result()) == out);
  Module lowered = lowerOrFail(transposeKernel(32, 64));
  CHECK(countOps(lowered, "th.shared_alloc") == 2);
  // A barrier after each conversion's writes, and one before the second reuses the bytes.
  CHECK(countOps(lowered, "th.barrier") == 3);
}

TEST_CASE("small blocks give every thread work before any thread gets a vector") {
  Module m = parseOrFail(reduce2dKernel(4, 8));
  LayoutAssignment a = assignLayouts(m.functions()[0], testTarget(), 4);
  CHECK(a.vectorElements(findOp(m.functions()[0], "tt.load")) == 1);
}

TEST_CASE("loop-carried blocks take the layout their loop body yields") {
  Module m = parseOrFail(loopKernel(1024));
  Op *f = m.functions()[0];
  LayoutAssignment a = assignLayouts(f, testTarget(), 4);
  Op *loop = findOp(f, "scf.for");
  Op *load = findOp(f, "tt.load");
  CHECK(a.layout(loop->region()->argument(1)) == a.accessLayout(load));
  CHECK(a.layout(loop->result(0)) == a.accessLayout(load));
}
