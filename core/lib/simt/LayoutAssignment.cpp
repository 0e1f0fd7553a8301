#include "trident/simt/LayoutAssignment.h"

#include "AccessPlan.h"
#include "Recompute.h"

#include <algorithm>
#include <cassert>
#include <deque>
#include <span>
#include <unordered_map>
#include <unordered_set>

namespace trident::simt {

LinearLayout LayoutAssignment::layout(const Value *v) const {
  auto it = layouts_.find(v);
  if (it != layouts_.end())
    return it->second;
  assert(!v->type().isBlock() && "block value without a layout");
  return LinearLayout::replicated({}, warpSize, numWarps);
}

LinearLayout LayoutAssignment::accessLayout(const Op *memoryOp) const {
  auto it = access_.find(memoryOp);
  if (it != access_.end())
    return it->second.first;
  return LinearLayout::replicated({}, warpSize, numWarps);
}

int64_t LayoutAssignment::vectorElements(const Op *memoryOp) const {
  auto it = access_.find(memoryOp);
  return it == access_.end() ? 1 : it->second.second;
}

const MmaPlan *LayoutAssignment::mmaPlan(const Op *dot) const {
  auto it = mma_.find(dot);
  return it == mma_.end() ? nullptr : &it->second;
}

void LayoutAssignment::setAccess(const Op *memoryOp, LinearLayout layout, int64_t vectorElements) {
  access_[memoryOp] = {std::move(layout), vectorElements};
}

// ---- layouts of derived values --------------------------------------------------------

namespace {

bool alongAxis(const LinearLayout &l, int64_t basis, unsigned axis) {
  return ((basis >> l.dimOffset(axis)) & ((int64_t(1) << l.dimBits(axis)) - 1)) != 0;
}

std::vector<int64_t> shifted(const std::vector<int64_t> &bases, int shift) {
  std::vector<int64_t> out;
  for (int64_t b : bases)
    out.push_back(shift >= 0 ? b << shift : b >> -shift);
  return out;
}

unsigned totalBits(const LinearLayout &l) {
  unsigned n = 0;
  for (unsigned d = 0; d < l.rank(); ++d)
    n += l.dimBits(d);
  return n;
}

} // namespace

LinearLayout reducedLayout(const LinearLayout &input, unsigned axis) {
  assert(input.isDisjoint());
  LinearLayout sliced = input.sliceOut(axis);
  std::vector<int64_t> reg;
  for (size_t i = 0; i < input.regBases().size(); ++i)
    if (input.regBases()[i] != 0 && !alongAxis(input, input.regBases()[i], axis))
      reg.push_back(sliced.regBases()[i]);
  return LinearLayout(sliced.shape(), reg, sliced.laneBases(), sliced.warpBases());
}

LinearLayout joinedLayout(const LinearLayout &input) {
  std::vector<int64_t> shape = input.shape();
  shape.push_back(2);
  std::vector<int64_t> reg = shifted(input.regBases(), 1);
  reg.push_back(1);
  return LinearLayout(shape, reg, shifted(input.laneBases(), 1), shifted(input.warpBases(), 1));
}

LinearLayout concatenatedLayout(const LinearLayout &input) {
  std::vector<int64_t> shape = input.shape();
  shape[0] *= 2;
  std::vector<int64_t> reg = input.regBases();
  reg.push_back(int64_t(1) << totalBits(input));
  return LinearLayout(shape, reg, input.laneBases(), input.warpBases());
}

LinearLayout splittableLayout(const LinearLayout &input) {
  bool regHasBit = false, otherHasBit = false;
  for (int64_t b : input.regBases()) {
    if (b == 1)
      regHasBit = true;
    else if (b & 1)
      otherHasBit = true;
  }
  for (const auto *bases : {&input.laneBases(), &input.warpBases()})
    for (int64_t b : *bases)
      otherHasBit |= (b & 1) != 0;
  if (regHasBit && !otherHasBit)
    return input;
  std::vector<int64_t> order;
  for (unsigned i = 0; i < input.rank(); ++i)
    order.push_back(input.rank() - 1 - i);
  return LinearLayout::defaultBlocked(input.shape(), input.warpSize(), input.numWarps(), 2, order);
}

LinearLayout splitLayout(const LinearLayout &splittable) {
  std::vector<int64_t> shape = splittable.shape();
  shape.pop_back();
  std::vector<int64_t> reg;
  for (int64_t b : splittable.regBases())
    if (b != 1)
      reg.push_back(b >> 1);
  return LinearLayout(shape, reg, shifted(splittable.laneBases(), -1), shifted(splittable.warpBases(), -1));
}

LinearLayout scanLayout(std::span<const int64_t> shape, unsigned axis, unsigned warpSize, unsigned numWarps) {
  std::vector<int64_t> order{axis};
  for (unsigned i = 0; i < shape.size(); ++i)
    if (shape.size() - 1 - i != axis)
      order.push_back(static_cast<int64_t>(shape.size() - 1 - i));
  int64_t elements = 1;
  for (int64_t s : shape)
    elements *= s;
  int64_t perThread = std::max<int64_t>(1, elements / (int64_t(warpSize) * numWarps));
  return LinearLayout::defaultBlocked(shape, warpSize, numWarps, std::min(perThread, shape[axis]), order);
}

// ---- the assignment -------------------------------------------------------------------

namespace {

bool isMemoryOp(const Op *op) {
  return op->is(OpCode::Load) || op->is(OpCode::Store) || op->is(OpCode::AtomicRMW) ||
         op->is(OpCode::AtomicCAS);
}

class Assigner {
public:
  Assigner(LayoutAssignment &a, const TargetDesc &target, Op *func)
      : a_(a), target_(target), axisInfo_(func) {}

  LinearLayout defaultFor(Type t) const {
    return LinearLayout::defaultBlocked(t.shape(), a_.warpSize, a_.numWarps);
  }

  // Dots on matrix units fix their results to the accumulator layout, and it flows
  // forward (fixDotResult) before any memory op anchors.
  void anchorDots(Op *func) {
    std::vector<Op *> dots;
    func->walk([&](Op *op) {
      if (op->is(OpCode::Dot))
        dots.push_back(op);
    });
    std::unordered_set<const Op *> chained;
    for (Op *dot : dots)
      if (const Op *source = feedingDot(dot->operand(0), 16)) {
        chained.insert(dot);
        chained.insert(source);
      }
    for (Op *dot : dots) {
      std::optional<MmaPlan> plan =
          planMma(dot, target_, a_.numWarps, chained.count(dot) != 0, {loadedAlongK(dot, 0), loadedAlongK(dot, 1)});
      if (!plan) {
        // On cooperative matrices the result's block uses read it one row of tiles at a
        // time, or, where the components' layout is known, in that layout (registers).
        if (std::optional<CoopPlan> coop = planCoop(dot, target_, a_.numWarps)) {
          std::span<const int64_t> shape = dot->result()->type().shape();
          fixDotResult(dot->result(), coop->shape->layouts ? coopComponentLayout(shape, *coop, 2)
                                                           : coopResultLayout(shape, *coop, a_.warpSize));
        }
        continue;
      }
      a_.setMmaPlan(dot, *plan);
      fixDotResult(dot->result(), mmaAccumulatorLayout(dot->result()->type().shape(), *plan, a_.numWarps));
    }
  }

  // Whether dot operand `i` (A: M x K, B: K x N) is a load that reads K contiguously:
  // its tile is then written to shared memory K-major, as the copies move it.
  bool loadedAlongK(const Op *dot, unsigned i) const {
    const Op *load = dot->operand(i)->definingOp();
    if (!load || !load->is(OpCode::Load) || !load->operand(0)->type().isBlock())
      return false;
    AccessPlan plan = planAccess(load, axisInfo_, target_, a_.warpSize * a_.numWarps);
    return !plan.order.empty() && plan.order[0] == (i == 0 ? 1 : 0);
  }

  // Memory ops get coalesced layouts; the values they use are asked to match. A store
  // of a value the dots fixed keeps that value's layout.
  void anchor(Op *func) {
    anchorDots(func);
    func->walk([&](Op *op) {
      if (!isMemoryOp(op) || !op->operand(0)->type().isBlock())
        return;
      AccessPlan plan = planAccess(op, axisInfo_, target_, a_.warpSize * a_.numWarps);
      Type t = op->operand(0)->type();
      LinearLayout l =
          LinearLayout::defaultBlocked(t.shape(), a_.warpSize, a_.numWarps, plan.vectorElements, plan.order);
      if (op->is(OpCode::Store) && fixed_.count(op->operand(1))) {
        l = of(op->operand(1));
        plan.vectorElements = std::min(plan.vectorElements, l.contiguousRegisters(unsigned(plan.order[0])));
      }
      a_.setAccess(op, l, plan.vectorElements);
      if (op->numResults())
        fix(op->result(), l);
      for (Value *v : op->operands())
        wanted_.push_back({v, l});
    });
  }

  // Anchor layouts flow back to the values computing the anchors' operands.
  void propagateBackward() {
    std::deque<std::pair<Value *, LinearLayout>> work(wanted_.begin(), wanted_.end());
    while (!work.empty()) {
      auto [v, l] = work.front();
      work.pop_front();
      if (!v->type().isBlock() || fixed_.count(v))
        continue;
      fix(v, l);
      Op *def = v->definingOp();
      if (!def) {
        // A loop-carried value asks its initial value for the same layout, so the
        // conversion (pointers go through shared memory) is not needed at all.
        Op *loop = v->ownerBlock()->parentOp();
        if (loop && loop->is(OpCode::For) && v->index() >= 1 && v->ownerBlock() == loop->region(0))
          work.push_back({loop->operand(2 + v->index()), l});
        continue;
      }
      if (isMemoryOp(def))
        continue;
      switch (def->code()) {
      case OpCode::Broadcast:
        work.push_back({def->operand(0), l.broadcastSource(def->operand(0)->type().shape())});
        break;
      case OpCode::ExpandDims:
      case OpCode::Reshape:
        work.push_back({def->operand(0), l.reshape(def->operand(0)->type().shape())});
        break;
      case OpCode::Trans: {
        const std::vector<int64_t> &order = def->attr("order").getInts();
        std::vector<int64_t> inverse(order.size());
        for (size_t i = 0; i < order.size(); ++i)
          inverse[order[i]] = static_cast<int64_t>(i);
        work.push_back({def->operand(0), l.transpose(inverse)});
        break;
      }
      case OpCode::MultipleOf:
      case OpCode::MaxContiguous: work.push_back({def->operand(0), l}); break;
      case OpCode::If: // both branches' values (a flattened loop's prologue: a new tile's addresses)
        for (unsigned r = 0; r < def->numRegions(); ++r)
          if (Op *term = def->region(r)->terminator())
            work.push_back({term->operand(v->index()), l});
        break;
      default:
        if (def->has(kElementwise))
          for (Value *o : def->operands())
            work.push_back({o, l});
        break;
      }
    }
  }

  // Every value still without a layout gets one from its operands, in program order.
  void forward(Block *block) {
    for (Op *op : *block)
      forwardOp(op);
  }

private:
  // The dot whose result `v` is computed from through elementwise ops (depth-limited).
  static const Op *feedingDot(const Value *v, int depth) {
    const Op *def = v->definingOp();
    if (!def || depth == 0)
      return nullptr;
    if (def->is(OpCode::Dot))
      return def;
    if (!def->has(kElementwise))
      return nullptr;
    for (const Value *o : def->operands())
      if (o->type().isBlock())
        if (const Op *d = feedingDot(o, depth - 1))
          return d;
    return nullptr;
  }

  // Fixes a dot's result to `l` and carries it forward: through the loops that carry
  // it (their initial values are asked for it), and the elementwise ops that use it.
  void fixDotResult(Value *result, const LinearLayout &l) {
    std::deque<Value *> work{result};
    fix(result, l);
    auto reach = [&](Value *v) {
      if (!fixed_.count(v)) {
        fix(v, l);
        work.push_back(v);
      }
    };
    while (!work.empty()) {
      Value *v = work.front();
      work.pop_front();
      for (const Use &use : v->uses()) {
        Op *user = use.user;
        if (user->is(OpCode::Yield) && user->parentBlock()->parentOp() &&
            user->parentBlock()->parentOp()->is(OpCode::For)) {
          Op *loop = user->parentBlock()->parentOp();
          unsigned i = use.operandIndex;
          reach(loop->region(0)->argument(i + 1));
          reach(loop->result(i));
          wanted_.push_back({loop->operand(3 + i), l});
        } else if (user->has(kElementwise) && user->numResults() == 1 && user->result()->type().isBlock()) {
          reach(user->result());
          for (Value *o : user->operands())
            if (o != v)
              wanted_.push_back({o, l});
        }
      }
    }
  }

  void fix(Value *v, const LinearLayout &l) {
    a_.set(v, l);
    fixed_.insert(v);
  }
  // Sets a layout that a later pass over the same region may replace.
  void give(Value *v, const LinearLayout &l) {
    if (v->type().isBlock() && !fixed_.count(v))
      a_.set(v, l);
  }
  LinearLayout of(Value *v) const { return a_.layout(v); }

  void forwardOp(Op *op) {
    switch (op->code()) {
    case OpCode::For: return forwardFor(op);
    case OpCode::If: {
      forward(op->region(0));
      forward(op->region(1));
      Op *y0 = op->region(0)->terminator(), *y1 = op->region(1)->terminator();
      for (unsigned i = 0; y0 && i < op->numResults(); ++i) {
        if (!op->result(i)->type().isBlock())
          continue;
        // The branch yielding a value with a layout of its own decides; the other
        // branch's constant is computed again in that layout.
        std::vector<Value *> yielded{y0->operand(i)};
        if (y1)
          yielded.push_back(y1->operand(i));
        give(op->result(i), of(deciding(yielded)));
      }
      return;
    }
    case OpCode::While: return forwardWhile(op);
    default: break;
    }
    if (op->numResults() == 0 || !op->result()->type().isBlock())
      return;
    // Not skipped when the first result is fixed: the others of a multi-result op
    // (a scan or reduce of several operands, a split) still need layouts; give()
    // leaves fixed ones alone.
    Value *r = op->result();
    Type t = r->type();
    switch (op->code()) {
    case OpCode::Reduce: {
      LinearLayout in = of(op->operand(0));
      if (!in.isDisjoint())
        in = defaultFor(op->operand(0)->type());
      for (Value *res : op->results())
        give(res, reducedLayout(in, static_cast<unsigned>(op->intAttr("axis"))));
      return;
    }
    case OpCode::Scan:
      for (Value *res : op->results())
        give(res,
             scanLayout(t.shape(), static_cast<unsigned>(op->intAttr("axis")), a_.warpSize, a_.numWarps));
      return;
    case OpCode::Dot: {
      LinearLayout acc = of(op->operand(2));
      give(r, acc.isDisjoint() ? acc : defaultFor(t));
      return;
    }
    case OpCode::Join: return give(r, joinedLayout(of(op->operand(0))));
    case OpCode::Cat: return give(r, concatenatedLayout(of(op->operand(0))));
    case OpCode::Split: {
      LinearLayout half = splitLayout(splittableLayout(of(op->operand(0))));
      give(op->result(0), half);
      give(op->result(1), half);
      return;
    }
    case OpCode::ExpandDims:
    case OpCode::Reshape: return give(r, of(op->operand(0)).reshape(t.shape()));
    case OpCode::Trans: return give(r, of(op->operand(0)).transpose(op->attr("order").getInts()));
    case OpCode::MultipleOf:
    case OpCode::MaxContiguous: return give(r, of(op->operand(0)));
    case OpCode::ElementwiseInlineAsm: { // every result in one layout, the operands' if they have one
      Value *pick = op->numOperands() ? deciding(op->operands()) : nullptr;
      LinearLayout l = pick ? of(pick) : defaultFor(t);
      for (Value *res : op->results())
        give(res, l);
      return;
    }
    default: break;
    }
    if (op->has(kElementwise) && op->numOperands())
      if (Value *pick = deciding(op->operands()))
        return give(r, of(pick));
    for (Value *res : op->results())
      give(res, defaultFor(res->type()));
  }

  // Loop-carried values start in their initial values' layouts; when the body
  // yields another layout, the loop is assigned again carrying that one, so the
  // conversion happens once before the loop instead of once per iteration. An
  // accumulator starting as zeros is layout-free, so in `acc + load(...)` the load
  // decides (deciding()), the body yields the load's layout and the zeros are built
  // in it before the loop: no conversion at all.
  void forwardFor(Op *op) {
    Block *body = op->region(0);
    unsigned numIters = op->numResults();
    for (unsigned i = 0; i < numIters; ++i)
      give(body->argument(i + 1), of(op->operand(3 + i)));
    forward(body);
    Op *yield = body->terminator();
    bool changed = false;
    for (unsigned i = 0; i < numIters; ++i) {
      Value *arg = body->argument(i + 1);
      if (arg->type().isBlock() && !(of(yield->operand(i)) == of(arg))) {
        give(arg, of(yield->operand(i)));
        changed = true;
      }
    }
    if (changed)
      forward(body);
    for (unsigned i = 0; i < numIters; ++i)
      give(op->result(i), of(body->argument(i + 1)));
  }

  // The same for scf.while: the before region's arguments are carried around the
  // loop from what the after region yields.
  void forwardWhile(Op *op) {
    Block *before = op->region(0), *after = op->region(1);
    for (unsigned i = 0; i < op->numOperands(); ++i)
      give(before->argument(i), of(op->operand(i)));
    auto pass = [&] {
      forward(before);
      Op *cond = before->terminator();
      for (unsigned i = 0; i < op->numResults(); ++i) {
        give(after->argument(i), of(cond->operand(i + 1)));
        give(op->result(i), of(cond->operand(i + 1)));
      }
      forward(after);
    };
    pass();
    Op *yield = after->terminator();
    bool changed = false;
    for (unsigned i = 0; yield && i < op->numOperands(); ++i) {
      Value *arg = before->argument(i);
      if (arg->type().isBlock() && !fixed_.count(arg) && !(of(yield->operand(i)) == of(arg))) {
        give(arg, of(yield->operand(i)));
        changed = true;
      }
    }
    if (changed)
      pass();
  }

  // The value among `values` whose layout an elementwise op (or an scf.if result)
  // takes: one an anchor chose, else one that is not layout-free, else the first
  // block value; null when none is a block.
  Value *deciding(std::span<Value *const> values) {
    Value *firstBlock = nullptr, *notFree = nullptr;
    for (Value *v : values) {
      if (!v->type().isBlock())
        continue;
      if (fixed_.count(v))
        return v;
      if (!firstBlock)
        firstBlock = v;
      if (!notFree && !layoutFree(v))
        notFree = v;
    }
    return notFree ? notFree : firstBlock;
  }

  // True when `v` costs nothing to have in any layout, so it should not decide one:
  // what the lowering computes again wherever it is needed in another layout
  // (Recompute.h: constants, splats, ranges, and shape, hint and pure elementwise ops
  // over such values), and loop-carried values whose initial value is one (the loop carries whatever
  // layout its body yields; the initial value is computed in it before the loop).
  bool layoutFree(const Value *v) {
    if (!v->type().isBlock())
      return true;
    auto [it, inserted] = free_.emplace(v, false);
    if (!inserted)
      return it->second;
    bool result = false;
    if (const Op *def = v->definingOp()) {
      switch (recomputeKind(def, /*throughHints=*/true)) {
      case Recompute::No: break;
      case Recompute::Scalars: result = true; break;
      case Recompute::Operand: result = layoutFree(def->operand(0)); break;
      case Recompute::Operands:
        result = std::all_of(def->operands().begin(), def->operands().end(),
                             [&](const Value *o) { return layoutFree(o); });
        break;
      }
    } else if (const Op *loop = v->ownerBlock()->parentOp()) {
      if (loop->is(OpCode::For) && v->index() >= 1 && v->ownerBlock() == loop->region(0))
        result = layoutFree(loop->operand(2 + v->index()));
      else if (loop->is(OpCode::While) && v->ownerBlock() == loop->region(0))
        result = layoutFree(loop->operand(v->index()));
      else if (loop->is(OpCode::While) && loop->region(0)->terminator())
        result = layoutFree(loop->region(0)->terminator()->operand(v->index() + 1));
    }
    free_[v] = result;
    return result;
  }

  LayoutAssignment &a_;
  const TargetDesc &target_;
  AxisInfoAnalysis axisInfo_;
  std::vector<std::pair<Value *, LinearLayout>> wanted_;
  std::unordered_set<const Value *> fixed_;
  std::unordered_map<const Value *, bool> free_; // memo of layoutFree
};

} // namespace

LayoutAssignment assignLayouts(const Op *func, const TargetDesc &target, unsigned numWarps) {
  LayoutAssignment a;
  a.warpSize = target.warpSize;
  a.numWarps = numWarps;
  Op *f = const_cast<Op *>(func);
  Assigner s(a, target, f);
  s.anchor(f);
  s.propagateBackward();
  s.forward(f->region());
  return a;
}

} // namespace trident::simt
