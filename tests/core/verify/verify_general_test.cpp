// The verifier's general rules: counts from the op table, well-formed types,
// dominance and isolation, terminator placement, locations, error collection.
// Rules the parser already enforces on text are broken here by editing parsed IR.

#include "VerifyTestUtil.h"

#include "trident/ir/Builder.h"

using namespace trident;
using verify_test::errors;
using verify_test::errorsOf;
using verify_test::kernel;
using verify_test::parse;

namespace {

// The n-th op (0-based, in walk order) named `name`.
Op *find(const Module &m, std::string_view name, int n = 0) {
  Op *found = nullptr;
  m.op()->walk([&](Op *op) {
    if (!found && op->name() == name && n-- == 0)
      found = op;
  });
  REQUIRE(found);
  return found;
}

} // namespace

TEST_CASE("operand, result and region counts come from the op table") {
  Module m = parse(kernel("    %v1 = arith.addi %n, %n : i32\n    %s = tt.splat %n : block<4xi32>"));
  Op *add = find(m, "arith.addi");
  add->addOperand(add->operand(0));
  add->addResult(Type::i32());
  find(m, "tt.splat")->eraseOperand(0);
  CHECK(errorsOf(m) == "'arith.addi' op expects 2 operands, got 3\n"
                       "'arith.addi' op expects 1 result, got 2\n"
                       "'tt.splat' op expects 1 operand, got 0");

  Module m2 = parse(kernel(""));
  Builder b;
  b.setInsertionPoint(find(m2, "tt.return"));
  Block *body = find(m2, "tt.func")->region();
  Value *operands[] = {body->argument(2), body->argument(2)};
  Type types[] = {Type::i32()};
  b.create(OpCode::AddI, operands, types, {}, 1);
  b.create(OpCode::For, operands, {}, {}, 1);
  CHECK(errorsOf(m2) == "'arith.addi' op expects 0 regions, got 1\n"
                        "'scf.for' op expects at least 3 operands, got 2");
}

TEST_CASE("block types must have power-of-two dimensions") {
  CHECK(errors("    %s = tt.splat %n : block<4x3xi32>") ==
        "'tt.splat' op result has type block<4x3xi32>, but block dimensions must be powers of two");
  CHECK(
      errors(R"(    scf.for %n, %n, %n ({
    ^(%iv: i32, %q: block<6xf32>):
      scf.yield
    }))") ==
      "'scf.for' op region has 2 arguments, expected 1 (the induction variable, then one per loop-carried "
      "value)\n"
      "'scf.for' op region #0 argument #1 has type block<6xf32>, but block dimensions must be powers of two");
}

TEST_CASE("an operand must be defined before its use") {
  Module m = parse(kernel("    %v1 = arith.addi %n, %n : i32\n    %v2 = arith.muli %v1, %v1 : i32"));
  Op *mul = find(m, "arith.muli");
  mul->moveBefore(find(m, "arith.addi"));
  CHECK(errorsOf(m) == "'arith.muli' op operand #0 does not dominate this use\n"
                       "'arith.muli' op operand #1 does not dominate this use");

  // An op may not use its own result.
  Module self = parse(kernel("    %v1 = arith.addi %n, %n : i32"));
  Op *add = find(self, "arith.addi");
  add->setOperand(1, add->result());
  CHECK(errorsOf(self) == "'arith.addi' op operand #1 does not dominate this use");
}

TEST_CASE("values of a region are not visible after it, those around it are") {
  Module m = parse(kernel(R"(    %r = scf.for %n, %n, %n, %f : f32 ({
    ^(%iv: i32, %t: f32):
      %in = arith.addf %t, %f : f32
      scf.yield %in
    })
    %after = arith.negf %r : f32)"));
  CHECK(errorsOf(m).empty()); // %f comes from around the loop
  Op *neg = find(m, "arith.negf");
  neg->setOperand(0, find(m, "arith.addf")->result());
  CHECK(errorsOf(m) == "'arith.negf' op operand #0 does not dominate this use");
  // Nor is a value of one branch visible in the other.
  Module branches = parse(kernel(R"(    %r = scf.if %c : f32 ({
      %t = arith.negf %f : f32
      scf.yield %t
    }, {
      scf.yield %f
    }))"));
  find(branches, "scf.yield", 1)->setOperand(0, find(branches, "arith.negf")->result());
  CHECK(errorsOf(branches) == "'scf.yield' op operand #0 does not dominate this use");
}

TEST_CASE("a function does not see values of another function") {
  Module m = parse(R"(builtin.module ({
  tt.func {sym_name = "a"} ({
  ^(%x: f32):
    %y = arith.negf %x : f32
    tt.return
  })
  tt.func {sym_name = "b"} ({
  ^(%x: f32):
    %y = arith.negf %x : f32
    tt.return
  })
}))");
  CHECK(errorsOf(m).empty());
  Op *first = find(m, "arith.negf", 0), *second = find(m, "arith.negf", 1);
  second->setOperand(0, first->result());
  CHECK(errorsOf(m) == "'arith.negf' op operand #0 is defined outside the isolated region around it");
  second->setOperand(0, m.lookupFunction("a")->region()->argument(0));
  CHECK(errorsOf(m) == "'arith.negf' op operand #0 is defined outside the isolated region around it");
}

TEST_CASE("terminators end their region and nothing follows them") {
  CHECK(errors(R"(    scf.for %n, %n, %n ({
    ^(%iv: i32):
      scf.yield
      %z = arith.addi %iv, %iv : i32
    }))") == "'scf.for' op region must end in 'scf.yield'\n'scf.yield' op must be the last op of its region");
  CHECK(errors("    tt.return\n    %z = arith.addi %n, %n : i32") ==
        "'tt.return' op must be the last op of its region");
}

TEST_CASE("errors are all collected, in order, at the op's location") {
  Module m = parse(kernel("    %v1 = arith.addi %n, %l : i32 loc(\"k.py\":3:7)\n"
                          "    %v2 = arith.addf %n, %n : i32 loc(\"k.py\":4:9)\n"
                          "    %v3 = tt.make_range {end = 3, start = 0} : block<4xi32>"));
  Diagnostics diags;
  CHECK_FALSE(verify(m, diags));
  REQUIRE(diags.list().size() == 3);
  CHECK(diags.list()[0].str() ==
        "k.py:3:7: error: 'arith.addi' op operand types must match, got i32 and i64");
  CHECK(diags.list()[1].str() ==
        "k.py:4:9: error: 'arith.addf' op operands must have float elements, got i32");
  CHECK(diags.list()[2].message == "'tt.make_range' op range has 3 elements, which is not a power of two");
  CHECK_FALSE(diags.list()[2].loc.known());
}

TEST_CASE("verify() keeps earlier diagnostics and reports only its own result") {
  Diagnostics diags;
  diags.error(Location(), "earlier");
  Module good = parse(kernel("    %v1 = arith.addi %n, %n : i32"));
  CHECK(verify(good, diags));
  CHECK(diags.list().size() == 1);
}

TEST_CASE("verifying one op sees the values that dominate it") {
  Module m = parse(kernel(R"(    %v1 = arith.addi %n, %n : i32
    %r = scf.for %n, %n, %n, %v1 : i32 ({
    ^(%iv: i32, %t: i32):
      %s = arith.addi %t, %v1 : i32
      scf.yield %s
    })
    %v2 = arith.muli %r, %v1 : i32)"));
  Op *loop = find(m, "scf.for");
  Op *inner = find(m, "arith.addi", 1);
  Op *mul = find(m, "arith.muli");
  CHECK(errorsOf(loop).empty());
  CHECK(errorsOf(inner).empty());
  CHECK(errorsOf(mul).empty());
  mul->setOperand(1, inner->result());
  CHECK(errorsOf(mul) == "'arith.muli' op operand #1 does not dominate this use");
  CHECK(errorsOf(find(m, "tt.func")) == "'arith.muli' op operand #1 does not dominate this use");
}

TEST_CASE("elementwise ops accept the thread IR's vectors") {
  Module m = parse(R"(builtin.module ({
  tt.func {sym_name = "t"} ({
  ^(%v: vector<4xf32>, %w: vector<4xi32>, %x: block<4xf32>):
    %a = arith.addf %v, %v : vector<4xf32>
    %b = arith.sitofp %w : vector<4xf32>
    %c = arith.cmpf %v, %v {predicate = "olt"} : vector<4xi1>
    tt.return
  })
}))");
  CHECK(errorsOf(m).empty());
  CHECK(errors("    %v1 = arith.addf %x, %x : block<4xf32>").empty());
  Module mixed = parse(R"(builtin.module ({
  tt.func {sym_name = "t"} ({
  ^(%v: vector<4xf32>, %x: block<4xf32>):
    %a = arith.addf %v, %x : vector<4xf32>
    tt.return
  })
}))");
  CHECK(errorsOf(mixed) == "'arith.addf' op operand types must match, got vector<4xf32> and block<4xf32>");
}

TEST_CASE("IR made by the Builder verifies") {
  Module m;
  Builder b(m);
  Type ptr = Type::ptr(Type::f32());
  Type params[] = {ptr, ptr, Type::i32()};
  Op *f = b.func("add", params, {});
  b.setInsertionPointToEnd(f->region());
  Value *x = f->region()->argument(0), *y = f->region()->argument(1), *n = f->region()->argument(2);
  int64_t shape[] = {128};
  Value *pid = b.programId(0);
  Value *base = b.binary(OpCode::MulI, pid, b.constInt(128, Type::i32()));
  Value *offsets = b.binary(OpCode::AddI, b.splat(base, shape), b.makeRange(0, 128));
  Value *mask = b.cmpi("slt", offsets, b.splat(n, shape));
  Value *px = b.addPtr(b.splat(x, shape), offsets);
  Value *py = b.addPtr(b.splat(y, shape), offsets);
  Value *vx = b.load(px, mask, b.constFloat(0.0, Type::block({128}, Type::f32())));
  Value *vy = b.load(py, mask);
  Value *sum = b.binary(OpCode::AddF, vx, vy);
  b.store(py, sum, mask);
  Value *inputs[] = {sum};
  Op *red = b.reduce(inputs, 0, [](Builder &ib, std::span<Value *const> l, std::span<Value *const> r) {
    return std::vector<Value *>{ib.binary(OpCode::MaxNumF, l[0], r[0])};
  });
  Value *inits[] = {red->result()};
  Op *loop = b.forOp(b.constInt(0, Type::i32()), n, b.constInt(1, Type::i32()), inits);
  {
    Builder ib;
    ib.setInsertionPointToEnd(loop->region());
    Value *next[] = {ib.binary(OpCode::AddF, loop->region()->argument(1), loop->region()->argument(1))};
    ib.yield(next);
  }
  b.atomicRMW("fadd", x, loop->result());
  b.ret();
  CHECK(errorsOf(m).empty());
}
