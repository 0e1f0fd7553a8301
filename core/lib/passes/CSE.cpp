#include "trident/passes/CSE.h"

#include "OpEffects.h"

#include <functional>
#include <unordered_map>

namespace trident {

namespace {

bool isCandidate(const Op *op) { return passes::isPure(op) && op->numRegions() == 0 && op->numResults() > 0; }

bool commutes(const Op *op) { return op->has(kCommutative) && op->numOperands() == 2; }

size_t hashOp(const Op *op) {
  size_t h = std::hash<unsigned>()(static_cast<unsigned>(op->code()));
  auto mix = [&h](size_t v) { h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2); };
  if (commutes(op)) {
    // Order-independent, so both operand orders meet in one bucket.
    mix(std::hash<const void *>()(op->operand(0)) ^ std::hash<const void *>()(op->operand(1)));
  } else {
    for (const Value *v : op->operands())
      mix(std::hash<const void *>()(v));
  }
  for (unsigned i = 0; i < op->numResults(); ++i)
    mix(std::hash<Type>()(op->result(i)->type()));
  mix(op->attrs().entries().size());
  return h;
}

bool sameOperands(const Op *a, const Op *b) {
  if (a->numOperands() != b->numOperands())
    return false;
  bool inOrder = true;
  for (unsigned i = 0; i < a->numOperands(); ++i)
    inOrder = inOrder && a->operand(i) == b->operand(i);
  if (inOrder)
    return true;
  return commutes(a) && a->operand(0) == b->operand(1) && a->operand(1) == b->operand(0);
}

bool equivalent(const Op *a, const Op *b) {
  if (a->code() != b->code() || a->numResults() != b->numResults() || !sameOperands(a, b) ||
      a->attrs() != b->attrs())
    return false;
  for (unsigned i = 0; i < a->numResults(); ++i)
    if (a->result(i)->type() != b->result(i)->type())
      return false;
  return true;
}

// The ops seen so far that dominate the current point: a stack of scopes, one per
// enclosing region, kept in one table plus the list of entries to drop per scope.
class CommonSubexpressions {
public:
  void runOnBlock(Block *block) {
    const size_t scopeStart = entered_.size();
    for (Op *op : block->ops()) {
      if (isCandidate(op)) {
        if (Op *earlier = lookup(op)) {
          for (unsigned i = 0; i < op->numResults(); ++i)
            op->result(i)->replaceAllUsesWith(earlier->result(i));
          op->erase();
          continue;
        }
        size_t h = hashOp(op);
        table_.emplace(h, op);
        entered_.emplace_back(h, op);
      }
      for (unsigned r = 0; r < op->numRegions(); ++r) {
        if (op->has(kIsolated))
          CommonSubexpressions().runOnBlock(op->region(r)); // sees nothing outside
        else
          runOnBlock(op->region(r));
      }
    }
    while (entered_.size() > scopeStart) {
      auto [h, op] = entered_.back();
      entered_.pop_back();
      auto range = table_.equal_range(h);
      for (auto it = range.first; it != range.second; ++it)
        if (it->second == op) {
          table_.erase(it);
          break;
        }
    }
  }

private:
  Op *lookup(const Op *op) const {
    auto range = table_.equal_range(hashOp(op));
    for (auto it = range.first; it != range.second; ++it)
      if (equivalent(it->second, op))
        return it->second;
    return nullptr;
  }

  std::unordered_multimap<size_t, Op *> table_;
  std::vector<std::pair<size_t, Op *>> entered_;
};

} // namespace

bool eliminateCommonSubexpressions(Module &m, Diagnostics &) {
  for (Op *f : m.functions())
    CommonSubexpressions().runOnBlock(f->region());
  return true;
}

} // namespace trident
