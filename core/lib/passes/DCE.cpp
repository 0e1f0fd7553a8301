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

// A result of an scf.if at the top level of a loop body that a loop-carried value
// passes through (a flattened loop's prologue keeps a tile's addresses but at its first
// k step): dropped with the value.
struct PassThrough {
  Op *branch;
  unsigned result;
  bool operator==(const PassThrough &) const = default;
};

// The ops of `loop`'s body that use loop-carried value `i` (directly or through each
// other), when removing them with the value is safe: each is removable, has no
// regions, and its results feed only such ops, position `i` of the yield, or the
// yield of an scf.if in the body (`through`: its result then continues the chain).
// Returns false when the value is needed for anything else.
bool collectCarriedOnlyUsers(Op *loop, unsigned i, std::vector<Op *> &users, std::vector<PassThrough> &through) {
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
      if (Op *branch = user->parentOp(); user->is(OpCode::Yield) && branch && branch->is(OpCode::If) &&
                                         branch->parentBlock() == body) {
        PassThrough t{branch, use.operandIndex};
        if (std::find(through.begin(), through.end(), t) == through.end()) {
          through.push_back(t);
          worklist.push_back(branch->result(use.operandIndex));
        }
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
    std::vector<PassThrough> through;
    if (op->result(i)->hasUses() || !collectCarriedOnlyUsers(op, i, users, through))
      continue;
    body->terminator()->eraseOperand(i);
    // The users form a DAG but for the scf.if results they pass through: erase the
    // users left unused, and drop those results once unused, until none remains.
    while (!users.empty() || !through.empty()) {
      auto unused = std::find_if(users.begin(), users.end(), [](const Op *u) { return hasNoUses(u); });
      if (unused != users.end()) {
        (*unused)->erase();
        users.erase(unused);
        continue;
      }
      auto free = std::find_if(through.begin(), through.end(),
                               [](const PassThrough &t) { return !t.branch->result(t.result)->hasUses(); });
      assert(free != through.end() && "loop-carried users must form a DAG");
      PassThrough t = *free;
      through.erase(free);
      for (unsigned r = 0; r < t.branch->numRegions(); ++r)
        t.branch->region(r)->terminator()->eraseOperand(t.result);
      t.branch->eraseResult(t.result);
      for (PassThrough &other : through)
        other.result -= other.branch == t.branch && other.result > t.result;
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
