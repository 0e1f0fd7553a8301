// The axis-info driver: seeds function arguments, walks ops in order, iterates loops
// to a fixpoint, applies tt.assume facts; and the queries the lowering asks.

#include "AxisInfoMath.h"
#include "AxisInfoRules.h"

#include <algorithm>
#include <cassert>
#include <functional>
#include <map>
#include <numeric>

namespace trident {

namespace {

// Loops iterate at most this often before their carried values are taken as unknown,
// and loops nested deeper than kMaxFixpointDepth are not iterated at all, so the work
// stays bounded (by roughly 7^3 passes over the deepest body) on any input.
constexpr int kMaxIterations = 6;
constexpr int kMaxFixpointDepth = 3;

// What a tt.assume says about a value.
struct Assumption {
  int64_t divisibility = 1;
  bool nonNegative = false;
};

std::optional<int64_t> constantOperand(const Value *v) {
  const Op *def = v->definingOp();
  if (!def)
    return std::nullopt;
  if (def->is(OpCode::Constant) && def->attr("value").isInt())
    return def->attr("value").getInt();
  if (def->is(OpCode::Splat))
    return constantOperand(def->operand(0));
  return std::nullopt;
}

class Solver {
public:
  explicit Solver(std::unordered_map<const Value *, AxisInfo> &infos) : infos_(infos) {}

  void run(Op *func) {
    collectAssumptions(func);
    Block *body = func->region();
    const Attribute &divs = func->attr("arg_divisibility");
    for (unsigned i = 0; i < body->numArguments(); ++i) {
      Value *arg = body->argument(i);
      AxisInfo a = AxisInfo::unknown(arg->type());
      if (divs.isInts() && i < divs.getInts().size() && divs.getInts()[i] > 1) {
        AxisInfo::DimVector div = a.divisibility();
        for (int64_t &d : div)
          d = std::max(d, axis::pow2Divisor(divs.getInts()[i]));
        a = AxisInfo(div, a.contiguity(), a.constancy());
      }
      set(arg, a);
    }
    visitBlock(body);
  }

private:
  const AxisInfo &info(const Value *v) {
    auto it = infos_.find(v);
    if (it == infos_.end())
      it = infos_.emplace(v, AxisInfo::unknown(v->type())).first;
    return it->second;
  }

  void set(const Value *v, AxisInfo a) {
    if (a.rank() != axis::rankOf(v->type()))
      a = AxisInfo::unknown(v->type());
    auto it = assumptions_.find(v);
    if (it != assumptions_.end()) {
      AxisInfo::DimVector div = a.divisibility();
      for (unsigned d = 0; d < a.rank(); ++d)
        if (a.contiguity(d) == 1)
          div[d] = std::max(div[d], it->second.divisibility);
      a = AxisInfo(div, a.contiguity(), a.constancy(), a.constantValue(),
                   a.nonNegative() || it->second.nonNegative);
    }
    infos_.insert_or_assign(v, std::move(a));
  }

  void visitBlock(Block *block) {
    for (Op *op : *block)
      visitOp(op);
  }

  void visitOp(Op *op) {
    // (The parser and the verifier guarantee these operand and region counts.)
    switch (op->code()) {
    case OpCode::For:
      if (op->numOperands() >= 3 && op->numRegions() == 1)
        return visitFor(op);
      break;
    case OpCode::While:
      if (op->numRegions() == 2)
        return visitWhile(op);
      break;
    case OpCode::If:
      if (op->numOperands() == 1 && op->numRegions() == 2)
        return visitIf(op);
      break;
    default: break;
    }
    // Other regions (reduce and scan combiners): arguments are unknown.
    for (unsigned r = 0; r < op->numRegions(); ++r) {
      for (Value *arg : op->region(r)->arguments())
        set(arg, AxisInfo::unknown(arg->type()));
      visitBlock(op->region(r));
    }
    std::vector<const AxisInfo *> operands;
    for (Value *v : op->operands())
      operands.push_back(&info(v));
    std::vector<AxisInfo> results = axis::inferResults(op, operands);
    for (unsigned i = 0; i < op->numResults(); ++i)
      set(op->result(i), i < results.size() ? results[i] : AxisInfo::unknown(op->result(i)->type()));
  }

  // The facts about the operands of `block`'s terminator after the first `skip`, one per
  // type of `types`; unknown when the terminator does not match.
  std::vector<AxisInfo> terminatorInfos(Block *block, unsigned skip, const std::vector<Type> &types) {
    Op *term = block->terminator();
    std::vector<AxisInfo> out;
    bool matches = term && term->numOperands() == skip + types.size();
    for (unsigned i = 0; i < types.size(); ++i) {
      if (matches && term->operand(skip + i)->type() == types[i])
        out.push_back(info(term->operand(skip + i)));
      else
        out.push_back(AxisInfo::unknown(types[i]));
    }
    return out;
  }

  std::vector<AxisInfo> unknowns(const std::vector<Type> &types) {
    std::vector<AxisInfo> out;
    for (Type t : types)
      out.push_back(AxisInfo::unknown(t));
    return out;
  }

  // Iterates `pass` (which analyzes a loop's regions given the facts about the carried
  // values and returns the facts flowing back) until the carried facts stop changing.
  // Each round meets the facts, so they only weaken; the round limit ends it regardless.
  using LoopPass = std::function<std::vector<AxisInfo>(const std::vector<AxisInfo> &)>;
  std::vector<AxisInfo> fixpoint(std::vector<AxisInfo> carried, const std::vector<Type> &types,
                                 const LoopPass &pass) {
    ++loopDepth_;
    for (int round = 0; loopDepth_ <= kMaxFixpointDepth && round < kMaxIterations; ++round) {
      std::vector<AxisInfo> back = pass(carried);
      std::vector<AxisInfo> next;
      for (unsigned i = 0; i < types.size(); ++i)
        next.push_back(meet(carried[i], back[i], types[i]));
      if (next == carried) {
        --loopDepth_;
        return carried;
      }
      carried = std::move(next);
    }
    carried = unknowns(types);
    pass(carried);
    --loopDepth_;
    return carried;
  }

  void visitFor(Op *op) {
    Block *body = op->region();
    unsigned numIters = op->numOperands() - 3;
    if (body->numArguments() != numIters + 1 || op->numResults() != numIters) {
      for (Value *arg : body->arguments())
        set(arg, AxisInfo::unknown(arg->type()));
      visitBlock(body);
      for (Value *r : op->results())
        set(r, AxisInfo::unknown(r->type()));
      return;
    }
    // iv = lb + k * step: a multiple of what divides both.
    const AxisInfo &lb = info(op->operand(0)), &step = info(op->operand(2));
    Value *iv = body->argument(0);
    AxisInfo ivInfo({std::min(lb.elementDivisibility(1), step.elementDivisibility(1))}, {1}, {1},
                    std::nullopt, lb.nonNegative() && step.nonNegative());
    std::vector<Type> types;
    std::vector<AxisInfo> inits;
    for (unsigned i = 0; i < numIters; ++i) {
      types.push_back(body->argument(i + 1)->type());
      inits.push_back(info(op->operand(i + 3)));
    }
    std::vector<AxisInfo> carried = fixpoint(inits, types, [&](const std::vector<AxisInfo> &in) {
      set(iv, ivInfo);
      for (unsigned i = 0; i < numIters; ++i)
        set(body->argument(i + 1), in[i]);
      visitBlock(body);
      return terminatorInfos(body, 0, types);
    });
    for (unsigned i = 0; i < numIters; ++i)
      set(op->result(i), carried[i]);
  }

  void visitWhile(Op *op) {
    Block *before = op->region(0), *after = op->region(1);
    std::vector<Type> types, afterTypes;
    std::vector<AxisInfo> inits;
    for (Value *arg : before->arguments())
      types.push_back(arg->type());
    for (Value *arg : after->arguments())
      afterTypes.push_back(arg->type());
    bool wellFormed = types.size() == op->numOperands() && afterTypes.size() == op->numResults();
    for (unsigned i = 0; wellFormed && i < types.size(); ++i)
      inits.push_back(info(op->operand(i)));
    if (!wellFormed)
      inits = unknowns(types);
    std::vector<AxisInfo> passed;
    fixpoint(inits, types, [&](const std::vector<AxisInfo> &in) {
      for (unsigned i = 0; i < types.size(); ++i)
        set(before->argument(i), in[i]);
      visitBlock(before);
      passed = terminatorInfos(before, 1, afterTypes);
      for (unsigned i = 0; i < afterTypes.size(); ++i)
        set(after->argument(i), passed[i]);
      visitBlock(after);
      return terminatorInfos(after, 0, types);
    });
    for (unsigned i = 0; i < op->numResults(); ++i)
      set(op->result(i), wellFormed ? passed[i] : AxisInfo::unknown(op->result(i)->type()));
  }

  void visitIf(Op *op) {
    Block *thenBlock = op->region(0), *elseBlock = op->region(1);
    visitBlock(thenBlock);
    visitBlock(elseBlock);
    std::vector<Type> types;
    for (Value *r : op->results())
      types.push_back(r->type());
    std::vector<AxisInfo> thenInfos = terminatorInfos(thenBlock, 0, types);
    std::vector<AxisInfo> elseInfos = terminatorInfos(elseBlock, 0, types);
    std::optional<int64_t> cond = info(op->operand(0)).constantValue();
    for (unsigned i = 0; i < types.size(); ++i) {
      if (cond)
        set(op->result(i), *cond ? thenInfos[i] : elseInfos[i]);
      else
        set(op->result(i), meet(thenInfos[i], elseInfos[i], types[i]));
    }
  }

  // Recognizes `tt.assume (x % C == 0)`, `(x & (2^n-1)) == 0` and `x >= 0` (or x > -1),
  // for x defined in the block of the assume: every time that block runs to its end,
  // x satisfies the condition.
  void collectAssumptions(Op *func) {
    func->walk([&](Op *op) {
      if (!op->is(OpCode::Assume))
        return;
      const Op *cmp = op->operand(0)->definingOp();
      if (!cmp || !cmp->is(OpCode::CmpI) || !cmp->attr("predicate").isString())
        return;
      const std::string &pred = cmp->stringAttr("predicate");
      const Value *lhs = cmp->operand(0), *rhs = cmp->operand(1);
      std::optional<int64_t> lc = constantOperand(lhs), rc = constantOperand(rhs);
      const Value *target = nullptr;
      Assumption fact;
      if (pred == "eq" && (lc == 0 || rc == 0)) {
        const Op *def = (rc == 0 ? lhs : rhs)->definingOp();
        std::optional<int64_t> c =
            def && def->numOperands() == 2 ? constantOperand(def->operand(1)) : std::nullopt;
        if (c && *c > 0 && (def->is(OpCode::RemSI) || def->is(OpCode::RemUI))) {
          target = def->operand(0);
          fact.divisibility = axis::pow2Divisor(*c);
        } else if (c && *c > 0 && *c < AxisInfo::kMaxDivisibility && (*c & (*c + 1)) == 0 &&
                   def->is(OpCode::AndI)) {
          target = def->operand(0);
          fact.divisibility = *c + 1;
        }
      } else if ((pred == "sge" && rc && *rc >= 0) || (pred == "sgt" && rc && *rc >= -1)) {
        target = lhs;
        fact.nonNegative = true;
      } else if ((pred == "sle" && lc && *lc >= 0) || (pred == "slt" && lc && *lc >= -1)) {
        target = rhs;
        fact.nonNegative = true;
      }
      if (!target)
        return;
      Block *defBlock =
          target->isBlockArgument() ? target->ownerBlock() : target->definingOp()->parentBlock();
      if (defBlock != op->parentBlock())
        return;
      Assumption &a = assumptions_[target];
      a.divisibility = std::max(a.divisibility, fact.divisibility);
      a.nonNegative = a.nonNegative || fact.nonNegative;
    });
  }

  std::unordered_map<const Value *, AxisInfo> &infos_;
  std::map<const Value *, Assumption> assumptions_;
  int loopDepth_ = 0;
};

} // namespace

AxisInfoAnalysis::AxisInfoAnalysis(const Module &module) {
  for (Op *f : module.functions())
    analyzeFunction(f);
}

AxisInfoAnalysis::AxisInfoAnalysis(Op *func) { analyzeFunction(func); }

void AxisInfoAnalysis::analyzeFunction(Op *func) {
  assert(func->is(OpCode::Func));
  Solver(infos_).run(func);
}

const AxisInfo &AxisInfoAnalysis::get(const Value *v) const {
  const AxisInfo *a = lookup(v);
  assert(a && "axis info asked for a value that was not analyzed");
  return *a;
}

const AxisInfo *AxisInfoAnalysis::lookup(const Value *v) const {
  auto it = infos_.find(v);
  return it == infos_.end() ? nullptr : &it->second;
}

std::vector<unsigned> AxisInfoAnalysis::contiguityOrder(const Value *v) const {
  const AxisInfo &a = get(v);
  std::vector<unsigned> order(a.rank());
  std::iota(order.rbegin(), order.rend(), 0u); // last dimension first among equals
  std::stable_sort(order.begin(), order.end(),
                   [&](unsigned x, unsigned y) { return a.contiguity(x) > a.contiguity(y); });
  return order;
}

unsigned AxisInfoAnalysis::vectorWidth(const Value *ptr, const Value *mask, unsigned maxBytes,
                                       int dim) const {
  Type type = ptr->type();
  if (!type.isBlock() || !type.element().isPtr())
    return 1;
  const AxisInfo &p = get(ptr);
  unsigned d = dim < 0 ? contiguityOrder(ptr).front() : static_cast<unsigned>(dim);
  if (d >= p.rank())
    return 1;
  int64_t unit = axis::unitBytes(type);
  // w elements from an index that is a multiple of w lie in one run and start at an
  // address that is a multiple of min(divisibility, w * unit).
  int64_t width = p.contiguity(d);
  width = std::min(width, std::max<int64_t>(1, p.divisibility(d) / unit));
  width = std::min(width, std::max<int64_t>(1, static_cast<int64_t>(maxBytes) / unit));
  if (mask && mask->type().isBlock()) {
    const AxisInfo &m = get(mask);
    width = m.rank() == p.rank() ? std::min(width, m.constancy(d)) : 1;
  }
  return static_cast<unsigned>(axis::floorPow2(width));
}

} // namespace trident
