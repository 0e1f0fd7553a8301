// Malformed IR text: each input gives exactly one diagnostic with the expected
// line:column and message, and no module.
#include "trident/ir/Parser.h"

#include <doctest/doctest.h>

#include <string>

using namespace trident;

namespace {

struct BadInput {
  std::string text;
  std::string expected; // "line:col: error: message" after the buffer name
};

// Wraps ops into a function of one i32 argument %0 and one i1 argument %c; the
// ops start on line 4.
std::string inFunc(const std::string &ops) {
  return "builtin.module ({\n"
         "  tt.func {sym_name = \"f\"} ({\n"
         "  ^(%0: i32, %c: i1):\n" +
         ops + "\n  })\n})\n";
}

std::string nestedIfs(int depth) {
  std::string s;
  for (int i = 0; i < depth; ++i)
    s += "scf.if %c ({\n";
  for (int i = 0; i < depth; ++i)
    s += "}, {})\n";
  return inFunc(s);
}

std::string nestedPointers(int depth) {
  std::string t = "i8";
  for (int i = 0; i < depth; ++i)
    t = "ptr<" + t + ">";
  return inFunc("    %1 = tt.int_to_ptr %0 : " + t);
}

} // namespace

TEST_CASE("malformed text gives one located diagnostic") {
  const BadInput cases[] = {
      {"", "1:1: error: expected 'builtin.module'"},
      {"  // only a comment\n", "2:1: error: expected 'builtin.module'"},
      {"tt.func {sym_name = \"f\"} ({})\n",
       "1:1: error: expected 'builtin.module' at top level, got 'tt.func'"},
      {"builtin.module ({\n})\ntt.return\n", "3:1: error: expected end of input after the module"},
      {"builtin.module ({\n  123\n})\n", "2:3: error: expected op name"},
      {"builtin.module ({\n", "2:1: error: expected '}' at end of region"},
      {"builtin.module (\n})\n", "2:1: error: expected '{' to begin a region"},
      {inFunc("    %1 = arith.foo %0 : i32"), "4:10: error: unknown op 'arith.foo'"},
      {inFunc("    %1 = arith.addi %0, %7 : i32"), "4:25: error: use of undefined value '%7'"},
      {inFunc("    %1 = arith.addi %0, %0 : i32\n    %1 = arith.addi %0, %0 : i32"),
       "5:5: error: value '%1' defined twice"},
      {inFunc("    %1, %1 = tt.split %0 : i32, i32"), "4:9: error: value '%1' defined twice"},
      {"builtin.module ({\n  tt.func {sym_name = \"f\"} ({\n  ^(%0: i32, %0: i1):\n  })\n})\n",
       "3:14: error: value '%0' defined twice"},
      {"builtin.module ({\n  tt.func {sym_name = \"f\"} ({\n  ^(%0 i32):\n  })\n})\n",
       "3:8: error: expected ':' after value name"},
      {"builtin.module ({\n  tt.func {sym_name = \"f\"} ({\n  ^(%0: i32)\n  })\n})\n",
       "4:3: error: expected ':' after region arguments"},
      {inFunc("    %1 = arith.addi %0, %0 : i32, i32"),
       "4:10: error: op 'arith.addi' expects 1 result type, got 2"},
      {inFunc("    %1 = arith.addi %0 : i32"), "4:10: error: op 'arith.addi' expects 2 operands, got 1"},
      {inFunc("    scf.for %0, %0 ({})"), "4:5: error: op 'scf.for' expects at least 3 operands, got 2"},
      {inFunc("    %1 = tt.load %0, %c, %0, %0 : i32"),
       "4:10: error: op 'tt.load' expects 1 to 3 operands, got 4"},
      {inFunc("    %1 = tt.store %0, %0"), "4:10: error: op 'tt.store' has 1 result name but 0 result types"},
      {inFunc("    scf.if %c ({})"), "4:5: error: op 'scf.if' expects 2 regions, got 1"},
      {inFunc("    scf.for %0, %0, %0"), "4:5: error: op 'scf.for' expects 1 region, got 0"},
      {inFunc("    scf.for %0, %0, %0 ({}, {})"), "4:29: error: op 'scf.for' expects 1 region, got more"},
      {inFunc("    tt.return ({})"), "4:15: error: op 'tt.return' takes no regions"},
      {inFunc("    %1 = arith.extsi %0 : f33"), "4:27: error: unknown type 'f33'"},
      {inFunc("    %1 = arith.extsi %0 :"), "5:3: error: expected type"},
      {inFunc("    %1 = tt.splat %0 : block<0xi32>"), "4:30: error: block dimension must be positive"},
      {inFunc("    %1 = tt.splat %0 : block<4i32>"),
       "4:31: error: expected 'x' after dimension in block type"},
      {inFunc("    %1 = tt.splat %0 : block<i32>"), "4:30: error: expected dimension in block type"},
      {inFunc("    %1 = tt.splat %0 : block<4xi32"), "5:3: error: expected '>' at end of block type"},
      {inFunc("    %1 = tt.splat %0 : block<4294967296x4294967296xi32>"),
       "4:41: error: block type has too many elements"},
      {inFunc("    %1 = tt.splat %0 : block<4xblock<2xi32>>"),
       "4:32: error: block element type must be a scalar or pointer, got 'block<2xi32>'"},
      {inFunc("    %1 = tt.int_to_ptr %0 : ptr<block<2xi32>>"),
       "4:33: error: pointee type must be a scalar or pointer, got 'block<2xi32>'"},
      {inFunc("    %1 = tt.splat %0 : vector<2x2xi32>"),
       "4:33: error: vector type must have exactly one dimension"},
      {inFunc("    %1 = tt.int_to_ptr %0 : ptr<i8, 4294967296>"), "4:37: error: address space out of range"},
      {inFunc("    tt.print {prefix = \"abc}"), "4:24: error: unterminated string"},
      {inFunc("    tt.print {prefix = \"a\\qb\"}"),
       "4:26: error: invalid escape in string (use \\\" \\\\ \\n \\t or two hex digits)"},
      {inFunc("    %1 = arith.constant {value = 9223372036854775808} : i64"),
       "4:34: error: integer literal '9223372036854775808' out of range"},
      {inFunc("    %1 = arith.constant {value = 1e999} : f64"),
       "4:34: error: float literal '1e999' out of range"},
      {inFunc("    %1 = arith.constant {value = 1.5e} : f64"),
       "4:34: error: expected exponent digits in float literal"},
      {inFunc("    %1 = arith.constant {value = -x} : f64"), "4:34: error: expected digits after '-'"},
      {inFunc("    %1 = arith.constant {value = 1, value = 2} : i32"),
       "4:37: error: attribute 'value' given twice"},
      {inFunc("    %1 = arith.constant {value 1} : i32"), "4:32: error: expected '=' after attribute name"},
      {inFunc("    %1 = arith.constant {} : i32"), "4:26: error: expected attribute name"},
      {inFunc("    %1 = arith.constant {value = } : i32"), "4:34: error: expected attribute value"},
      {inFunc("    tt.trans %0 {order = [1, 2.5]}"), "4:30: error: expected integer in integer array"},
      {inFunc("    tt.trans %0 {order = [1, 2}"), "4:31: error: expected ']' at end of array"},
      {inFunc("    %1 = arith.constant {value = 1 : i32"), "4:36: error: expected '}' at end of attributes"},
      {inFunc("    %1 arith.addi %0, %0 : i32"), "4:8: error: expected '=' after result names"},
      {inFunc("    % = arith.addi %0, %0 : i32"), "4:5: error: expected value name after '%'"},
      {inFunc("    tt.return %0 loc(\"a.py\":x:1)"),
       "4:29: error: expected line and column numbers in location"},
      {inFunc("    tt.return %0 loc(a.py:1:1)"), "4:22: error: expected file name string in location"},
      {inFunc("    tt.return %0 loc(\"a.py\":1:1"), "5:3: error: expected ')' at end of location"},
      {inFunc(
           "    %1 = scf.for %0, %0, %0, %0 : i32 ({\n    ^(%2: i32, %3: i32):\n      scf.yield %1\n    })"),
       "6:17: error: use of undefined value '%1'"},
      {inFunc("    %1 = arith.addi %2, %0 : i32\n    %2 = arith.addi %0, %0 : i32"),
       "4:21: error: use of undefined value '%2'"},
      {"builtin.module ({\n  tt.func {sym_name = \"f\"} ({\n  ^(%0: i32):\n  })\n"
       "  tt.func {sym_name = \"g\"} ({\n    tt.return %0\n  })\n})\n",
       "6:15: error: use of undefined value '%0'"},
      {inFunc("    scf.if %c ({\n      %1 = arith.addi %0, %0 : i32\n    }, {})\n    tt.return %1"),
       "7:15: error: use of undefined value '%1'"},
      {nestedIfs(300), "202:1: error: regions nested deeper than 200 levels"},
      {nestedPointers(300), "4:817: error: types nested deeper than 200 levels"},
  };
  CHECK(sizeof(cases) / sizeof(cases[0]) >= 25);
  for (const BadInput &c : cases) {
    CAPTURE(c.text);
    Diagnostics diags;
    std::optional<Module> m = parseModule(c.text, "bad.tir", diags);
    CHECK(!m);
    CHECK(diags.list().size() == 1);
    CHECK(diags.str() == "bad.tir:" + c.expected + "\n");
  }
}

TEST_CASE("a result list on the next line is not taken for operands") {
  // tt.print takes any number of operands; the next op's results must not become its operands.
  std::string text = inFunc("    tt.print\n    %1, %2 = tt.split %0 : i32, i32\n    tt.return");
  Diagnostics diags;
  std::optional<Module> m = parseModule(text, "ok.tir", diags);
  INFO(diags.str());
  REQUIRE(m);
  Op *print = m->lookupFunction("f")->region()->front();
  CHECK(print->is(OpCode::Print));
  CHECK(print->numOperands() == 0);
  CHECK(print->next()->numResults() == 2);
}
