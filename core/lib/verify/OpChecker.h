#pragma once
// Internal to the verifier: the context in which one op's rules are checked, and
// the rule sets of each op family, one .cpp per family.
//
// Family rules run only after the generic checks passed: operand, result and
// region counts agree with the op table and no operand is null, so a rule may
// index operands, results and regions freely.

#include "trident/ir/IR.h"
#include "trident/support/Diagnostic.h"

#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace trident::verifier {

class OpChecker {
public:
  OpChecker(const Op *op, Diagnostics &diags) : op_(op), diags_(diags) {}

  const Op *op() const { return op_; }
  Diagnostics &diags() const { return diags_; }
  Type operand(unsigned i) const { return op_->operand(i)->type(); }
  Type result(unsigned i = 0) const { return op_->result(i)->type(); }

  // Reports "'<op name>' op <message>" at the op's location.
  void error(const std::string &message);
  bool failed() const { return failed_; }

  // ---- attributes: each reports a missing (when required) or mistyped one ----
  std::optional<int64_t> intAttr(std::string_view name, bool required = true);
  std::optional<bool> boolAttr(std::string_view name, bool required = false);
  // A string attribute; when `allowed` is not empty the value must be one of them.
  std::optional<std::string> stringAttr(std::string_view name, bool required,
                                        std::initializer_list<std::string_view> allowed = {});
  const Attribute::IntArray *intsAttr(std::string_view name, bool required = true);
  const Attribute::TypeArray *typesAttr(std::string_view name, bool required = true);

  // ---- types ----
  // "operand types must match, got A and B" unless operands `a` and `b` have one type.
  bool expectSameOperandTypes(unsigned a, unsigned b);
  // "result type must be T, got U" (for ops with several results: "result #i type ...").
  bool expectResultType(unsigned i, Type expected);
  // "<what> must have integer elements, got T" (likewise float, i1).
  bool expectIntegerLike(Type t, std::string_view what);
  bool expectFloatLike(Type t, std::string_view what);
  bool expectBoolLike(Type t, std::string_view what);
  // `what` must be a block (rank >= 1), not a scalar.
  bool expectBlock(Type t, std::string_view what);
  // `what` must be a scalar.
  bool expectScalar(Type t, std::string_view what);

  // ---- regions ----
  // The terminator of region `r` when it is a `code` op; otherwise reports that the
  // region must end in one and returns null.
  const Op *terminatorOf(unsigned r, OpCode code);
  // Checks that region `r` has arguments of exactly `types`; `what` describes them.
  bool expectRegionArguments(unsigned r, std::span<const Type> types, std::string_view what);

private:
  const Op *op_;
  Diagnostics &diags_;
  bool failed_ = false;
};

// The values a terminator passes, from operand `first` on, must have `expected`
// types, e.g. "'scf.yield' op passes 2 values, expected 1 to match the 'scf.for' results".
bool checkTerminatorValues(OpChecker &terminator, std::span<const Type> expected, std::string_view target,
                           unsigned first = 0);

// Why `t` is not a well-formed type ("has type block<3xf32>, but ..."), or empty when it is.
std::string typeProblem(Type t);

// Types of a list of values.
std::vector<Type> typesOf(std::span<Value *const> values);
// True when `a` and `b` have one shape (and both are blocks, vectors or scalars).
bool sameShape(Type a, Type b);
// "4x8", or "scalar" for a rank-0 type.
std::string shapeString(Type t);
bool isPowerOfTwo(int64_t v);
// "1 value", "2 values"; `plural` defaults to `singular` + "s".
std::string counted(size_t n, std::string_view singular, std::string_view plural = {});
// The innermost enclosing builtin.module op, or null.
const Op *enclosingModule(const Op *op);

// ---- rule sets, one per family; each handles the ops of its family ----
void verifyStructureOp(OpChecker &c);   // builtin.module, tt.func, tt.return, tt.call
void verifyControlFlowOp(OpChecker &c); // scf.for, scf.if, scf.while, scf.yield, scf.condition
void verifyBlockOp(OpChecker &c);       // program ids, make_range, constant, shape ops
void verifyMemoryOp(OpChecker &c);      // pointers, bitcast, load, store, atomics
void verifyArithOp(OpChecker &c);       // integer and float arithmetic, comparisons, casts, math
void verifyCombiningOp(OpChecker &c);   // tt.dot, tt.reduce, tt.scan and their returns
void verifyDebugOp(OpChecker &c);       // hints, assume, print, assert

} // namespace trident::verifier
