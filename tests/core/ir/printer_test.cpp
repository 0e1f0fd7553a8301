#include "trident/ir/Builder.h"
#include "trident/ir/Printer.h"

#include <doctest/doctest.h>

#include <cmath>
#include <limits>

using namespace trident;

namespace {

// A kernel that touches regions, block arguments, attributes and locations.
Module buildSampleModule() {
  Module m;
  Builder b(m);
  Type ptr = Type::ptr(Type::f32());
  Op *f = b.func("add_kernel", std::vector<Type>{ptr, Type::i32()}, {});
  b.setInsertionPointToEnd(f->region());
  b.setLoc(Location::get("add.py", 5, 11));
  Value *pid = b.programId(0);
  b.setLoc(Location());
  Value *range = b.makeRange(0, 4);
  Value *n = b.splat(f->region()->argument(1), std::vector<int64_t>{4});
  Value *mask = b.cmpi("slt", range, n);
  Value *ptrs = b.addPtr(b.splat(f->region()->argument(0), std::vector<int64_t>{4}), range);
  Value *x = b.load(ptrs, mask);
  Value *one = b.constFloat(1.5, Type::f32());
  Value *lb = b.constInt(0, Type::i32());
  Op *loop = b.forOp(lb, pid, pid, std::vector<Value *>{one});
  {
    Builder inner;
    inner.setInsertionPointToEnd(loop->region());
    Value *acc = loop->region()->argument(1);
    Value *sum = inner.binary(OpCode::AddF, acc, acc);
    inner.yield(std::vector<Value *>{sum});
  }
  Value *s = b.splat(loop->result(0), std::vector<int64_t>{4});
  b.store(ptrs, b.binary(OpCode::MulF, x, s), mask);
  b.ret();
  return m;
}

} // namespace

TEST_CASE("printer writes the documented textual form") {
  Module m = buildSampleModule();
  const char *expected = R"(builtin.module ({
  tt.func {sym_name = "add_kernel"} ({
  ^(%0: ptr<f32>, %1: i32):
    %2 = tt.get_program_id {axis = 0} : i32 loc("add.py":5:11)
    %3 = tt.make_range {end = 4, start = 0} : block<4xi32>
    %4 = tt.splat %1 : block<4xi32>
    %5 = arith.cmpi %3, %4 {predicate = "slt"} : block<4xi1>
    %6 = tt.splat %0 : block<4xptr<f32>>
    %7 = tt.addptr %6, %3 : block<4xptr<f32>>
    %8 = tt.load %7, %5 : block<4xf32>
    %9 = arith.constant {value = 1.5} : f32
    %10 = arith.constant {value = 0} : i32
    %11 = scf.for %10, %2, %2, %9 : f32 ({
    ^(%12: i32, %13: f32):
      %14 = arith.addf %13, %13 : f32
      scf.yield %14
    })
    %15 = tt.splat %11 : block<4xf32>
    %16 = arith.mulf %8, %15 : block<4xf32>
    tt.store %7, %16, %5
    tt.return
  })
})
)";
  CHECK(print(m) == expected);
  PrintOptions noLocs;
  noLocs.locations = false;
  CHECK(print(m, noLocs).find("loc(") == std::string::npos);
}

TEST_CASE("printing one op names outside values %?N") {
  Module m = buildSampleModule();
  Op *f = m.functions().at(0);
  Op *loop = nullptr;
  for (Op *op : *f->region())
    if (op->is(OpCode::For))
      loop = op;
  REQUIRE(loop);
  CHECK(print(loop) == R"(%0 = scf.for %?0, %?1, %?1, %?2 : f32 ({
^(%1: i32, %2: f32):
  %3 = arith.addf %2, %2 : f32
  scf.yield %3
}))");
  // A whole function numbers from zero as in the module.
  CHECK(print(f).rfind("tt.func {sym_name = \"add_kernel\"} ({\n^(%0: ptr<f32>, %1: i32):", 0) == 0);
}

TEST_CASE("printer: attributes, empty regions, multiple results, escaped strings") {
  Module m;
  Builder b(m);
  Op *f = b.func("g", std::vector<Type>{Type::i1(), Type::block({8}, Type::f16())},
                 std::vector<Type>{Type::i32()});
  b.setInsertionPointToEnd(f->region());
  Value *c = f->region()->argument(0);
  Op *ifOp = b.ifOp(c, {});
  Builder inner;
  inner.setInsertionPointToEnd(ifOp->region(0));
  inner.yield();
  auto [lo, hi] = b.split(f->region()->argument(1));
  (void)lo;
  (void)hi;
  b.create(OpCode::Print, {}, {},
           {{"prefix", Attribute::string("a\"b\\c\n\t\x01\xff")}, {"hex", Attribute::boolean(false)}});
  b.create(OpCode::Constant, {}, {Type::f64()}, {{"value", Attribute::floating(0.1)}});
  b.create(OpCode::Constant, {}, {Type::f64()},
           {{"value", Attribute::floating(-std::numeric_limits<double>::infinity())}});
  b.create(OpCode::Constant, {}, {Type::f64()}, {{"value", Attribute::floating(1e300)}});
  b.create(
      OpCode::Trans, {}, {},
      {{"order", Attribute::ints({})}, {"t", Attribute::types({Type::i8(), Type::ptr(Type::f16(), 3)})}});
  Value *k = b.constInt(-7, Type::i32());
  b.ret(std::vector<Value *>{k});
  const char *expected = R"(builtin.module ({
  tt.func {result_types = [i32], sym_name = "g"} ({
  ^(%0: i1, %1: block<8xf16>):
    scf.if %0 ({
      scf.yield
    }, {})
    %2, %3 = tt.split %1 : f16, f16
    tt.print {hex = false, prefix = "a\"b\\c\n\t\01\FF"}
    %4 = arith.constant {value = 0.1} : f64
    %5 = arith.constant {value = -inf} : f64
    %6 = arith.constant {value = 1e+300} : f64
    tt.trans {order = [], t = [i8, ptr<f16, 3>]}
    %7 = arith.constant {value = -7} : i32
    tt.return %7
  })
})
)";
  CHECK(print(m) == expected);
}
