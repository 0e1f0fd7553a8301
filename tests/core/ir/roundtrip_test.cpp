// Round trips: canonical text -> parse -> print gives the text back, and every op of
// the op table appears in at least one sample (tests/core/ir/roundtrip/*.tir), so an op
// added without a sample fails here.
#include "trident/ir/Builder.h"
#include "trident/ir/Parser.h"
#include "trident/ir/Printer.h"

#include "Samples.h"

#include <doctest/doctest.h>

#include <limits>
#include <map>
#include <set>

using namespace trident;

namespace {

std::optional<Module> parseOrReport(const std::string &text, const std::string &name) {
  Diagnostics diags;
  std::optional<Module> m = parseModule(text, name, diags);
  INFO(diags.str());
  CHECK(diags.empty());
  return m;
}

} // namespace

TEST_CASE("every sample round-trips exactly and every op has a sample") {
  std::map<std::string, std::string> samples = testing::loadRoundTripSamples();
  REQUIRE(samples.size() >= 4);
  std::set<OpCode> seen;
  for (const auto &[name, text] : samples) {
    CAPTURE(name);
    std::optional<Module> m = parseOrReport(text, name);
    REQUIRE(m);
    CHECK(print(*m) == text);
    m->op()->walk([&](Op *op) { seen.insert(op->code()); });
    // Printing without locations and parsing again keeps everything else.
    PrintOptions noLocs;
    noLocs.locations = false;
    std::string bare = print(*m, noLocs);
    std::optional<Module> again = parseOrReport(bare, name);
    REQUIRE(again);
    CHECK(print(*again, noLocs) == bare);
  }
  for (unsigned i = 0; i < numOpCodes(); ++i) {
    std::string_view name = opInfo(static_cast<OpCode>(i)).name;
    INFO("op without a round-trip sample in tests/core/ir/roundtrip: ", name);
    CHECK(seen.count(static_cast<OpCode>(i)) == 1);
  }
}

TEST_CASE("parsed values, attributes, types and locations are the ones written") {
  const char *text = R"(builtin.module ({
  tt.func {sym_name = "f"} ({
  ^(%a: ptr<f16, 3>, %b: i32):
    %c, %d = tt.split %e.1 : f32, f32
  })
})
)";
  Diagnostics diags;
  CHECK(!parseModule(text, "t.tir", diags));
  REQUIRE(diags.list().size() == 1);
  CHECK(diags.list()[0].str() == "t.tir:4:23: error: use of undefined value '%e.1'");

  const char *good = R"(builtin.module ({
  tt.func {sym_name = "f"} ({
  ^(%arg$0: ptr<f16, 3>, %n: i32):
    %x = tt.load %arg$0 {volatile = true} : f16 loc("a.py":12:34)
    %y.1, %y.2 = tt.split %z : f32, f32
  })
})
)";
  diags.clear();
  CHECK(!parseModule(good, "t.tir", diags)); // %z is undefined
  const char *valid = R"(builtin.module ({
  tt.func {sym_name = "f"} ({
  ^(%arg$0: ptr<f16, 3>, %n: i32):
    %x = tt.load %arg$0 {volatile = true} : f16 loc("a.py":12:34)
    %y.1 = arith.extf %x : f32 // a trailing comment
    tt.return
  })
})
)";
  diags.clear();
  std::optional<Module> m = parseModule(valid, "t.tir", diags);
  INFO(diags.str());
  REQUIRE(m);
  Op *f = m->lookupFunction("f");
  REQUIRE(f);
  CHECK(func::argumentTypes(f) == std::vector<Type>{Type::ptr(Type::f16(), 3), Type::i32()});
  std::vector<Op *> ops = f->region()->ops();
  REQUIRE(ops.size() == 3);
  CHECK(ops[0]->is(OpCode::Load));
  CHECK(ops[0]->operand(0) == f->region()->argument(0));
  CHECK(ops[0]->attr("volatile") == Attribute::boolean(true));
  CHECK(ops[0]->result()->type() == Type::f16());
  CHECK(ops[0]->loc() == Location::get("a.py", 12, 34));
  CHECK(ops[1]->operand(0) == ops[0]->result());
  CHECK(ops[1]->result()->type() == Type::f32());
  CHECK(ops[0]->result()->uses().size() == 1);
  CHECK(!ops[2]->loc().known());
}

TEST_CASE("builder modules print, parse and print identically") {
  Module m;
  Builder b(m);
  Type f32 = Type::f32();
  Type ptr = Type::ptr(f32);
  Op *f = b.func("softmax", std::vector<Type>{ptr, ptr, Type::i32()}, std::vector<Type>{f32});
  b.setInsertionPointToEnd(f->region());
  b.setLoc(Location::get("softmax.py", 10, 4));
  Value *range = b.makeRange(0, 128);
  Value *pid = b.programId(0);
  Value *base = b.splat(b.binary(OpCode::MulI, pid, f->region()->argument(2)), std::vector<int64_t>{128});
  Value *offs = b.binary(OpCode::AddI, base, range);
  Value *mask = b.cmpi("slt", range, b.splat(f->region()->argument(2), std::vector<int64_t>{128}));
  Value *in = b.addPtr(b.splat(f->region()->argument(0), std::vector<int64_t>{128}), offs);
  Value *ninf = b.constFloat(-std::numeric_limits<double>::infinity(), Type::block({128}, f32));
  Value *x = b.load(in, mask, ninf);
  auto combine = [](OpCode code) {
    return [code](Builder &ib, std::span<Value *const> l, std::span<Value *const> r) {
      return std::vector<Value *>{ib.binary(code, l[0], r[0])};
    };
  };
  Value *xs[] = {x};
  Value *mx = b.reduce(xs, 0, combine(OpCode::MaxNumF))->result();
  Value *e = b.unary(OpCode::Exp, b.binary(OpCode::SubF, x, b.splat(mx, std::vector<int64_t>{128})));
  Value *es[] = {e};
  Value *sum = b.reduce(es, 0, combine(OpCode::AddF))->result();
  Value *cs = b.scan(es, 0, true, combine(OpCode::AddF))->result();
  Value *y = b.binary(OpCode::DivF, cs, b.splat(sum, std::vector<int64_t>{128}));
  Value *out = b.addPtr(b.splat(f->region()->argument(1), std::vector<int64_t>{128}), offs);
  b.store(out, y, mask);
  Value *zero = b.constInt(0, Type::i32());
  Value *one = b.constInt(1, Type::i32());
  Value *inits[] = {sum};
  Op *loop = b.forOp(zero, f->region()->argument(2), one, inits);
  {
    Builder ib;
    ib.setInsertionPointToEnd(loop->region());
    Op *ifOp = ib.ifOp(ib.cmpi("eq", loop->region()->argument(0), zero), std::vector<Type>{f32});
    Builder tb;
    tb.setInsertionPointToEnd(ifOp->region(0));
    Value *thenVals[] = {tb.binary(OpCode::MulF, loop->region()->argument(1), loop->region()->argument(1))};
    tb.yield(thenVals);
    tb.setInsertionPointToEnd(ifOp->region(1));
    Value *elseVals[] = {loop->region()->argument(1)};
    tb.yield(elseVals);
    Value *yielded[] = {ifOp->result(0)};
    ib.yield(yielded);
  }
  Value *rets[] = {loop->result(0)};
  b.ret(rets);
  b.setInsertionPointToEnd(m.body());
  Op *g = b.func("caller", std::vector<Type>{}, {});
  b.setInsertionPointToEnd(g->region());
  b.ret();

  std::string text = print(m);
  Diagnostics diags;
  std::optional<Module> parsed = parseModule(text, "builder", diags);
  INFO(diags.str());
  INFO(text);
  REQUIRE(parsed);
  CHECK(print(*parsed) == text);
  CHECK(print(parsed->clone()) == text);
  CHECK(text.find("%?") == std::string::npos);
}

TEST_CASE("parseType reads every kind of type") {
  for (Type t : {Type::i1(), Type::i64(), Type::bf16(), Type::f8e4m3(), Type::ptr(Type::ptr(Type::i8()), 5),
                 Type::block({2, 4, 8}, Type::ptr(Type::f32())), Type::vector(4, Type::f16())}) {
    Diagnostics diags;
    std::optional<Type> parsed = parseType(t.str(), diags);
    CAPTURE(t.str());
    REQUIRE(parsed);
    CHECK(*parsed == t);
  }
  Diagnostics diags;
  CHECK(!parseType("block<4xf32> x", diags));
  CHECK(diags.str() == "<type>:1:14: error: expected end of input after the type\n");
}
