// Loads and stores (masks, other, every element type, exact bits), atomics, and
// bounds checking: every access outside the registered buffers is an error with the
// op's location, never a crash (these tests run under ASan+UBSan).

#include "InterpTestUtil.h"

#include <cstdio>

using namespace interp_test;

namespace {

const bool kCovered = cover({"tt.load", "tt.store", "tt.atomic_rmw", "tt.atomic_cas", "tt.descriptor_load"});

std::string hex(const void *p, ptrdiff_t offset = 0) {
  char buf[32];
  std::snprintf(
      buf, sizeof buf, "0x%llx",
      static_cast<unsigned long long>(reinterpret_cast<uintptr_t>(p) + static_cast<uintptr_t>(offset)));
  return buf;
}

// out[i] = load(in + off + i) for i < n, masked by i < limit (other = -1).
const char *kShiftedCopy = R"(builtin.module ({
  tt.func {sym_name = "k"} ({
  ^(%in: ptr<f32>, %out: ptr<f32>, %off: i32, %limit: i32):
    %r = tt.make_range {end = 8, start = 0} : block<8xi32>
    %offs = tt.splat %off : block<8xi32>
    %idx = arith.addi %r, %offs : block<8xi32>
    %lim = tt.splat %limit : block<8xi32>
    %mask = arith.cmpi %r, %lim {predicate = "slt"} : block<8xi1>
    %pin = tt.splat %in : block<8xptr<f32>>
    %pin2 = tt.addptr %pin, %idx : block<8xptr<f32>>
    %other = arith.constant {value = -1.0} : block<8xf32>
    %x = tt.load %pin2, %mask, %other : block<8xf32> loc("copy.py":4:8)
    %pout = tt.splat %out : block<8xptr<f32>>
    %pout2 = tt.addptr %pout, %r : block<8xptr<f32>>
    tt.store %pout2, %x, %mask loc("copy.py":5:4)
    tt.return
  })
}))";

// out = the rows x cols box at (%m0, %m1) of a tensor of `tensorRows` x 5 f32 in rows of 8,
// read by one tt.descriptor_load with `attrs`, row-major.
std::string boxKernel(int tensorRows, const std::string &attrs, int rows, int cols) {
  std::string box = std::to_string(rows) + "x" + std::to_string(cols), n = std::to_string(rows * cols);
  return R"(builtin.module ({
  tt.func {sym_name = "k"} ({
  ^(%in: ptr<f32>, %out: ptr<f32>, %m0: i32, %m1: i32):
    %rows = arith.constant {value = )" +
         std::to_string(tensorRows) + R"(} : i64
    %cols = arith.constant {value = 5} : i64
    %stride = arith.constant {value = 8} : i64
    %one = arith.constant {value = 1} : i64
    %t = tt.descriptor_load %in, %rows, %cols, %stride, %one, %m0, %m1 {)" +
         attrs + "} : block<" + box + R"(xf32> loc("box.py":3:8)
    %r = tt.make_range {end = )" +
         n + R"(, start = 0} : block<)" + n + R"(xi32>
    %flat = tt.reshape %t {allow_reorder = false} : block<)" +
         n + R"(xf32>
    %pout = tt.splat %out : block<)" +
         n + R"(xptr<f32>>
    %pout2 = tt.addptr %pout, %r : block<)" +
         n + R"(xptr<f32>>
    tt.store %pout2, %flat
    tt.return
  })
}))";
}

} // namespace

TEST_CASE("masked loads give 'other', masked stores write nothing") {
  (void)kCovered;
  Runner r;
  r.load(kShiftedCopy);
  std::vector<float> in = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, out(8, 42.f);
  r.buffer(in, "in");
  r.buffer(out, "out");
  r.runOk("k", {KernelArg::pointer(in.data()), KernelArg::pointer(out.data()), KernelArg::i32(2),
                KernelArg::i32(5)});
  CHECK(out == std::vector<float>{2, 3, 4, 5, 6, 42, 42, 42});
  CHECK(r.executed("tt.load"));
  CHECK(r.executed("tt.store"));

  // Without 'other', masked-off elements read 0; here all of them are stored.
  Runner r2;
  r2.load(R"(builtin.module ({
  tt.func {sym_name = "k"} ({
  ^(%in: ptr<i64>, %out: ptr<i64>):
    %r = tt.make_range {end = 4, start = 0} : block<4xi32>
    %two = arith.constant {value = 2} : block<4xi32>
    %mask = arith.cmpi %r, %two {predicate = "sge"} : block<4xi1>
    %pin = tt.splat %in : block<4xptr<i64>>
    %pin2 = tt.addptr %pin, %r : block<4xptr<i64>>
    %x = tt.load %pin2, %mask : block<4xi64>
    %pout = tt.splat %out : block<4xptr<i64>>
    %pout2 = tt.addptr %pout, %r : block<4xptr<i64>>
    tt.store %pout2, %x
    %s = tt.load %in : i64
    tt.store %out, %s
    tt.return
  })
}))");
  std::vector<int64_t> in64 = {-5, 6, -7, 8}, out64(4, 99);
  r2.buffer(in64, "in");
  r2.buffer(out64, "out");
  r2.runOk("k",
           {KernelArg::pointer(in64.data(), Type::i64()), KernelArg::pointer(out64.data(), Type::i64())});
  CHECK(out64 == std::vector<int64_t>{-5, 0, -7, 8}); // element 0 rewritten by the scalar store
}

TEST_CASE("tt.descriptor_load reads a box, the padding outside the tensor, through the strides") {
  // A 3 x 5 tensor in rows of 8 elements; the 4 x 4 box at (1, 2) reaches past the last
  // row and column; out is the box row-major.
  std::vector<float> in(24);
  for (size_t i = 0; i < in.size(); ++i)
    in[i] = float(i);
  for (const char *pad : {"zero", "nan"}) {
    INFO(pad);
    Runner r;
    r.load(boxKernel(3, "padding = \"" + std::string(pad) + "\"", 4, 4));
    std::vector<float> out(16, 42.f);
    r.buffer(in, "in");
    r.buffer(out, "out");
    r.runOk("k", {KernelArg::pointer(in.data()), KernelArg::pointer(out.data()), KernelArg::i32(1),
                  KernelArg::i32(2)});
    CHECK(r.executed("tt.descriptor_load"));
    float p = std::string(pad) == "nan" ? NAN : 0.f;
    std::vector<float> want = {10, 11, 12, p, 18, 19, 20, p, p, p, p, p, p, p, p, p};
    for (size_t i = 0; i < 16; ++i) {
      INFO(i);
      if (std::isnan(want[i]))
        CHECK(std::isnan(out[i]));
      else
        CHECK(out[i] == want[i]);
    }
    // Negative offsets: rows and columns before the tensor read the padding too.
    r.runOk("k", {KernelArg::pointer(in.data()), KernelArg::pointer(out.data()), KernelArg::i32(-1),
                  KernelArg::i32(-2)});
    CHECK(out[6] == 0.f);   // element (0, 0) of the tensor, at box (1, 2)
    CHECK(out[10] == 8.f);  // (1, 0) at (2, 2)
    CHECK(out[15] == 17.f); // (2, 1) at (3, 3)
    CHECK((std::string(pad) == "nan" ? std::isnan(out[0]) : out[0] == 0.f));
  }
}

TEST_CASE("tt.descriptor_load checks only its `checked` dimensions (block pointers without boundary_check)") {
  // A 3 x 5 tensor in rows of 8 elements, the 2 x 4 box at (1, m1) with only the column
  // checked: columns past 5 read zeros, rows are read wherever they point, and a row past
  // the buffer is an out-of-bounds load, not padding.
  std::vector<float> in(24);
  for (size_t i = 0; i < in.size(); ++i)
    in[i] = float(i);
  Runner r;
  r.load(boxKernel(2, "checked = 2, padding = \"zero\"", 2, 4));
  std::vector<float> out(8, 42.f);
  r.buffer(in, "in");
  r.buffer(out, "out");
  // Rows 1 and 2 (row 2 lies past the declared 2 rows but inside the buffer: unchecked).
  r.runOk("k", {KernelArg::pointer(in.data()), KernelArg::pointer(out.data()), KernelArg::i32(1),
                KernelArg::i32(2)});
  CHECK(out == std::vector<float>{10, 11, 12, 0, 18, 19, 20, 0});
  // Rows 2 and 3: row 3 starts at element 24, past the buffer.
  CHECK(!r.run("k", {KernelArg::pointer(in.data()), KernelArg::pointer(out.data()), KernelArg::i32(2),
                     KernelArg::i32(0)}));
  CHECK(r.error().find("out-of-bounds load") != std::string::npos);
}

TEST_CASE("load then store copies every bit pattern of every element type") {
  for (Type t : {Type::i8(), Type::i16(), Type::i32(), Type::i64(), Type::f16(), Type::bf16(), Type::f32(),
                 Type::f64(), Type::f8e4m3(), Type::f8e5m2()}) {
    INFO(t.str());
    const unsigned w = t.bitWidth();
    const int64_t n = w <= 16 ? int64_t(1) << w : 4096;
    std::vector<uint64_t> bits(static_cast<size_t>(n));
    std::mt19937_64 rng(99);
    for (int64_t i = 0; i < n; ++i)
      bits[i] = w <= 16 ? uint64_t(i) : w == 64 ? rng() : rng() & 0xffffffffu;
    if (w == 32) { // NaNs with payloads, signalling included
      bits[0] = 0x7f800001;
      bits[1] = 0xffbfffff;
    }
    Runner r;
    CHECK(runElementwise(r, "%y = arith.select %x0, %x1, %x1 : " + blockOf(n, t), {Type::i1(), t},
                         {std::vector<uint64_t>(n, 1), bits}, t) == bits);
  }
}

TEST_CASE("atomic_rmw: every kind, duplicates applied in element order, old values returned") {
  struct Case {
    const char *kind;
    std::vector<int32_t> expectedMemory;
  };
  // Elements 0..7 update cells [0, 1, 0, 2, 1, 0, 3, 3] with values 1..8 (element 7 masked off).
  const std::vector<int32_t> start = {10, -20, 30, 0x0f0f};
  const Case cases[] = {
      {"add", {10 + 1 + 3 + 6, -20 + 2 + 5, 30 + 4, 0x0f0f + 7}},
      {"and", {10 & 1 & 3 & 6, -20 & 2 & 5, 30 & 4, 0x0f0f & 7}},
      {"or", {10 | 1 | 3 | 6, -20 | 2 | 5, 30 | 4, 0x0f0f | 7}},
      {"xor", {10 ^ 1 ^ 3 ^ 6, -20 ^ 2 ^ 5, 30 ^ 4, 0x0f0f ^ 7}},
      {"max", {10, 5, 30, 0x0f0f}},
      {"min", {1, -20, 4, 7}},
      {"umax", {10, -20, 30, 0x0f0f}},
      {"umin", {1, 2, 4, 7}},
      {"xchg", {6, 5, 4, 7}},
  };
  const int cells[] = {0, 1, 0, 2, 1, 0, 3, 3};
  for (const Case &c : cases) {
    INFO(std::string(c.kind));
    Runner r;
    r.load(std::string(R"(builtin.module ({
  tt.func {sym_name = "k"} ({
  ^(%mem: ptr<i32>, %cells: ptr<i32>, %old: ptr<i32>):
    %r = tt.make_range {end = 8, start = 0} : block<8xi32>
    %pc = tt.splat %cells : block<8xptr<i32>>
    %pc2 = tt.addptr %pc, %r : block<8xptr<i32>>
    %cell = tt.load %pc2 : block<8xi32>
    %pm = tt.splat %mem : block<8xptr<i32>>
    %pm2 = tt.addptr %pm, %cell : block<8xptr<i32>>
    %one = arith.constant {value = 1} : block<8xi32>
    %val = arith.addi %r, %one : block<8xi32>
    %seven = arith.constant {value = 7} : block<8xi32>
    %mask = arith.cmpi %r, %seven {predicate = "slt"} : block<8xi1>
    %o = tt.atomic_rmw %pm2, %val, %mask {kind = ")") +
           c.kind + R"(", scope = "gpu", sem = "acq_rel"} : block<8xi32>
    %po = tt.splat %old : block<8xptr<i32>>
    %po2 = tt.addptr %po, %r : block<8xptr<i32>>
    tt.store %po2, %o, %mask
    tt.return
  })
}))");
    std::vector<int32_t> mem = start, cellv(cells, cells + 8), old(8, 777);
    r.buffer(mem, "mem");
    r.buffer(cellv, "cells");
    r.buffer(old, "old");
    r.runOk("k", {KernelArg::pointer(mem.data(), Type::i32()), KernelArg::pointer(cellv.data(), Type::i32()),
                  KernelArg::pointer(old.data(), Type::i32())});
    CHECK(mem == c.expectedMemory);
    // Replay sequentially to get the old values each element saw.
    std::vector<int32_t> sim = start;
    for (int i = 0; i < 7; ++i) {
      CHECK(old[i] == sim[cells[i]]);
      int32_t v = i + 1, &m = sim[cells[i]];
      std::string k = c.kind;
      m = k == "add"    ? m + v
          : k == "and"  ? m & v
          : k == "or"   ? m | v
          : k == "xor"  ? m ^ v
          : k == "max"  ? std::max(m, v)
          : k == "min"  ? std::min(m, v)
          : k == "umax" ? int32_t(std::max(uint32_t(m), uint32_t(v)))
          : k == "umin" ? int32_t(std::min(uint32_t(m), uint32_t(v)))
                        : v;
    }
    CHECK(old[7] == 777);
    CHECK(r.executed("tt.atomic_rmw"));
  }
}

TEST_CASE("atomic fadd rounds in the element type") {
  Runner r;
  r.load(R"(builtin.module ({
  tt.func {sym_name = "k"} ({
  ^(%acc: ptr<f16>, %acc32: ptr<f32>):
    %z = arith.constant {value = 0} : block<8xi32>
    %p = tt.splat %acc : block<8xptr<f16>>
    %p2 = tt.addptr %p, %z : block<8xptr<f16>>
    %v = arith.constant {value = 0.0004} : block<8xf16>
    %o = tt.atomic_rmw %p2, %v {kind = "fadd", scope = "gpu", sem = "relaxed"} : block<8xf16>
    %q = tt.splat %acc32 : block<8xptr<f32>>
    %q2 = tt.addptr %q, %z : block<8xptr<f32>>
    %w = arith.constant {value = 0.1} : block<8xf32>
    %o2 = tt.atomic_rmw %q2, %w {kind = "fadd", scope = "gpu", sem = "relaxed"} : block<8xf32>
    tt.return
  })
}))");
  std::vector<uint16_t> acc = {floatToF16(1.0f)};
  std::vector<float> acc32 = {0.f};
  r.buffer(acc, "acc");
  r.buffer(acc32, "acc32");
  r.runOk("k", {KernelArg::pointer(acc.data(), Type::f16()), KernelArg::pointer(acc32.data())});
  // 1 + 0.0004 rounds back to 1 in f16 every time (the f16 spacing at 1 is ~0.001).
  CHECK(acc[0] == floatToF16(1.0f));
  float expected = 0.f;
  for (int i = 0; i < 8; ++i)
    expected += 0.1f;
  CHECK(acc32[0] == expected);
}

TEST_CASE("atomic_cas swaps only on a bitwise match and returns the old value") {
  Runner r;
  r.load(R"(builtin.module ({
  tt.func {sym_name = "k"} ({
  ^(%mem: ptr<i64>, %old: ptr<i64>):
    %r = tt.make_range {end = 4, start = 0} : block<4xi32>
    %pm = tt.splat %mem : block<4xptr<i64>>
    %pm2 = tt.addptr %pm, %r : block<4xptr<i64>>
    %cmp = arith.constant {value = 5} : block<4xi64>
    %val = arith.constant {value = -9} : block<4xi64>
    %o = tt.atomic_cas %pm2, %cmp, %val {scope = "gpu", sem = "acq_rel"} : block<4xi64>
    %po = tt.splat %old : block<4xptr<i64>>
    %po2 = tt.addptr %po, %r : block<4xptr<i64>>
    tt.store %po2, %o
    %c1 = arith.constant {value = -9} : i64
    %v1 = arith.constant {value = 5} : i64
    %s = tt.atomic_cas %mem, %c1, %v1 : i64
    tt.return
  })
}))");
  std::vector<int64_t> mem = {5, 6, 5, -5}, old(4, 0);
  r.buffer(mem, "mem");
  r.buffer(old, "old");
  r.runOk("k", {KernelArg::pointer(mem.data(), Type::i64()), KernelArg::pointer(old.data(), Type::i64())});
  CHECK(old == std::vector<int64_t>{5, 6, 5, -5});
  CHECK(mem == std::vector<int64_t>{5, 6, -9, -5}); // element 0 swapped to -9, then the scalar CAS back to 5
  CHECK(r.executed("tt.atomic_cas"));
}

TEST_CASE("out-of-bounds loads are errors with the op's location") {
  Runner r;
  r.load(kShiftedCopy);
  std::vector<float> in(4, 1.f), out(8, 0.f);
  r.buffer(in, "in");
  r.buffer(out, "out");
  std::vector<KernelArg> args = {KernelArg::pointer(in.data()), KernelArg::pointer(out.data()),
                                 KernelArg::i32(0), KernelArg::i32(5)};
  CHECK_FALSE(r.run("k", args));
  CHECK(r.error() == "out-of-bounds load of element 4: address " + hex(in.data(), 16) +
                         " is 4 bytes past the end of buffer 'in' (size 16) in program (0, 0, 0)");
  CHECK(r.diags.list()[0].loc.str() == "copy.py:4:8");
  CHECK(r.diags.list()[0].str().starts_with("copy.py:4:8: error: out-of-bounds load"));
  CHECK(out == std::vector<float>(8, 0.f)); // stopped before the store

  // Masked-off elements may point anywhere.
  args[3] = KernelArg::i32(4);
  r.runOk("k", args);
  CHECK(out == std::vector<float>{1, 1, 1, 1, 0, 0, 0, 0});

  // Before the start of a buffer.
  args[2] = KernelArg::i32(-3);
  CHECK_FALSE(r.run("k", args));
  CHECK(r.error() == "out-of-bounds load of element 0: address " + hex(in.data(), -12) +
                         " is 12 bytes before the start of buffer 'in' (size 16) in program (0, 0, 0)");
}

TEST_CASE("out-of-bounds stores and atomics write nothing and report the program") {
  Runner r;
  r.load(R"(builtin.module ({
  tt.func {sym_name = "k"} ({
  ^(%out: ptr<i32>, %atomic: i1):
    %pid = tt.get_program_id {axis = 0} : i32
    %four = arith.constant {value = 4} : i32
    %base = arith.muli %pid, %four : i32
    %r = tt.make_range {end = 4, start = 0} : block<4xi32>
    %b = tt.splat %base : block<4xi32>
    %idx = arith.addi %r, %b : block<4xi32>
    %p = tt.splat %out : block<4xptr<i32>>
    %p2 = tt.addptr %p, %idx : block<4xptr<i32>>
    scf.if %atomic ({
      %o = tt.atomic_rmw %p2, %idx {kind = "add", scope = "gpu", sem = "relaxed"} : block<4xi32> loc("k.py":9:3)
      scf.yield
    }, {
      tt.store %p2, %idx loc("k.py":7:3)
      scf.yield
    })
    tt.return
  })
}))");
  std::vector<int32_t> out(10, -1);
  r.buffer(out, "out");
  CHECK_FALSE(r.run("k", {KernelArg::pointer(out.data(), Type::i32()), KernelArg::i1(false)}, {3, 1, 1}));
  CHECK(r.error() == "out-of-bounds store of element 2: address " + hex(out.data(), 40) +
                         " is 4 bytes past the end of buffer 'out' (size 40) in program (2, 0, 0)");
  CHECK(r.diags.list()[0].loc.str() == "k.py:7:3");
  // Programs 0 and 1 ran; program 2 wrote nothing, not even its in-bounds elements.
  CHECK(out == std::vector<int32_t>{0, 1, 2, 3, 4, 5, 6, 7, -1, -1});

  std::vector<int32_t> before = out;
  CHECK_FALSE(r.run("k", {KernelArg::pointer(out.data(), Type::i32()), KernelArg::i1(true)}, {3, 1, 1}));
  CHECK(r.error().starts_with("out-of-bounds atomic_rmw of element 2: address " + hex(out.data(), 40)));
  CHECK(r.diags.list()[0].loc.str() == "k.py:9:3");
  for (int i = 0; i < 8; ++i)
    CHECK(out[i] == 2 * before[i]);
  CHECK(out[8] == -1);
  CHECK(out[9] == -1);
}

TEST_CASE("accesses that straddle a buffer's end, and unregistered memory") {
  Runner r;
  r.load(R"(builtin.module ({
  tt.func {sym_name = "k"} ({
  ^(%p: ptr<f64>, %q: ptr<f64>):
    %x = tt.load %p : f64
    tt.store %q, %x
    tt.return
  })
}))");
  std::vector<double> storage(4, 2.5);
  r.interp.addBuffer(storage.data(), 28, "short"); // the last double sticks out by 4 bytes
  double *last = storage.data() + 3;
  CHECK_FALSE(
      r.run("k", {KernelArg::pointer(last, Type::f64()), KernelArg::pointer(storage.data(), Type::f64())}));
  CHECK(r.error() == "out-of-bounds load of element 0: the 8-byte access at address " + hex(last) +
                         " runs 4 bytes past the end of buffer 'short' (size 28) in program (0, 0, 0)");
  r.interp.clearBuffers();
  CHECK_FALSE(
      r.run("k", {KernelArg::pointer(storage.data(), Type::f64()), KernelArg::pointer(last, Type::f64())}));
  CHECK(r.error() == "out-of-bounds load of element 0: address " + hex(storage.data()) +
                         " is not in any registered buffer in program (0, 0, 0)");
  // A null pointer with some buffer registered.
  r.interp.addBuffer(storage.data(), 32, "s");
  CHECK_FALSE(r.run("k", {KernelArg::pointer(nullptr, Type::f64()), KernelArg::pointer(last, Type::f64())}));
  CHECK(r.error().starts_with("out-of-bounds load of element 0: address 0x0 is "));
  r.runOk("k", {KernelArg::pointer(storage.data(), Type::f64()), KernelArg::pointer(last, Type::f64())});
  CHECK(storage[3] == 2.5);
  r.interp.removeBuffer(storage.data());
  CHECK_FALSE(
      r.run("k", {KernelArg::pointer(storage.data(), Type::f64()), KernelArg::pointer(last, Type::f64())}));
}
