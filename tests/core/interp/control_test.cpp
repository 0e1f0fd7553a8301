// The program grid, structured control flow, calls, hints, tt.print, tt.assert and
// argument checking.

#include "InterpTestUtil.h"

using namespace interp_test;

namespace {

const bool kCovered =
    cover({"builtin.module", "tt.func", "tt.return", "tt.call", "scf.for", "scf.if", "scf.while", "scf.yield",
           "scf.condition", "tt.get_program_id", "tt.get_num_programs", "tt.multiple_of", "tt.max_contiguous",
           "tt.assume", "tt.print", "tt.assert", "gpu.barrier", "tt.elementwise_inline_asm"});

} // namespace

TEST_CASE("a 3-D grid runs every program once, axis 0 fastest") {
  (void)kCovered;
  Runner r;
  r.load(R"(builtin.module ({
  tt.func {sym_name = "grid"} ({
  ^(%ids: ptr<i32>, %order: ptr<i32>, %counter: ptr<i32>):
    %x = tt.get_program_id {axis = 0} : i32
    %y = tt.get_program_id {axis = 1} : i32
    %z = tt.get_program_id {axis = 2} : i32
    %nx = tt.get_num_programs {axis = 0} : i32
    %ny = tt.get_num_programs {axis = 1} : i32
    %nz = tt.get_num_programs {axis = 2} : i32
    %zy = arith.muli %z, %ny : i32
    %zy2 = arith.addi %zy, %y : i32
    %zyx = arith.muli %zy2, %nx : i32
    %linear = arith.addi %zyx, %x : i32
    %c10 = arith.constant {value = 10} : i32
    %c100 = arith.constant {value = 100} : i32
    %c1000 = arith.constant {value = 1000} : i32
    %y10 = arith.muli %y, %c10 : i32
    %z100 = arith.muli %z, %c100 : i32
    %n = arith.muli %nx, %ny : i32
    %n2 = arith.muli %n, %nz : i32
    %n1000 = arith.muli %n2, %c1000 : i32
    %v0 = arith.addi %x, %y10 : i32
    %v1 = arith.addi %v0, %z100 : i32
    %v = arith.addi %v1, %n1000 : i32
    %p = tt.addptr %ids, %linear : ptr<i32>
    tt.store %p, %v
    %one = arith.constant {value = 1} : i32
    %old = tt.atomic_rmw %counter, %one {kind = "add", scope = "gpu", sem = "relaxed"} : i32
    %q = tt.addptr %order, %linear : ptr<i32>
    tt.store %q, %old
    tt.return
  })
}))");
  std::vector<int32_t> ids(12, -1), order(12, -1), counter(1, 0);
  r.buffer(ids, "ids");
  r.buffer(order, "order");
  r.buffer(counter, "counter");
  r.runOk("grid",
          {KernelArg::pointer(ids.data(), Type::i32()), KernelArg::pointer(order.data(), Type::i32()),
           KernelArg::pointer(counter.data(), Type::i32())},
          {3, 2, 2});
  for (int z = 0; z < 2; ++z)
    for (int y = 0; y < 2; ++y)
      for (int x = 0; x < 3; ++x) {
        int linear = (z * 2 + y) * 3 + x;
        CHECK(ids[linear] == x + 10 * y + 100 * z + 12000);
        CHECK(order[linear] == linear);
      }
  CHECK(counter[0] == 12);
  for (const char *op :
       {"builtin.module", "tt.func", "tt.return", "tt.get_program_id", "tt.get_num_programs"})
    CHECK(r.executed(op));
  // An empty grid runs nothing.
  r.runOk("grid",
          {KernelArg::pointer(ids.data(), Type::i32()), KernelArg::pointer(order.data(), Type::i32()),
           KernelArg::pointer(counter.data(), Type::i32())},
          {0, 1, 1});
  CHECK(counter[0] == 12);
}

TEST_CASE("a box of the grid runs with the program ids, grid and diagnostics of the whole grid") {
  Runner r;
  r.load(R"(builtin.module ({
  tt.func {sym_name = "k"} ({
  ^(%out: ptr<i32>, %limit: i32):
    %x = tt.get_program_id {axis = 0} : i32
    %y = tt.get_program_id {axis = 1} : i32
    %nx = tt.get_num_programs {axis = 0} : i32
    %ny = tt.get_num_programs {axis = 1} : i32
    %row = arith.muli %y, %nx : i32
    %linear = arith.addi %row, %x : i32
    %c100 = arith.constant {value = 100} : i32
    %n100 = arith.muli %ny, %c100 : i32
    %v = arith.addi %n100, %nx : i32
    %p = tt.addptr %out, %linear : ptr<i32> loc("k.py":9:4)
    tt.store %p, %v loc("k.py":10:4)
    tt.print %linear {hex = false, prefix = "linear "}
    %l = tt.splat %limit : block<2xi32>
    %s = tt.splat %linear : block<2xi32>
    %ok = arith.cmpi %s, %l {predicate = "slt"} : block<2xi1>
    tt.assert %ok {message = "past the limit"} loc("k.py":12:4)
    tt.return
  })
}))");
  // Grid 4 x 3; the box holds programs x = 1..2 of rows y = 1..2.
  const std::array<uint32_t, 3> grid{4, 3, 1};
  const Interpreter::ProgramBox box{{1, 1, 0}, {2, 2, 1}};
  std::vector<int32_t> out(12, -1);
  r.buffer(out, "out");
  auto runBox = [&](int32_t limit, const Interpreter::ProgramBox &b) {
    r.diags.clear();
    r.printed.str("");
    return r.interp.run(*r.module, "k", std::vector<KernelArg>{KernelArg::pointer(out.data(), Type::i32()),
                                                              KernelArg::i32(limit)},
                        grid, b, r.diags);
  };
  REQUIRE(runBox(100, box));
  for (int i = 0; i < 12; ++i) {
    bool inBox = (i % 4 == 1 || i % 4 == 2) && (i / 4 == 1 || i / 4 == 2);
    CHECK(out[i] == (inBox ? 304 : -1));
  }
  CHECK(r.printed.str() == "pid (1, 1, 0) linear 5\npid (2, 1, 0) linear 6\n"
                           "pid (1, 2, 0) linear 9\npid (2, 2, 0) linear 10\n");
  // A failed assert names the program in the whole grid.
  CHECK_FALSE(runBox(9, box));
  CHECK(r.error() == "assertion failed: past the limit at index (0) in program (1, 2, 0)");
  // So does an out-of-bounds access: program (3, 2) of a buffer of 11 elements.
  out.resize(11);
  r.interp.clearBuffers();
  r.buffer(out, "out");
  CHECK_FALSE(runBox(100, {{3, 2, 0}, {1, 1, 1}}));
  CHECK(r.error().ends_with("in program (3, 2, 0)"));
  CHECK(r.diags.list()[0].loc.str() == "k.py:10:4");
  // A box that does not fit the grid is refused.
  CHECK_FALSE(runBox(100, {{3, 0, 0}, {2, 1, 1}}));
  CHECK(r.error() == "programs [3, 5) of axis 0 are outside the grid of 4");
}

TEST_CASE("scf.for carries values; trip counts follow lb, ub and step") {
  Runner r;
  r.load(R"(builtin.module ({
  tt.func {sym_name = "sum"} ({
  ^(%lb: i64, %ub: i64, %step: i64, %out: ptr<i64>):
    %zero = arith.constant {value = 0} : i64
    %s, %c = scf.for %lb, %ub, %step, %zero, %zero : i64, i64 ({
    ^(%i: i64, %acc: i64, %count: i64):
      %acc2 = arith.addi %acc, %i : i64
      %one = arith.constant {value = 1} : i64
      %count2 = arith.addi %count, %one : i64
      scf.yield %acc2, %count2
    })
    tt.store %out, %s
    %p1 = tt.addptr %out, %zero : ptr<i64>
    %one = arith.constant {value = 1} : i32
    %p2 = tt.addptr %p1, %one : ptr<i64>
    tt.store %p2, %c
    tt.return
  })
}))");
  struct {
    int64_t lb, ub, step;
  } cases[] = {{0, 10, 1}, {-5, 7, 3}, {3, 3, 1}, {10, 0, 2}, {-100, -90, 4}, {0, 1, 1000}};
  for (auto &c : cases) {
    std::vector<int64_t> out(2, -1);
    r.interp.clearBuffers();
    r.buffer(out, "out");
    r.runOk("sum", {KernelArg::i64(c.lb), KernelArg::i64(c.ub), KernelArg::i64(c.step),
                    KernelArg::pointer(out.data(), Type::i64())});
    int64_t sum = 0, count = 0;
    for (int64_t i = c.lb; i < c.ub; i += c.step) {
      sum += i;
      ++count;
    }
    INFO(c.lb << " " << c.ub << " " << c.step);
    CHECK(out[0] == sum);
    CHECK(out[1] == count);
  }
  CHECK(r.executed("scf.for"));
  CHECK(r.executed("scf.yield"));

  std::vector<int64_t> out(2, -1);
  r.interp.clearBuffers();
  r.buffer(out, "out");
  CHECK_FALSE(r.run("sum", {KernelArg::i64(0), KernelArg::i64(5), KernelArg::i64(0),
                            KernelArg::pointer(out.data(), Type::i64())}));
  CHECK(r.error() == "'scf.for' step must be positive, got 0 in program (0, 0, 0)");
}

TEST_CASE("scf.if yields from the taken branch; scf.while loops until its condition fails") {
  // Collatz: count steps from n to 1; odd/even picked with scf.if.
  Runner r;
  r.load(R"(builtin.module ({
  tt.func {sym_name = "collatz"} ({
  ^(%n: i32, %out: ptr<i32>):
    %zero = arith.constant {value = 0} : i32
    %one = arith.constant {value = 1} : i32
    %two = arith.constant {value = 2} : i32
    %three = arith.constant {value = 3} : i32
    %v, %steps = scf.while %n, %zero : i32, i32 ({
    ^(%a: i32, %s: i32):
      %more = arith.cmpi %a, %one {predicate = "ne"} : i1
      scf.condition %more, %a, %s
    }, {
    ^(%b: i32, %t: i32):
      %bit = arith.andi %b, %one : i32
      %odd = arith.cmpi %bit, %one {predicate = "eq"} : i1
      %next = scf.if %odd : i32 ({
        %m = arith.muli %b, %three : i32
        %m1 = arith.addi %m, %one : i32
        scf.yield %m1
      }, {
        %h = arith.divsi %b, %two : i32
        scf.yield %h
      })
      %t1 = arith.addi %t, %one : i32
      scf.yield %next, %t1
    })
    tt.store %out, %steps
    %neg = arith.cmpi %n, %zero {predicate = "slt"} : i1
    scf.if %neg ({
      tt.store %out, %n
      scf.yield
    }, {})
    tt.return
  })
}))");
  auto collatz = [](int32_t n) {
    int steps = 0;
    while (n != 1) {
      n = n % 2 ? 3 * n + 1 : n / 2;
      ++steps;
    }
    return steps;
  };
  for (int32_t n : {1, 2, 7, 27, 97}) {
    std::vector<int32_t> out(1, -1);
    r.interp.clearBuffers();
    r.buffer(out, "out");
    r.runOk("collatz", {KernelArg::i32(n), KernelArg::pointer(out.data(), Type::i32())});
    CHECK(out[0] == collatz(n));
  }
  CHECK(r.executed("scf.while"));
  CHECK(r.executed("scf.condition"));
  CHECK(r.executed("scf.if"));
}

TEST_CASE("tt.call runs the callee, recursion included, with a depth limit") {
  Runner r;
  r.load(R"(builtin.module ({
  tt.func {result_types = [i64, i64], sym_name = "fact"} ({
  ^(%n: i64):
    %one = arith.constant {value = 1} : i64
    %base = arith.cmpi %n, %one {predicate = "sle"} : i1
    %f, %calls = scf.if %base : i64, i64 ({
      scf.yield %one, %one
    }, {
      %m = arith.subi %n, %one : i64
      %g, %c = tt.call %m {callee = "fact"} : i64, i64
      %p = arith.muli %n, %g : i64
      %c1 = arith.addi %c, %one : i64
      scf.yield %p, %c1
    })
    tt.return %f, %calls
  })
  tt.func {sym_name = "k"} ({
  ^(%n: i64, %out: ptr<i64>):
    %f, %calls = tt.call %n {callee = "fact"} : i64, i64
    tt.store %out, %f
    tt.return
  })
}))");
  std::vector<int64_t> out(1, 0);
  r.buffer(out, "out");
  r.runOk("k", {KernelArg::i64(20), KernelArg::pointer(out.data(), Type::i64())});
  CHECK(out[0] == 2432902008176640000);
  CHECK(r.executed("tt.call"));
  CHECK_FALSE(r.run("k", {KernelArg::i64(100000), KernelArg::pointer(out.data(), Type::i64())}));
  CHECK(r.error() == "call depth exceeds 256 calling 'fact' in program (0, 0, 0)");
}

TEST_CASE("tt.elementwise_inline_asm is refused: its assembly is for a GPU target") {
  Type i32 = Type::i32();
  Runner r;
  r.load(elementwiseKernel("%y = tt.elementwise_inline_asm %x0 {asm_string = \"mov.b32 $0, $1;\", "
                           "constraints = \"=r,r\", packed_element = 1, pure = true} : block<8xi32>",
                           {i32}, i32, 8));
  std::vector<int32_t> in(8, 1), out(8, 0);
  r.interp.addBuffer(in.data(), in.size() * 4, "in");
  r.interp.addBuffer(out.data(), out.size() * 4, "out");
  CHECK_FALSE(r.run("k", {KernelArg::pointer(in.data(), i32), KernelArg::pointer(out.data(), i32)}));
  INFO(r.error());
  CHECK(r.error().find("tl.inline_asm_elementwise is not supported on the host interpreter") != std::string::npos);
  CHECK(r.executed("tt.elementwise_inline_asm"));
}

TEST_CASE("gpu.barrier changes nothing: a program's accesses already run in order") {
  Type i32 = Type::i32();
  std::vector<uint64_t> a = {1, 2, 3, 4, 5, 6, 7, 8};
  Runner r;
  std::vector<uint64_t> y = runElementwise(r,
                                           "gpu.barrier\n"
                                           "    %y = arith.addi %x0, %x0 : block<8xi32>",
                                           {i32}, {a}, i32);
  for (size_t i = 0; i < a.size(); ++i)
    CHECK(y[i] == 2 * a[i]);
  CHECK(r.executed("gpu.barrier"));
}

TEST_CASE("hints are identities and tt.assume does nothing") {
  Type i32 = Type::i32();
  std::vector<uint64_t> a = {16, 17, 18, 19, 20, 21, 22, 23};
  Runner r;
  std::vector<uint64_t> y = runElementwise(r,
                                           "%h1 = tt.multiple_of %x0 {values = [16]} : block<8xi32>\n"
                                           "    %h2 = tt.max_contiguous %h1 {values = [8]} : block<8xi32>\n"
                                           "    %t = arith.constant {value = true} : i1\n"
                                           "    tt.assume %t\n"
                                           "    %y = arith.addi %h2, %h2 : block<8xi32>",
                                           {i32}, {a}, i32);
  for (size_t i = 0; i < a.size(); ++i)
    CHECK(y[i] == 2 * a[i]);
  for (const char *op : {"tt.multiple_of", "tt.max_contiguous", "tt.assume"})
    CHECK(r.executed(op));
}

TEST_CASE("tt.print writes one line per element") {
  Runner r;
  r.load(R"(builtin.module ({
  tt.func {sym_name = "k"} ({
  ^(%s: i32, %f: f32):
    %pid = tt.get_program_id {axis = 0} : i32
    %r = tt.make_range {end = 4, start = 0} : block<4xi32>
    %r2 = tt.reshape %r : block<2x2xi32>
    tt.print %pid {hex = false, prefix = "pid: "}
    tt.print %r2 {hex = false, prefix = "r="}
    tt.print %s, %f {hex = true, prefix = ""}
    %h = arith.constant {value = -1.5} : f16
    %n = arith.constant {value = -7} : i8
    tt.print %h, %n {hex = false, prefix = "v "}
    tt.print
    tt.return
  })
}))");
  r.runOk("k", {KernelArg::i32(255), KernelArg::f32(1.0f)}, {2, 1, 1});
  std::string expected;
  for (int p = 0; p < 2; ++p) {
    std::string pid = "pid (" + std::to_string(p) + ", 0, 0)";
    expected += pid + " pid: " + std::to_string(p) + "\n";
    expected += pid + " idx (0, 0) r=0\n" + pid + " idx (0, 1) r=1\n" + pid + " idx (1, 0) r=2\n" + pid +
                " idx (1, 1) r=3\n";
    expected += pid + " 0xff (operand 0)\n" + pid + " 0x3f800000 (operand 1)\n";
    expected += pid + " v -1.5 (operand 0)\n" + pid + " v -7 (operand 1)\n";
    expected += pid + " \n";
  }
  CHECK(r.printed.str() == expected);
  CHECK(r.executed("tt.print"));
}

TEST_CASE("tt.assert passes silently and fails with its message and location") {
  Runner r;
  r.load(R"(builtin.module ({
  tt.func {sym_name = "k"} ({
  ^(%limit: i32):
    %r = tt.make_range {end = 8, start = 0} : block<8xi32>
    %l = tt.splat %limit : block<8xi32>
    %ok = arith.cmpi %r, %l {predicate = "slt"} : block<8xi1>
    tt.assert %ok {message = "index out of range"} loc("a.py":12:5)
    tt.return
  })
}))");
  r.runOk("k", {KernelArg::i32(8)});
  CHECK(r.executed("tt.assert"));
  CHECK_FALSE(r.run("k", {KernelArg::i32(6)}, {1, 1, 1}));
  CHECK(r.error() == "assertion failed: index out of range at index (6) in program (0, 0, 0)");
  CHECK(r.diags.list()[0].loc.str() == "a.py:12:5");
}

TEST_CASE("bad kernel names and argument lists are errors") {
  Runner r;
  r.load(R"(builtin.module ({
  tt.func {sym_name = "k"} ({
  ^(%p: ptr<f16>, %n: i32):
    tt.return
  })
}))");
  std::vector<uint16_t> buf(4);
  CHECK_FALSE(r.run("nope", {}));
  CHECK(r.error() == "no function named 'nope' in the module");
  CHECK_FALSE(r.run("k", {KernelArg::i32(1)}));
  CHECK(r.error() == "kernel 'k' takes 2 arguments, got 1");
  CHECK_FALSE(r.run("k", {KernelArg::pointer(buf.data()), KernelArg::i64(3)}));
  CHECK(r.error() == "kernel 'k' argument #1 must be i32, got i64");
  CHECK_FALSE(r.run("k", {KernelArg::i32(0), KernelArg::i32(3)}));
  CHECK(r.error() == "kernel 'k' argument #0 must be ptr<f16>, got i32");
  r.runOk("k", {KernelArg::pointer(buf.data()), KernelArg::i32(3)}); // any pointee will do
}
