// Rules of the structured control flow: scf.for, scf.if, scf.while and their
// terminators scf.yield and scf.condition. Each loop or branch checks its region
// arguments and terminator kinds; each terminator checks the values it passes
// against what its parent expects.

#include "OpChecker.h"

namespace trident::verifier {

namespace {

void verifyFor(OpChecker &c) {
  const Op *op = c.op();
  Type lb = c.operand(0), ub = c.operand(1), step = c.operand(2);
  if (!lb.isScalar() || !lb.isInteger() || lb != ub || lb != step)
    c.error("lower bound, upper bound and step must have one integer scalar type, got " + lb.str() + ", " +
            ub.str() + " and " + step.str());
  std::vector<Type> inits = typesOf(op->operands().subspan(3));
  if (op->numResults() != inits.size()) {
    c.error("has " + counted(op->numResults(), "result") + ", expected one per loop-carried value (" +
            std::to_string(inits.size()) + ")");
  } else {
    for (unsigned i = 0; i < inits.size(); ++i)
      if (c.result(i) != inits[i])
        c.error("result #" + std::to_string(i) + " has type " + c.result(i).str() +
                ", but its initial value has type " + inits[i].str());
  }
  std::vector<Type> args{lb};
  args.insert(args.end(), inits.begin(), inits.end());
  c.expectRegionArguments(0, args, "the induction variable, then one per loop-carried value");
  c.terminatorOf(0, OpCode::Yield);
}

void verifyIf(OpChecker &c) {
  const Op *op = c.op();
  if (c.operand(0) != Type::i1())
    c.error("condition must be i1, got " + c.operand(0).str());
  for (unsigned r = 0; r < 2; ++r)
    if (op->region(r)->numArguments() != 0)
      c.error("region #" + std::to_string(r) + " must have no arguments");
  c.terminatorOf(0, OpCode::Yield);
  if (op->region(1)->empty()) {
    if (op->numResults() != 0)
      c.error("else region must not be empty when the op has results");
  } else {
    c.terminatorOf(1, OpCode::Yield);
  }
}

void verifyWhile(OpChecker &c) {
  const Op *op = c.op();
  std::vector<Type> inits = typesOf(op->operands());
  std::vector<Type> results = typesOf(op->results());
  c.expectRegionArguments(0, inits, "one per initial value");
  c.expectRegionArguments(1, results, "one per result");
  c.terminatorOf(0, OpCode::Condition);
  c.terminatorOf(1, OpCode::Yield);
}

void verifyYield(OpChecker &c) {
  const Op *op = c.op();
  const Op *parent = op->parentOp();
  if (parent && (parent->is(OpCode::For) || parent->is(OpCode::If))) {
    std::vector<Type> results = typesOf(parent->results());
    checkTerminatorValues(c, results, "the '" + std::string(parent->name()) + "' results");
  } else if (parent && parent->is(OpCode::While) && op->parentBlock() == parent->region(1)) {
    std::vector<Type> inits = typesOf(parent->operands());
    checkTerminatorValues(c, inits, "the 'scf.while' initial values");
  } else {
    c.error("must be directly inside 'scf.for', 'scf.if' or the after region of 'scf.while'");
  }
}

void verifyCondition(OpChecker &c) {
  const Op *op = c.op();
  const Op *parent = op->parentOp();
  if (!parent || !parent->is(OpCode::While) || op->parentBlock() != parent->region(0)) {
    c.error("must be directly inside the before region of 'scf.while'");
    return;
  }
  if (c.operand(0) != Type::i1())
    c.error("condition must be i1, got " + c.operand(0).str());
  std::vector<Type> results = typesOf(parent->results());
  checkTerminatorValues(c, results, "the 'scf.while' results", 1);
}

} // namespace

void verifyControlFlowOp(OpChecker &c) {
  switch (c.op()->code()) {
  case OpCode::For: return verifyFor(c);
  case OpCode::If: return verifyIf(c);
  case OpCode::While: return verifyWhile(c);
  case OpCode::Yield: return verifyYield(c);
  case OpCode::Condition: return verifyCondition(c);
  default: return;
  }
}

} // namespace trident::verifier
