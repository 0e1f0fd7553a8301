#include "trident/passes/VersionSigns.h"

#include "trident/analysis/AxisInfo.h"
#include "trident/ir/Builder.h"
#include "trident/passes/FlattenLoops.h"

#include <algorithm>
#include <functional>
#include <set>

namespace trident {

namespace {

bool contiguousSomewhere(const AxisInfo &a) {
  for (unsigned d = 0; d < a.rank(); ++d)
    if (a.contiguity(d) > 1)
      return true;
  return false;
}

// The scalars whose sign decides whether the remainders and divisions of `top` keep
// their dividends' runs.
std::vector<Value *> signRoots(Block *top, const AxisInfoAnalysis &info) {
  std::vector<Value *> roots;
  for (Op *op : *top) {
    if (!(op->is(OpCode::RemSI) || op->is(OpCode::DivSI)) || !op->result()->type().isBlock())
      continue;
    if (info.get(op->operand(0)).nonNegative())
      continue;
    Op *add = op->operand(0)->definingOp();
    if (!add || !add->is(OpCode::AddI))
      continue;
    for (unsigned side = 0; side < 2; ++side) {
      Op *splat = add->operand(side)->definingOp();
      const AxisInfo &rest = info.get(add->operand(1 - side));
      if (!splat || !splat->is(OpCode::Splat) || !rest.nonNegative() || !contiguousSomewhere(rest))
        continue;
      Value *x = splat->operand(0);
      if (info.get(x).nonNegative() || !x->type().isInteger())
        continue;
      bool topLevel = x->definingOp() ? x->definingOp()->parentBlock() == top : x->ownerBlock() == top;
      if (topLevel && std::find(roots.begin(), roots.end(), x) == roots.end())
        roots.push_back(x);
    }
  }
  return roots;
}

// Versions what follows the roots of `top` (a kernel's body, or the body of an scf.for in
// it: a persistent kernel's tile loop) in an scf.if, whose results are the values the
// terminator takes from the versioned ops.
void versionBlock(Op *func, Block *top) {
  std::vector<Value *> roots;
  {
    AxisInfoAnalysis info(func);
    roots = signRoots(top, info);
  }
  if (roots.empty())
    return;
  // From the first use of a root on, every op runs in both versions except those the
  // roots themselves are computed from (they stay before the branch; they are pure).
  std::vector<Op *> ops = top->ops();
  std::set<const Op *> keep;
  std::vector<Value *> work(roots.begin(), roots.end());
  while (!work.empty()) {
    Op *def = work.back()->definingOp();
    work.pop_back();
    if (!def || def->parentBlock() != top || !keep.insert(def).second)
      continue;
    for (Value *o : def->operands())
      work.push_back(o);
  }
  auto usesRoot = [&](const Op *op) {
    return std::any_of(op->operands().begin(), op->operands().end(),
                       [&](Value *v) { return std::find(roots.begin(), roots.end(), v) != roots.end(); });
  };
  size_t first = 0;
  while (first + 1 < ops.size() && (keep.count(ops[first]) || !usesRoot(ops[first])))
    ++first;
  std::vector<Op *> moved;
  for (size_t i = first; i + 1 < ops.size(); ++i) {
    if (!keep.count(ops[i]))
      moved.push_back(ops[i]);
    else if (!ops[i]->has(kPure))
      return; // cannot move above the ops before it
  }
  if (moved.empty())
    return;
  // The terminator's operands that the versioned ops compute come out of the branch.
  Op *terminator = top->terminator();
  std::set<const Op *> movedSet(moved.begin(), moved.end());
  std::vector<unsigned> outs;
  std::vector<Type> outTypes;
  for (unsigned i = 0; i < terminator->numOperands(); ++i)
    if (Op *def = terminator->operand(i)->definingOp(); def && movedSet.count(def)) {
      outs.push_back(i);
      outTypes.push_back(terminator->operand(i)->type());
    }

  Builder b;
  b.setLoc(moved.front()->loc());
  b.setInsertionPoint(terminator);
  Value *cond = nullptr;
  std::vector<Value *> zeros;
  for (Value *x : roots) {
    Value *zero = b.constInt(0, x->type());
    zeros.push_back(zero);
    Value *ok = b.cmpi("sge", x, zero);
    cond = cond ? b.binary(OpCode::AndI, cond, ok) : ok;
  }
  Op *branch = b.ifOp(cond, outTypes);
  Block *then = branch->region(0), *otherwise = branch->region(1);
  auto yielded = [&](const std::function<Value *(Value *)> &f) {
    std::vector<Value *> v;
    for (unsigned i : outs)
      v.push_back(f(terminator->operand(i)));
    return v;
  };

  // The copy as written goes to the else branch; the ops themselves to the then branch.
  ValueMap map;
  for (Op *op : moved)
    otherwise->push_back(op->clone(map));
  b.setInsertionPointToEnd(otherwise);
  b.yield(yielded([&](Value *v) { return map.lookup(v); }));
  for (Op *op : moved) {
    op->detach();
    then->push_back(op);
  }
  b.setInsertionPointToStart(then);
  for (size_t i = 0; i < roots.size(); ++i) {
    Value *known = b.binary(OpCode::MaxSI, roots[i], zeros[i]);
    for (Op *op : moved)
      op->walk([&](Op *inner) {
        for (unsigned k = 0; k < inner->numOperands(); ++k)
          if (inner->operand(k) == roots[i])
            inner->setOperand(k, known);
      });
  }
  b.setInsertionPointToEnd(then);
  b.yield(yielded([](Value *v) { return v; }));
  for (size_t k = 0; k < outs.size(); ++k)
    terminator->setOperand(outs[k], branch->result(unsigned(k)));
}

// Versions a loop that flatten-loops will fuse as a whole, so that its body stays one
// block holding the inner loop: a first loop over the same iterations computes the roots
// alone (the ops they come from, pure ones of the induction variable and of values
// defined before the loop), and the loop runs with them known non-negative when every
// one of them was, else as written. False when the roots cannot be computed so.
bool versionLoop(Op *func, Op *loop) {
  Block *body = loop->region();
  std::vector<Value *> roots;
  {
    AxisInfoAnalysis info(func);
    roots = signRoots(body, info);
  }
  if (roots.empty())
    return true;
  std::set<const Op *> keep;
  std::vector<Value *> work(roots.begin(), roots.end());
  while (!work.empty()) {
    Value *v = work.back();
    work.pop_back();
    if (v->ownerBlock() == body && v->index() > 0)
      return false; // a loop-carried value
    Op *def = v->definingOp();
    if (!def || def->parentBlock() != body || !keep.insert(def).second)
      continue;
    if (!def->has(kPure) || def->numRegions())
      return false;
    for (Value *o : def->operands())
      work.push_back(o);
  }

  Builder b;
  b.setLoc(loop->loc());
  b.setInsertionPoint(loop);
  Value *all[] = {b.constBool(true)};
  Op *inspect = b.forOp(loop->operand(0), loop->operand(1), loop->operand(2), all);
  Block *ib = inspect->region();
  ValueMap map;
  map.map(body->argument(0), ib->argument(0));
  b.setInsertionPointToEnd(ib);
  for (Op *op : *body)
    if (keep.count(op))
      b.insert(op->clone(map));
  Value *ok = ib->argument(1);
  for (Value *x : roots)
    ok = b.binary(OpCode::AndI, ok, b.cmpi("sge", map.lookup(x), b.constInt(0, x->type())));
  Value *next[] = {ok};
  b.yield(next);

  b.setInsertionPoint(loop);
  std::vector<Type> types;
  for (Value *r : loop->results())
    types.push_back(r->type());
  Op *branch = b.ifOp(inspect->result(), types);
  Block *then = branch->region(0), *otherwise = branch->region(1);
  ValueMap copy;
  otherwise->push_back(loop->clone(copy));
  b.setInsertionPointToEnd(otherwise);
  b.yield(otherwise->front()->results());
  for (unsigned k = 0; k < loop->numResults(); ++k)
    loop->result(k)->replaceAllUsesWith(branch->result(k));
  loop->detach();
  then->push_back(loop);
  b.setInsertionPointToEnd(then);
  b.yield(loop->results());

  // In the first version every use of a root but the ops computing roots reads it
  // through a max with 0 (which axis info reads as non-negative).
  for (Value *x : roots) {
    if (Op *def = x->definingOp())
      b.setInsertionPointAfter(def);
    else
      b.setInsertionPointToStart(body);
    Value *known = b.binary(OpCode::MaxSI, x, b.constInt(0, x->type()));
    const Op *maxOp = known->definingOp(), *zeroOp = maxOp->operand(1)->definingOp();
    for (Op *op : body->ops())
      if (!keep.count(op) && op != maxOp && op != zeroOp)
        op->walk([&](Op *inner) {
          for (unsigned k = 0; k < inner->numOperands(); ++k)
            if (inner->operand(k) == x)
              inner->setOperand(k, known);
        });
  }
  return true;
}

void versionFunction(Op *func) {
  Block *top = func->region();
  if (!top->terminator() || top->terminator()->numOperands())
    return; // kernels only: they return nothing
  // The loops as they are now: after the body is versioned they are in its first
  // version (the second holds copies), so a loop's body is versioned at most once.
  std::vector<Op *> loops;
  func->walk([&](Op *op) {
    if (op->is(OpCode::For) && op->region()->terminator())
      loops.push_back(op);
  });
  versionBlock(func, top);
  for (Op *loop : loops)
    if (!isFlattenCandidate(loop) || !versionLoop(func, loop))
      versionBlock(func, loop->region());
}

} // namespace

bool versionSigns(Module &m, Diagnostics &) {
  for (Op *f : m.functions())
    if (f->region() && !f->region()->empty())
      versionFunction(f);
  return true;
}

} // namespace trident
