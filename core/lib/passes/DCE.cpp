#include "trident/passes/DCE.h"

#include "OpEffects.h"

#include <algorithm>

namespace trident {

namespace {

using passes::hasNoUses;
using passes::isRemovableWhenUnused;

// Drops unused results of an scf.if, with the values both regions yield for them.
bool pruneIfResults(Op *op) {
  bool changed = false;
  for (unsigned i = op->numResults(); i-- > 0;) {
    if (op->result(i)->hasUses())
      continue;
    for (unsigned r = 0; r < op->numRegions(); ++r)
      if (Op *yield = op->region(r)->terminator())
        yield->eraseOperand(i);
    op->eraseResult(i);
    changed = true;
  }
  return changed;
}

// The ops of `loop`'s body that use loop-carried value `i` (directly or through each
// other), when removing them with the value is safe: each is removable, has no
// regions, and its results feed only such ops or position `i` of the yield.
// Returns false when the value is needed for anything else.
bool collectCarriedOnlyUsers(Op *loop, unsigned i, std::vector<Op *> &users) {
  Block *body = loop->region();
  Op *yield = body->terminator();
  std::vector<Value *> worklist{body->argument(1 + i)};
  while (!worklist.empty()) {
    Value *v = worklist.back();
    worklist.pop_back();
    for (const Use &use : v->uses()) {
      Op *user = use.user;
      if (user == yield) {
        if (use.operandIndex != i)
          return false;
        continue;
      }
      if (!isRemovableWhenUnused(user) || user->numRegions() != 0)
        return false;
      if (std::find(users.begin(), users.end(), user) != users.end())
        continue;
      users.push_back(user);
      for (Value *r : user->results())
        worklist.push_back(r);
    }
  }
  return true;
}

// Drops unused results of an scf.for whose loop-carried value only computes itself.
bool pruneForResults(Op *op) {
  bool changed = false;
  Block *body = op->region();
  for (unsigned i = op->numResults(); i-- > 0;) {
    std::vector<Op *> users;
    if (op->result(i)->hasUses() || !collectCarriedOnlyUsers(op, i, users))
      continue;
    body->terminator()->eraseOperand(i);
    // The users form a DAG: erase those left unused until none remains.
    while (!users.empty()) {
      auto unused = std::find_if(users.begin(), users.end(), [](const Op *u) { return hasNoUses(u); });
      assert(unused != users.end() && "loop-carried users must form a DAG");
      (*unused)->erase();
      users.erase(unused);
    }
    body->eraseArgument(1 + i);
    op->eraseOperand(3 + i);
    op->eraseResult(i);
    changed = true;
  }
  return changed;
}

// Drops results of an scf.while that neither the code after it nor its after region
// uses, with the values scf.condition forwards for them. The loop-carried values
// (the before region's arguments) stay: they are what the loop computes with.
bool pruneWhileResults(Op *op) {
  bool changed = false;
  Block *after = op->region(1);
  Op *condition = op->region(0)->terminator();
  if (!condition || !condition->is(OpCode::Condition))
    return false;
  for (unsigned i = op->numResults(); i-- > 0;) {
    if (op->result(i)->hasUses() || after->argument(i)->hasUses())
      continue;
    condition->eraseOperand(1 + i);
    after->eraseArgument(i);
    op->eraseResult(i);
    changed = true;
  }
  return changed;
}

// One sweep, last op first so a use is removed before its definition is examined.
bool sweep(Block *block) {
  bool changed = false;
  std::vector<Op *> ops = block->ops();
  for (auto it = ops.rbegin(); it != ops.rend(); ++it) {
    Op *op = *it;
    if (op->is(OpCode::If))
      changed |= pruneIfResults(op);
    else if (op->is(OpCode::For))
      changed |= pruneForResults(op);
    else if (op->is(OpCode::While))
      changed |= pruneWhileResults(op);
    for (unsigned r = 0; r < op->numRegions(); ++r)
      changed |= sweep(op->region(r));
    if (!op->has(kTerminator) && hasNoUses(op) && isRemovableWhenUnused(op)) {
      op->erase();
      changed = true;
    }
  }
  return changed;
}

} // namespace

bool eliminateDeadCode(Module &m, Diagnostics &) {
  for (Op *f : m.functions())
    while (sweep(f->region())) {
    }
  return true;
}

} // namespace trident
