#include "LaneGroups.h"

#include "trident/ir/Builder.h"

#include <optional>
#include <set>
#include <vector>

namespace trident::cpu {

namespace {

std::optional<int64_t> constantOf(Value *v) {
  Op *def = v->definingOp();
  if (!def || !def->is(OpCode::Constant) || !def->attr("value").isInt())
    return std::nullopt;
  return def->intAttr("value");
}

// The operand of `user` that is not the thread id `t`, as a constant.
std::optional<int64_t> otherConstant(Op *user, Value *t) {
  if (user->numOperands() != 2)
    return std::nullopt;
  if (user->operand(0) == t && user->operand(1) != t)
    return constantOf(user->operand(1));
  if (user->operand(1) == t && user->operand(0) != t && user->has(kCommutative))
    return constantOf(user->operand(0));
  return std::nullopt;
}

// `t & M` where M has the group's bits, or `t >> k` with 2^k >= group (a shift of the
// thread id: its first operand).
bool splitsLanes(Op *user, Value *t, int64_t group) {
  std::optional<int64_t> c = otherConstant(user, t);
  if (!c)
    return false;
  if (user->is(OpCode::AndI))
    return (*c & (group - 1)) == group - 1;
  if (user->is(OpCode::ShRUI) || user->is(OpCode::ShRSI))
    return user->operand(0) == t && *c < 32 && (int64_t(1) << *c) >= group;
  return false;
}

} // namespace

bool groupLanes(Op *loop, int64_t threads, int64_t group) {
  if (group < 2 || threads <= group || threads % group != 0)
    return false;
  Block *body = loop->region();
  Value *t = body->argument(0);
  std::vector<Op *> split;
  for (const Use &u : t->uses())
    if (splitsLanes(u.user, t, group))
      split.push_back(u.user);
  if (split.empty())
    return false;

  // The loop over the groups, where the loop was; the loop becomes the one over a group.
  Builder b;
  b.setInsertionPoint(loop);
  Type i32 = t->type();
  Value *zero = b.constInt(0, i32), *size = b.constInt(group, i32);
  Op *outer = b.forOp(zero, b.constInt(threads, i32), size, {});
  Value *g = outer->region()->argument(0);
  b.setInsertionPointToEnd(outer->region());
  b.yield();
  loop->detach();
  outer->region()->insertBefore(outer->region()->terminator(), loop);
  loop->setOperand(0, zero);
  loop->setOperand(1, size);

  // The lane and warp parts, uniform in the group, before the loop over it.
  b.setInsertionPoint(loop);
  std::vector<Value *> uniform;
  for (Op *op : split) {
    Value *operands[] = {g, op->operand(op->operand(0) == t ? 1 : 0)};
    uniform.push_back(b.binary(op->code(), operands[0], operands[1]));
  }
  // In the group: the thread id, and the lane parts, from the inner induction variable.
  b.setInsertionPointToStart(body);
  Value *thread = b.binary(OpCode::AddI, g, t);
  std::set<Op *> laneOps = {thread->definingOp()};
  std::vector<Value *> parts;
  for (size_t i = 0; i < split.size(); ++i) {
    parts.push_back(split[i]->is(OpCode::AndI) ? b.binary(OpCode::AddI, uniform[i], t) : uniform[i]);
    laneOps.insert(parts.back()->definingOp());
  }
  for (size_t i = 0; i < split.size(); ++i) { // after the insertions, which may go before one of them
    split[i]->result()->replaceAllUsesWith(parts[i]);
    split[i]->erase();
  }
  std::vector<std::pair<Op *, unsigned>> uses;
  for (const Use &u : t->uses())
    if (!laneOps.count(u.user))
      uses.emplace_back(u.user, u.operandIndex);
  for (auto [user, k] : uses)
    user->setOperand(k, thread);
  return true;
}

} // namespace trident::cpu
