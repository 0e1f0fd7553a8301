// The passes on IR built or parsed in C++: properties that hold for every input
// (valid IR out, a second run changes nothing) and cases clearer in C++ than in lit.

#include "trident/ir/Builder.h"
#include "trident/ir/Parser.h"
#include "trident/ir/Printer.h"
#include "trident/ir/Verifier.h"
#include "trident/passes/CSE.h"
#include "trident/passes/Canonicalize.h"
#include "trident/passes/DCE.h"
#include "trident/passes/Inline.h"
#include "trident/passes/LICM.h"
#include "trident/passes/PassManager.h"
#include "trident/passes/PassRegistry.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using namespace trident;

namespace {

Module parse(std::string_view text) {
  Diagnostics diags;
  std::optional<Module> m = parseModule(text, "test", diags);
  INFO(diags.str());
  REQUIRE(m);
  REQUIRE(verify(*m, diags));
  return std::move(*m);
}

std::string printed(const Module &m) {
  PrintOptions opts;
  opts.locations = false;
  return print(m, opts);
}

size_t countOps(const Module &m, OpCode code) {
  size_t n = 0;
  m.op()->walk([&](Op *op) { n += op->is(code); });
  return n;
}

// The block-IR samples that the printer and parser tests round-trip: every op appears.
std::vector<std::filesystem::path> blockIrSamples() {
  std::filesystem::path dir =
      std::filesystem::path(__FILE__).parent_path().parent_path() / "ir" / "roundtrip";
  std::vector<std::filesystem::path> files;
  for (const char *name : {"arith.tir", "control.tir", "hints.tir", "memory.tir"})
    if (std::filesystem::exists(dir / name))
      files.push_back(dir / name);
  return files;
}

std::string readFile(const std::filesystem::path &p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

} // namespace

TEST_CASE("every pass keeps the round-trip samples valid, and a second run changes nothing") {
  std::vector<std::filesystem::path> samples = blockIrSamples();
  REQUIRE(samples.size() == 4); // found next to this file: tests/core/ir/roundtrip
  for (const std::filesystem::path &sample : samples) {
    std::string text = readFile(sample);
    for (const PassInfo &pass : allPasses()) {
      INFO(sample.filename().string() << " --" << pass.name);
      Module m = parse(text);
      Diagnostics diags;
      REQUIRE(pass.run(m, diags));
      CHECK(verify(m, diags));
      CHECK(diags.str() == "");
      std::string once = printed(m);
      REQUIRE(pass.run(m, diags));
      CHECK(printed(m) == once);
    }
    // And the whole pipeline, through the pass manager with verification after each pass.
    Module m = parse(text);
    PassManager pm;
    for (const PassInfo &pass : allPasses())
      pm.add(std::string(pass.name), pass.run);
    Diagnostics diags;
    CHECK(pm.run(m, diags));
    CHECK(diags.str() == "");
  }
}

TEST_CASE("dce removes a dead chain that crosses regions in one run") {
  Module m = parse(R"(builtin.module ({
  tt.func {sym_name = "f"} ({
  ^(%c: i1, %x: f32, %p: ptr<f32>):
    %a = arith.mulf %x, %x : f32
    %b = arith.addf %a, %x : f32
    %r = scf.if %c : f32 ({
      %d = arith.addf %b, %b : f32
      scf.yield %d
    }, {
      scf.yield %x
    })
    %e = math.exp %r : f32
    tt.store %p, %x
    tt.return
  })
}))");
  Diagnostics diags;
  REQUIRE(eliminateDeadCode(m, diags));
  CHECK(verify(m, diags));
  Op *f = m.lookupFunction("f");
  REQUIRE(f->region()->size() == 2); // the store and the return
  CHECK(f->region()->front()->is(OpCode::Store));
}

TEST_CASE("dce keeps ops with effects even when their results are unused") {
  Module m = parse(R"(builtin.module ({
  tt.func {sym_name = "f"} ({
  ^(%p: ptr<i32>, %v: i32):
    %0 = tt.atomic_rmw %p, %v {kind = "add", scope = "gpu", sem = "acq_rel"} : i32
    %1 = tt.load %p {volatile = true} : i32
    %2 = tt.call %v {callee = "g"} : i32
    tt.return
  })
  tt.func {result_types = [i32], sym_name = "g"} ({
  ^(%a: i32):
    tt.return %a
  })
}))");
  Diagnostics diags;
  REQUIRE(eliminateDeadCode(m, diags));
  CHECK(countOps(m, OpCode::AtomicRMW) == 1);
  CHECK(countOps(m, OpCode::Load) == 1);
  CHECK(countOps(m, OpCode::Call) == 1);
}

TEST_CASE("cse merges ops that licm brought together") {
  // The same product appears before the loop and inside it; after licm hoists the
  // inner one, cse sees both in one region.
  Module m = parse(R"(builtin.module ({
  tt.func {sym_name = "f"} ({
  ^(%n: i32, %p: ptr<i32>, %x: i32):
    %c0 = arith.constant {value = 0} : i32
    %c1 = arith.constant {value = 1} : i32
    %outer = arith.muli %x, %x : i32
    tt.store %p, %outer
    scf.for %c0, %n, %c1 ({
    ^(%i: i32):
      %inner = arith.muli %x, %x : i32
      %s = arith.addi %inner, %i : i32
      tt.store %p, %s
      scf.yield
    })
    tt.return
  })
}))");
  Diagnostics diags;
  REQUIRE(hoistLoopInvariants(m, diags));
  REQUIRE(eliminateCommonSubexpressions(m, diags));
  CHECK(verify(m, diags));
  CHECK(countOps(m, OpCode::MulI) == 1);
  CHECK(countOps(m, OpCode::Constant) == 2);
}

TEST_CASE("inline copies the callee once per call and keeps the callee's locations") {
  Module m;
  Builder b(m);
  Op *helper = b.func("helper", std::vector<Type>{Type::f32()}, std::vector<Type>{Type::f32()});
  helper->setAttr("private", Attribute::boolean(true));
  b.setInsertionPointToEnd(helper->region());
  b.setLoc(Location::get("helper.py", 4, 11));
  Value *doubled = b.binary(OpCode::AddF, helper->region()->argument(0), helper->region()->argument(0));
  Value *ret[] = {doubled};
  b.ret(ret);

  b.setInsertionPointToEnd(m.body());
  b.setLoc(Location::get("kernel.py", 9, 3));
  Op *kernel = b.func("kernel", std::vector<Type>{Type::ptr(Type::f32()), Type::f32()}, {});
  b.setInsertionPointToEnd(kernel->region());
  Value *arg[] = {kernel->region()->argument(1)};
  Value *once = b.call(helper, arg)->result();
  Value *arg2[] = {once};
  Value *twice = b.call(helper, arg2)->result();
  b.store(kernel->region()->argument(0), twice);
  b.ret();

  Diagnostics diags;
  REQUIRE(verify(m, diags));
  REQUIRE(inlineCalls(m, diags));
  REQUIRE(verify(m, diags));
  CHECK(m.lookupFunction("helper") == nullptr); // private and no longer called
  CHECK(countOps(m, OpCode::Call) == 0);
  std::vector<Op *> adds;
  m.op()->walk([&](Op *op) {
    if (op->is(OpCode::AddF))
      adds.push_back(op);
  });
  REQUIRE(adds.size() == 2);
  CHECK(adds[0]->loc() == Location::get("helper.py", 4, 11));
  CHECK(adds[1]->operand(0) == adds[0]->result());
  Op *store = kernel->region()->terminator()->prev();
  REQUIRE(store->is(OpCode::Store));
  CHECK(store->operand(1) == adds[1]->result());
}

TEST_CASE("canonicalize leaves ops with effects and unknown values alone") {
  Module m = parse(R"(builtin.module ({
  tt.func {result_types = [f32], sym_name = "f"} ({
  ^(%p: ptr<f32>, %x: f32):
    %c = arith.constant {value = 2.0} : f32
    %0 = tt.load %p : f32
    %1 = arith.mulf %0, %c : f32
    %2 = arith.addf %1, %x : f32
    tt.store %p, %2
    tt.return %2
  })
}))");
  std::string before = printed(m);
  Diagnostics diags;
  REQUIRE(canonicalize(m, diags));
  CHECK(printed(m) == before);
}
