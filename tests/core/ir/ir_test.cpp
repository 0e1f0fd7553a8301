#include "trident/ir/Builder.h"

#include <doctest/doctest.h>

using namespace trident;

TEST_CASE("types are interned and print their textual form") {
  CHECK(Type::i32() == Type::i32());
  CHECK(Type::block({128, 64}, Type::f16()).str() == "block<128x64xf16>");
  CHECK(Type::block({}, Type::f16()) == Type::f16());
  CHECK(Type::block({128}, Type::ptr(Type::f32())).str() == "block<128xptr<f32>>");
  CHECK(Type::ptr(Type::f16(), 3).str() == "ptr<f16, 3>");
  CHECK(Type::block({4, 8}, Type::i8()).numElements() == 32);
  CHECK(Type::block({4}, Type::f32()).withElement(Type::i1()) == Type::block({4}, Type::i1()));
  CHECK(Type::bf16().bitWidth() == 16);
  CHECK(Type::ptr(Type::i8()).bitWidth() == 64);
}

TEST_CASE("op table lookups by name") {
  CHECK(opCodeByName("arith.addi") == OpCode::AddI);
  CHECK(opCodeByName("scf.for") == OpCode::For);
  CHECK(!opCodeByName("arith.nope"));
  for (unsigned i = 0; i < numOpCodes(); ++i)
    CHECK(opCodeByName(opInfo(static_cast<OpCode>(i)).name) == static_cast<OpCode>(i));
}

TEST_CASE("builder, use lists, clone and erase") {
  Module m;
  Builder b(m);
  Type ptr = Type::ptr(Type::f32());
  Op *f = b.func("add", std::vector<Type>{ptr, Type::i32()}, {});
  b.setInsertionPointToEnd(f->region());
  Value *range = b.makeRange(0, 128);
  Value *n = b.splat(f->region()->argument(1), std::vector<int64_t>{128});
  Value *mask = b.cmpi("slt", range, n);
  Value *ptrs = b.addPtr(b.splat(f->region()->argument(0), std::vector<int64_t>{128}), range);
  Value *x = b.load(ptrs, mask, b.constFloat(0.0, Type::block({128}, Type::f32())));
  b.store(ptrs, b.binary(OpCode::AddF, x, x), mask);
  b.ret();

  CHECK(m.lookupFunction("add") == f);
  CHECK(range->uses().size() == 2);
  CHECK(mask->type() == Type::block({128}, Type::i1()));
  CHECK(x->type() == Type::block({128}, Type::f32()));

  Module copy = m.clone();
  Op *g = copy.lookupFunction("add");
  REQUIRE(g);
  CHECK(g != f);
  CHECK(g->region()->size() == f->region()->size());
  CHECK(func::argumentTypes(g) == func::argumentTypes(f));

  // Replace the mask by a constant and drop the comparison.
  Value *all = b.constBool(true, Type::block({128}, Type::i1()));
  all->definingOp()->moveBefore(mask->definingOp());
  Op *cmp = mask->definingOp();
  mask->replaceAllUsesWith(all);
  CHECK(!mask->hasUses());
  cmp->erase();
  CHECK(range->uses().size() == 1);
}
