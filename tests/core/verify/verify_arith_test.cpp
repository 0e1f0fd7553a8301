// Verifier rules of the elementwise ops: arithmetic, comparisons, select, casts, math.

#include "VerifyTestUtil.h"

#include "trident/ir/ArithOps.h"
#include "trident/ir/MathOps.h"

#include <deque>
#include <string>

using verify_test::Case;

namespace {

const Case kValid[] = {
    {"arith.addi", "    %r = arith.addi %i, %i : block<4xi32>", ""},
    {"arith.subi", "    %r = arith.subi %n, %n : i32", ""},
    {"arith.muli", "    %r = arith.muli %j, %j : block<4xi64>", ""},
    {"arith.divsi", "    %r = arith.divsi %i, %i : block<4xi32>", ""},
    {"arith.divui", "    %r = arith.divui %l, %l : i64", ""},
    {"arith.remsi", "    %r = arith.remsi %i, %i : block<4xi32>", ""},
    {"arith.remui", "    %r = arith.remui %i, %i : block<4xi32>", ""},
    {"arith.andi", "    %r = arith.andi %m, %m : block<4xi1>", ""},
    {"arith.ori", "    %r = arith.ori %c, %c : i1", ""},
    {"arith.xori", "    %r = arith.xori %i, %i : block<4xi32>", ""},
    {"arith.shli", "    %r = arith.shli %i, %i : block<4xi32>", ""},
    {"arith.shrsi", "    %r = arith.shrsi %n, %n : i32", ""},
    {"arith.shrui", "    %r = arith.shrui %j, %j : block<4xi64>", ""},
    {"arith.minsi", "    %r = arith.minsi %i, %i : block<4xi32>", ""},
    {"arith.minui", "    %r = arith.minui %i, %i : block<4xi32>", ""},
    {"arith.maxsi", "    %r = arith.maxsi %n, %n : i32", ""},
    {"arith.maxui", "    %r = arith.maxui %i, %i : block<4xi32>", ""},
    {"tt.umulhi", "    %r = tt.umulhi %i, %i : block<4xi32>", ""},
    {"arith.addf", "    %r = arith.addf %x, %y : block<4xf32>", ""},
    {"arith.subf", "    %r = arith.subf %f, %f : f32", ""},
    {"arith.mulf", "    %r = arith.mulf %h, %h : f16", ""},
    {"arith.divf", "    %r = arith.divf %x, %y : block<4xf32>", ""},
    {"arith.remf", "    %r = arith.remf %x, %y : block<4xf32>", ""},
    {"arith.negf", "    %r = arith.negf %x : block<4xf32>", ""},
    {"arith.minimumf", "    %r = arith.minimumf %x, %y : block<4xf32>", ""},
    {"arith.maximumf", "    %r = arith.maximumf %f, %f : f32", ""},
    {"arith.minnumf", "    %r = arith.minnumf %x, %y : block<4xf32>", ""},
    {"arith.maxnumf", "    %r = arith.maxnumf %x, %y : block<4xf32>", ""},
    {"tt.precise_divf", "    %r = tt.precise_divf %x, %y : block<4xf32>", ""},
    {"arith.cmpi", "    %r = arith.cmpi %i, %i {predicate = \"slt\"} : block<4xi1>", ""},
    {"arith.cmpf", "    %r = arith.cmpf %f, %f {predicate = \"uno\"} : i1", ""},
    {"arith.select", "    %r = arith.select %m, %x, %y : block<4xf32>", ""},
    {"arith.select", "    %r = arith.select %c, %pb, %pb : block<4xptr<f32>>", ""},
    {"arith.extsi", "    %r = arith.extsi %i : block<4xi64>", ""},
    {"arith.extui", "    %r = arith.extui %c : i32", ""},
    {"arith.trunci", "    %r = arith.trunci %j : block<4xi32>", ""},
    {"arith.sitofp", "    %r = arith.sitofp %i : block<4xf32>", ""},
    {"arith.uitofp", "    %r = arith.uitofp %l : f16", ""},
    {"arith.fptosi", "    %r = arith.fptosi %x : block<4xi32>", ""},
    {"arith.fptoui", "    %r = arith.fptoui %h : i8", ""},
    {"arith.extf", "    %r = arith.extf %h : f32", ""},
    {"arith.extf", "    %e = arith.truncf %f : f8e4m3\n    %r = arith.extf %e : bf16", ""},
    {"arith.truncf", "    %r = arith.truncf %x {rounding = \"rtz\"} : block<4xf16>", ""},
    {"arith.truncf", "    %r = arith.truncf %h : f8e5m2", ""},
    {"math.exp", "    %r = math.exp %x : block<4xf32>", ""},
    {"math.exp2", "    %r = math.exp2 %f : f32", ""},
    {"math.log", "    %r = math.log %x : block<4xf32>", ""},
    {"math.log2", "    %r = math.log2 %h : f16", ""},
    {"math.sqrt", "    %r = math.sqrt %x : block<4xf32>", ""},
    {"tt.precise_sqrt", "    %r = tt.precise_sqrt %x : block<4xf32>", ""},
    {"math.rsqrt", "    %r = math.rsqrt %x : block<4xf32>", ""},
    {"math.sin", "    %r = math.sin %x : block<4xf32>", ""},
    {"math.cos", "    %r = math.cos %f : f32", ""},
    {"math.absf", "    %r = math.absf %x : block<4xf32>", ""},
    {"math.absi", "    %r = math.absi %i : block<4xi32>", ""},
    {"math.floor", "    %r = math.floor %x : block<4xf32>", ""},
    {"math.ceil", "    %r = math.ceil %x : block<4xf32>", ""},
    {"math.erf", "    %r = math.erf %x : block<4xf32>", ""},
    {"math.fma", "    %r = math.fma %x, %y, %x : block<4xf32>", ""},
};

const Case kInvalid[] = {
    {"arith.addi", "    %r = arith.addi %i, %j : block<4xi32>",
     "'arith.addi' op operand types must match, got block<4xi32> and block<4xi64>"},
    {"arith.subi", "    %r = arith.subi %x, %x : block<4xf32>",
     "'arith.subi' op operands must have integer elements, got block<4xf32>"},
    {"arith.muli", "    %r = arith.muli %i, %i : block<4xi64>",
     "'arith.muli' op result type must be block<4xi32>, got block<4xi64>"},
    {"arith.divsi", "    %r = arith.divsi %n, %i : i32",
     "'arith.divsi' op operand types must match, got i32 and block<4xi32>"},
    {"arith.divui", "    %r = arith.divui %f, %f : f32",
     "'arith.divui' op operands must have integer elements, got f32"},
    {"arith.remsi", "    %r = arith.remsi %pb, %pb : block<4xptr<f32>>",
     "'arith.remsi' op operands must have integer elements, got block<4xptr<f32>>"},
    {"arith.remui", "    %r = arith.remui %i, %i : i32",
     "'arith.remui' op result type must be block<4xi32>, got i32"},
    {"arith.andi", "    %r = arith.andi %m, %i : block<4xi1>",
     "'arith.andi' op operand types must match, got block<4xi1> and block<4xi32>"},
    {"arith.ori", "    %r = arith.ori %x, %y : block<4xf32>",
     "'arith.ori' op operands must have integer elements, got block<4xf32>"},
    {"arith.xori", "    %r = arith.xori %n, %l : i32",
     "'arith.xori' op operand types must match, got i32 and i64"},
    {"arith.shli", "    %r = arith.shli %i, %n : block<4xi32>",
     "'arith.shli' op operand types must match, got block<4xi32> and i32"},
    {"arith.shrsi", "    %r = arith.shrsi %h, %h : f16",
     "'arith.shrsi' op operands must have integer elements, got f16"},
    {"arith.shrui", "    %r = arith.shrui %j, %j : block<4xi32>",
     "'arith.shrui' op result type must be block<4xi64>, got block<4xi32>"},
    {"arith.minsi", "    %r = arith.minsi %x, %x : block<4xf32>",
     "'arith.minsi' op operands must have integer elements, got block<4xf32>"},
    {"arith.minui", "    %r = arith.minui %i, %j : block<4xi32>",
     "'arith.minui' op operand types must match, got block<4xi32> and block<4xi64>"},
    {"arith.maxsi", "    %r = arith.maxsi %n, %n : i64", "'arith.maxsi' op result type must be i32, got i64"},
    {"arith.maxui", "    %r = arith.maxui %f, %f : f32",
     "'arith.maxui' op operands must have integer elements, got f32"},
    {"tt.umulhi", "    %r = tt.umulhi %x, %x : block<4xf32>",
     "'tt.umulhi' op operands must have integer elements, got block<4xf32>"},
    {"arith.addf", "    %r = arith.addf %i, %i : block<4xi32>",
     "'arith.addf' op operands must have float elements, got block<4xi32>"},
    {"arith.subf", "    %r = arith.subf %f, %h : f32",
     "'arith.subf' op operand types must match, got f32 and f16"},
    {"arith.mulf", "    %r = arith.mulf %x, %y : block<4xf16>",
     "'arith.mulf' op result type must be block<4xf32>, got block<4xf16>"},
    {"arith.divf", "    %r = arith.divf %x, %x2 : block<4xf32>",
     "'arith.divf' op operand types must match, got block<4xf32> and block<4x8xf32>"},
    {"arith.remf", "    %r = arith.remf %n, %n : i32",
     "'arith.remf' op operands must have float elements, got i32"},
    {"arith.negf", "    %r = arith.negf %i : block<4xi32>",
     "'arith.negf' op operand must have float elements, got block<4xi32>"},
    {"arith.minimumf", "    %r = arith.minimumf %x, %f : block<4xf32>",
     "'arith.minimumf' op operand types must match, got block<4xf32> and f32"},
    {"arith.maximumf", "    %r = arith.maximumf %i, %i : block<4xi32>",
     "'arith.maximumf' op operands must have float elements, got block<4xi32>"},
    {"arith.minnumf", "    %r = arith.minnumf %f, %f : f16",
     "'arith.minnumf' op result type must be f32, got f16"},
    {"arith.maxnumf", "    %r = arith.maxnumf %l, %l : i64",
     "'arith.maxnumf' op operands must have float elements, got i64"},
    {"tt.precise_divf", "    %r = tt.precise_divf %i, %i : block<4xi32>",
     "'tt.precise_divf' op operands must have float elements, got block<4xi32>"},
    {"arith.cmpi", "    %r = arith.cmpi %i, %i {predicate = \"olt\"} : block<4xi1>",
     "'arith.cmpi' op attribute 'predicate' must be one of eq, ne, slt, sle, sgt, sge, ult, ule, ugt, uge, "
     "got "
     "\"olt\""},
    {"arith.cmpi", "    %r = arith.cmpi %i, %i {predicate = \"eq\"} : block<4xi32>",
     "'arith.cmpi' op result type must be block<4xi1>, got block<4xi32>"},
    {"arith.cmpi", "    %r = arith.cmpi %x, %x {predicate = \"eq\"} : block<4xi1>",
     "'arith.cmpi' op operands must have integer elements, got block<4xf32>"},
    {"arith.cmpf", "    %r = arith.cmpf %x, %y : block<4xi1>",
     "'arith.cmpf' op requires string attribute 'predicate'"},
    {"arith.cmpf", "    %r = arith.cmpf %x, %y {predicate = 3} : block<4xi1>",
     "'arith.cmpf' op attribute 'predicate' must be a string, got 3"},
    {"arith.cmpf", "    %r = arith.cmpf %i, %i {predicate = \"oeq\"} : block<4xi1>",
     "'arith.cmpf' op operands must have float elements, got block<4xi32>"},
    {"arith.select", "    %r = arith.select %i, %x, %y : block<4xf32>",
     "'arith.select' op condition must be i1 or block<4xi1>, got block<4xi32>"},
    {"arith.select", "    %r = arith.select %m, %x, %i : block<4xf32>",
     "'arith.select' op operand types must match, got block<4xf32> and block<4xi32>"},
    {"arith.extsi", "    %r = arith.extsi %j : block<4xi32>",
     "'arith.extsi' op result elements must be wider than the operand's, got block<4xi64> to block<4xi32>"},
    {"arith.extui", "    %r = arith.extui %f : i64",
     "'arith.extui' op operand must have integer elements, got f32"},
    {"arith.trunci", "    %r = arith.trunci %i : block<4xi64>",
     "'arith.trunci' op result elements must be narrower than the operand's, got block<4xi32> to "
     "block<4xi64>"},
    {"arith.sitofp", "    %r = arith.sitofp %i : block<4xi32>",
     "'arith.sitofp' op result must have float elements, got block<4xi32>"},
    {"arith.uitofp", "    %r = arith.uitofp %i : block<8xf32>",
     "'arith.uitofp' op result shape must match the operand shape, got block<4xi32> and block<8xf32>"},
    {"arith.fptosi", "    %r = arith.fptosi %i : block<4xi32>",
     "'arith.fptosi' op operand must have float elements, got block<4xi32>"},
    {"arith.fptoui", "    %r = arith.fptoui %x : i32",
     "'arith.fptoui' op result shape must match the operand shape, got block<4xf32> and i32"},
    {"arith.extf", "    %r = arith.extf %h : bf16",
     "'arith.extf' op result elements must be wider than the operand's, got f16 to bf16"},
    {"arith.extf", "    %r = arith.extf %n : f64",
     "'arith.extf' op operand must have float elements, got i32"},
    {"arith.truncf", "    %r = arith.truncf %x {rounding = \"up\"} : block<4xf16>",
     "'arith.truncf' op attribute 'rounding' must be one of rtne, rtz, got \"up\""},
    {"arith.truncf", "    %r = arith.truncf %h : f32",
     "'arith.truncf' op result elements must be narrower than the operand's, got f16 to f32"},
    {"math.exp", "    %r = math.exp %i : block<4xi32>",
     "'math.exp' op operand must have float elements, got block<4xi32>"},
    {"math.exp2", "    %r = math.exp2 %f : f64", "'math.exp2' op result type must be f32, got f64"},
    {"math.log", "    %r = math.log %n : i32", "'math.log' op operand must have float elements, got i32"},
    {"math.log2", "    %r = math.log2 %x : block<8xf32>",
     "'math.log2' op result type must be block<4xf32>, got block<8xf32>"},
    {"math.sqrt", "    %r = math.sqrt %l : i64", "'math.sqrt' op operand must have float elements, got i64"},
    {"tt.precise_sqrt", "    %r = tt.precise_sqrt %i : block<4xi32>",
     "'tt.precise_sqrt' op operand must have float elements, got block<4xi32>"},
    {"math.rsqrt", "    %r = math.rsqrt %x : block<4xf16>",
     "'math.rsqrt' op result type must be block<4xf32>, got block<4xf16>"},
    {"math.sin", "    %r = math.sin %m : block<4xi1>",
     "'math.sin' op operand must have float elements, got block<4xi1>"},
    {"math.cos", "    %r = math.cos %n : i32", "'math.cos' op operand must have float elements, got i32"},
    {"math.absf", "    %r = math.absf %i : block<4xi32>",
     "'math.absf' op operand must have float elements, got block<4xi32>"},
    {"math.absi", "    %r = math.absi %x : block<4xf32>",
     "'math.absi' op operand must have integer elements, got block<4xf32>"},
    {"math.floor", "    %r = math.floor %n : i32",
     "'math.floor' op operand must have float elements, got i32"},
    {"math.ceil", "    %r = math.ceil %x : f32", "'math.ceil' op result type must be block<4xf32>, got f32"},
    {"math.erf", "    %r = math.erf %j : block<4xi64>",
     "'math.erf' op operand must have float elements, got block<4xi64>"},
    {"arith.addf", "    %e = arith.truncf %x : block<4xf8e5m2>\n    %r = arith.addf %e, %e : block<4xf8e5m2>",
     "'arith.addf' op operands must not have f8 elements, which are for storage only, got "
     "block<4xf8e5m2>"},
    {"math.exp", "    %e = arith.truncf %f : f8e4m3\n    %r = math.exp %e : f8e4m3",
     "'math.exp' op operand must not have f8 elements, which are for storage only, got f8e4m3"},
    {"arith.cmpf", "    %e = arith.truncf %f : f8e4m3\n    %r = arith.cmpf %e, %e {predicate = \"oeq\"} : i1",
     "'arith.cmpf' op operands must not have f8 elements, which are for storage only, got f8e4m3"},
    {"arith.sitofp", "    %r = arith.sitofp %n : f8e4m3",
     "'arith.sitofp' op result must not have f8 elements, which are for storage only, got f8e4m3"},
    {"arith.fptosi", "    %e = arith.truncf %f : f8e4m3\n    %r = arith.fptosi %e : i32",
     "'arith.fptosi' op operand must not have f8 elements, which are for storage only, got f8e4m3"},
    {"math.fma", "    %r = math.fma %x, %y, %f : block<4xf32>",
     "'math.fma' op operand types must match, got block<4xf32> and f32"},
};

// Every op of MathOps.def and ArithOps.def, by its table row alone: its operands on
// block<4xf32> (block<4xi32> for integer ops) are valid, those of the other element family are not.
struct MathCases {
  std::deque<std::string> text; // what the cases' string_views point into
  std::vector<Case> valid, invalid;
  MathCases() {
    for (unsigned i = 0; i < trident::numOpCodes(); ++i) {
      auto code = static_cast<trident::OpCode>(i);
      const trident::MathOpInfo *math = trident::mathOpInfo(code);
      const trident::ArithOpInfo *arith = trident::arithOpInfo(code);
      if (!math && !arith)
        continue;
      std::string_view name = trident::opInfo(code).name;
      const int arity = math ? math->arity : arith->arity;
      bool integer = math ? math->elements == trident::MathElements::Integer
                          : arith->elements == trident::ArithElements::Integer;
      auto body = [&](const char *operand, const char *type) -> std::string_view {
        std::string s = "    %r = " + std::string(name) + " " + operand;
        for (int k = 1; k < arity; ++k)
          s += std::string(", ") + operand;
        return text.emplace_back(s + " : " + type);
      };
      valid.push_back({name, body(integer ? "%i" : "%x", integer ? "block<4xi32>" : "block<4xf32>"), ""});
      std::string message = "'" + std::string(name) + "' op " + (arity == 1 ? "operand" : "operands") +
                            " must have " + (integer ? "integer" : "float") + " elements, got " +
                            (integer ? "block<4xf32>" : "block<4xi32>");
      invalid.push_back({name, body(integer ? "%x" : "%i", integer ? "block<4xf32>" : "block<4xi32>"),
                         text.emplace_back(message)});
    }
  }
};

const MathCases &mathCases() {
  static const MathCases cases;
  return cases;
}

verify_test::Register registerValid(kValid), registerInvalid(kInvalid);
verify_test::Register registerMathValid(mathCases().valid), registerMathInvalid(mathCases().invalid);

} // namespace

TEST_CASE("elementwise ops: valid samples pass") { verify_test::runCases(kValid); }

TEST_CASE("elementwise ops: invalid samples give the expected message") { verify_test::runCases(kInvalid); }

TEST_CASE("math and arithmetic ops: the tables' type rule, valid and invalid") {
  CHECK(mathCases().valid.size() >= 15 + 29);
  verify_test::runCases(mathCases().valid);
  verify_test::runCases(mathCases().invalid);
}
