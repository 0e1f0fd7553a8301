// The verifier's driver: the rules every op obeys (counts from the op table,
// well-formed types, dominance, terminator placement), then the rules of the
// op's family (OpChecker.h).

#include "trident/ir/Verifier.h"

#include "OpChecker.h"

#include <unordered_set>
#include <vector>

namespace trident {

namespace {

using verifier::OpChecker;

std::string countRange(int min, int max, std::string_view noun) {
  auto plural = [&](int n) { return std::to_string(n) + " " + std::string(noun) + (n == 1 ? "" : "s"); };
  if (max < 0)
    return "at least " + plural(min);
  if (min == max)
    return plural(min);
  return std::to_string(min) + " to " + plural(max);
}

// Checks operand, result and region counts against the op table.
bool checkCounts(OpChecker &c) {
  const Op *op = c.op();
  const OpInfo &info = op->info();
  bool ok = true;
  int n = static_cast<int>(op->numOperands());
  if (n < info.minOperands || (info.maxOperands >= 0 && n > info.maxOperands)) {
    c.error("expects " + countRange(info.minOperands, info.maxOperands, "operand") + ", got " +
            std::to_string(n));
    ok = false;
  }
  if (info.numResults >= 0 && static_cast<int>(op->numResults()) != info.numResults) {
    c.error("expects " + countRange(info.numResults, info.numResults, "result") + ", got " +
            std::to_string(op->numResults()));
    ok = false;
  }
  if (static_cast<int>(op->numRegions()) != info.numRegions) {
    c.error("expects " + countRange(info.numRegions, info.numRegions, "region") + ", got " +
            std::to_string(op->numRegions()));
    ok = false;
  }
  return ok;
}

// Each family's rules handle the ops of that family and ignore the others (the
// thread IR's own ops, "th.", have only the generic rules so far).
void checkFamilyRules(OpChecker &c) {
  using Rules = void (*)(OpChecker &);
  for (Rules rules : {verifier::verifyStructureOp, verifier::verifyControlFlowOp, verifier::verifyBlockOp,
                      verifier::verifyMemoryOp, verifier::verifyArithOp, verifier::verifyCombiningOp,
                      verifier::verifyDebugOp})
    rules(c);
}

class Verifier {
public:
  explicit Verifier(Diagnostics &diags) : diags_(diags) {}

  // Verifies `op` whose operands may come from `visibleOutside` (values that
  // dominate it in the enclosing regions).
  bool run(const Op *op, std::unordered_set<const Value *> visibleOutside) {
    size_t errorsBefore = diags_.list().size();
    scopes_.push_back(std::move(visibleOutside));
    verifyOp(op);
    scopes_.pop_back();
    return diags_.list().size() == errorsBefore;
  }

private:
  void verifyOp(const Op *op) {
    OpChecker c(op, diags_);
    bool ok = checkCounts(c);
    for (unsigned i = 0; i < op->numOperands(); ++i) {
      const Value *v = op->operand(i);
      if (!v) {
        c.error("operand #" + std::to_string(i) + " is missing");
        ok = false;
      } else if (!isVisible(v)) {
        c.error("operand #" + std::to_string(i) +
                (definedOutsideIsolation(op, v) ? " is defined outside the isolated region around it"
                                                : " does not dominate this use"));
      }
    }
    for (unsigned i = 0; i < op->numResults(); ++i) {
      std::string problem = verifier::typeProblem(op->result(i)->type());
      if (!problem.empty()) {
        c.error((op->numResults() == 1 ? std::string("result ") : "result #" + std::to_string(i) + " ") +
                problem);
        ok = false;
      }
    }
    if (op->has(kTerminator) && op->next())
      c.error("must be the last op of its region");
    if (ok)
      checkFamilyRules(c);

    for (unsigned r = 0; r < op->numRegions(); ++r)
      verifyRegion(op, r);

    for (unsigned i = 0; i < op->numResults(); ++i)
      scopes_.back().insert(op->result(i));
  }

  void verifyRegion(const Op *op, unsigned r) {
    size_t savedBase = base_;
    if (op->has(kIsolated))
      base_ = scopes_.size();
    scopes_.emplace_back();
    const Block *block = op->region(r);
    for (unsigned i = 0; i < block->numArguments(); ++i) {
      const Value *arg = block->argument(i);
      std::string problem = verifier::typeProblem(arg->type());
      if (!problem.empty()) {
        OpChecker c(op, diags_);
        c.error("region #" + std::to_string(r) + " argument #" + std::to_string(i) + " " + problem);
      }
      scopes_.back().insert(arg);
    }
    for (const Op *inner : *block)
      verifyOp(inner);
    scopes_.pop_back();
    base_ = savedBase;
  }

  bool isVisible(const Value *v) const {
    for (size_t i = base_; i < scopes_.size(); ++i)
      if (scopes_[i].count(v))
        return true;
    return false;
  }

  // True when `v` is defined outside the nearest isolated op around `user`.
  static bool definedOutsideIsolation(const Op *user, const Value *v) {
    const Op *isolated = user->parentOp();
    while (isolated && !isolated->has(kIsolated))
      isolated = isolated->parentOp();
    if (!isolated)
      return false;
    const Op *definer = v->definingOp() ? v->definingOp() : v->ownerBlock()->parentOp();
    return !definer || !definer->isInside(isolated) || (definer == isolated && v->definingOp());
  }

  Diagnostics &diags_;
  std::vector<std::unordered_set<const Value *>> scopes_;
  size_t base_ = 0; // first scope visible from the op being verified
};

// Values that dominate `op` from the regions around it, up to the nearest isolated op.
std::unordered_set<const Value *> valuesVisibleAt(const Op *op) {
  std::unordered_set<const Value *> visible;
  for (const Op *cur = op; cur && cur->parentBlock();) {
    const Block *block = cur->parentBlock();
    for (unsigned i = 0; i < block->numArguments(); ++i)
      visible.insert(block->argument(i));
    for (const Op *before = block->front(); before != cur; before = before->next())
      for (unsigned i = 0; i < before->numResults(); ++i)
        visible.insert(before->result(i));
    const Op *parent = block->parentOp();
    if (!parent || parent->has(kIsolated))
      break;
    cur = parent;
  }
  return visible;
}

} // namespace

bool verify(const Module &m, Diagnostics &diags) { return verify(m.op(), diags); }

bool verify(const Op *op, Diagnostics &diags) {
  Verifier v(diags);
  return v.run(op, valuesVisibleAt(op));
}

} // namespace trident
