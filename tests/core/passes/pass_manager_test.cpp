#include "trident/ir/Builder.h"
#include "trident/ir/Parser.h"
#include "trident/passes/PassManager.h"
#include "trident/passes/PassRegistry.h"
#include "trident/passes/Pipeline.h"

#include <doctest/doctest.h>

#include <sstream>

using namespace trident;

namespace {

// f(x) = (x + x) * 3, stored through p.
Module sampleModule() {
  Module m;
  Builder b(m);
  Op *f = b.func("k", std::vector<Type>{Type::ptr(Type::i32()), Type::i32()}, {});
  b.setInsertionPointToEnd(f->region());
  Value *x = f->region()->argument(1);
  Value *sum = b.binary(OpCode::AddI, x, x);
  Value *prod = b.binary(OpCode::MulI, sum, b.constInt(3, Type::i32()));
  b.store(f->region()->argument(0), prod);
  b.ret();
  return m;
}

// Changes the result type of the first arith.muli to i64 without touching its uses.
bool breakTypes(Module &m, Diagnostics &) {
  m.op()->walk([](Op *op) {
    if (op->is(OpCode::MulI))
      op->result()->setType(Type::i64());
  });
  return true;
}

} // namespace

TEST_CASE("passes run in the order they were added") {
  Module m = sampleModule();
  std::vector<std::string> ran;
  PassManager pm;
  for (std::string name : {"first", "second", "third"})
    pm.add(name, [&ran, name](Module &, Diagnostics &) {
      ran.push_back(name);
      return true;
    });
  Diagnostics diags;
  CHECK(pm.run(m, diags));
  CHECK(diags.empty());
  CHECK(ran == std::vector<std::string>{"first", "second", "third"});
  CHECK(pm.passNames() == ran);
}

TEST_CASE("the verifier after each pass names the pass that broke the IR") {
  Module m = sampleModule();
  bool laterPassRan = false;
  PassManager pm;
  pm.add("canonicalize", lookupPass("canonicalize")->run);
  pm.add("break-types", breakTypes);
  pm.add("later", [&](Module &, Diagnostics &) { return laterPassRan = true; });
  Diagnostics diags;
  CHECK_FALSE(pm.run(m, diags));
  CHECK_FALSE(laterPassRan);
  REQUIRE(diags.list().size() >= 2);
  CHECK(diags.list()[0].message == "pass 'break-types' produced invalid IR");
  // The verifier's own message follows: the store now stores an i64 through ptr<i32>.
  CHECK(diags.str().find("tt.store") != std::string::npos);
}

TEST_CASE("without verification a broken pass goes unnoticed") {
  Module m = sampleModule();
  PassManagerOptions options;
  options.verifyEach = false;
  PassManager pm(options);
  pm.add("break-types", breakTypes);
  Diagnostics diags;
  CHECK(pm.run(m, diags));
  CHECK(diags.empty());
}

TEST_CASE("a failing pass stops the pipeline and is named") {
  Module m = sampleModule();
  bool laterPassRan = false;
  PassManager pm;
  pm.add("fails", [](Module &, Diagnostics &d) {
    d.error(Location::get("k.py", 3, 4), "cannot do this");
    return false;
  });
  pm.add("later", [&](Module &, Diagnostics &) { return laterPassRan = true; });
  Diagnostics diags;
  CHECK_FALSE(pm.run(m, diags));
  CHECK_FALSE(laterPassRan);
  REQUIRE(diags.list().size() == 2);
  CHECK(diags.list()[0].str() == "k.py:3:4: error: cannot do this");
  CHECK(diags.list()[1].message == "pass 'fails' failed");
}

TEST_CASE("the IR can be printed after every pass") {
  Module m = sampleModule();
  std::ostringstream dump;
  PassManagerOptions options;
  options.printAfterEach = &dump;
  PassManager pm(options);
  pm.add("canonicalize", lookupPass("canonicalize")->run);
  pm.add("dce", lookupPass("dce")->run);
  Diagnostics diags;
  REQUIRE(pm.run(m, diags));
  std::string text = dump.str();
  size_t first = text.find("// ----- IR after canonicalize ----- //\nbuiltin.module");
  size_t second = text.find("// ----- IR after dce ----- //\nbuiltin.module");
  CHECK(first != std::string::npos);
  CHECK(second != std::string::npos);
  CHECK(first < second);
  // Each dump is a whole module that parses again.
  Diagnostics parseDiags;
  CHECK(parseModule(text.substr(second + text.substr(second).find('\n') + 1), "dump", parseDiags));
  CHECK(parseDiags.empty());
}

TEST_CASE("pass timing gives one row per pass and a total") {
  Module m = sampleModule();
  PassManagerOptions options;
  options.timePasses = true;
  PassManager pm(options);
  pm.add("cse", lookupPass("cse")->run);
  pm.add("licm", lookupPass("licm")->run);
  Diagnostics diags;
  REQUIRE(pm.run(m, diags));
  REQUIRE(pm.timings().size() == 2);
  CHECK(pm.timings()[0].first == "cse");
  CHECK(pm.timings()[1].first == "licm");
  std::ostringstream table;
  pm.printTimings(table);
  std::string text = table.str();
  CHECK(text.find("pass timings") != std::string::npos);
  CHECK(text.find("  cse\n") != std::string::npos);
  CHECK(text.find("  licm\n") != std::string::npos);
  CHECK(text.find("100.0%  total\n") != std::string::npos);
  CHECK(text.find("cse") < text.find("licm"));
}

TEST_CASE("every pass is registered under its flag name") {
  std::vector<std::string> names;
  for (const PassInfo &p : allPasses()) {
    names.push_back(std::string(p.name));
    CHECK(lookupPass(p.name) == &p);
    CHECK((p.run != nullptr));
    CHECK(!p.summary.empty());
  }
  CHECK(names ==
        std::vector<std::string>{"inline", "canonicalize", "cse", "version-signs", "licm", "flatten-loops", "dce"});
  CHECK(lookupPass("nope") == nullptr);
}

TEST_CASE("the default pipeline is a fixed list of registered passes") {
  PassManager pm;
  addDefaultPipeline(pm);
  std::vector<std::string> names = pm.passNames();
  CHECK(names ==
        std::vector<std::string>{"inline", "canonicalize", "cse", "version-signs", "licm", "flatten-loops",
                                 "canonicalize", "cse", "dce"});
  for (const std::string &name : names)
    CHECK(lookupPass(name) != nullptr);
  Module m = sampleModule();
  Diagnostics diags;
  CHECK(pm.run(m, diags));
  CHECK(diags.empty());
}
