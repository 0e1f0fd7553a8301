#include "trident/passes/FlattenLoops.h"

#include "Constant.h"
#include "OpEffects.h"

#include "trident/ir/Builder.h"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <optional>
#include <set>

namespace trident {

namespace {

// True when `v` is defined by an op or block outside `op`.
bool definedOutside(const Value *v, const Op *op) {
  if (const Op *def = v->definingOp())
    return !def->isInside(op);
  const Op *owner = v->ownerBlock()->parentOp();
  return !(owner && owner->isInside(op));
}

bool narrowInteger(Type t) { return t.isInteger() && t.bitWidth() > 1 && t.bitWidth() <= 32; }

bool isConstant(const Value *v) { return v->definingOp() && v->definingOp()->is(OpCode::Constant); }

struct Nest {
  Op *outer = nullptr, *inner = nullptr;
  std::vector<Op *> pre, post; // the outer body's ops before and after the inner loop
};

std::optional<Nest> matchNest(const Op *loop) {
  const Attribute &flag = loop->attr("flatten");
  if (!loop->is(OpCode::For) || !flag.isBool() || !flag.getBool() || !loop->region()->terminator())
    return std::nullopt;
  Nest n;
  n.outer = const_cast<Op *>(loop);
  for (Op *op : *loop->region()) {
    if (op->has(kTerminator))
      continue;
    if (op->is(OpCode::While) || (op->is(OpCode::For) && n.inner))
      return std::nullopt; // exactly one loop at the top level
    if (op->is(OpCode::For))
      n.inner = op;
    else
      (n.inner ? n.post : n.pre).push_back(op);
  }
  if (!n.inner || !n.inner->region()->terminator())
    return std::nullopt;
  for (unsigned k = 0; k < 3; ++k)
    if (Value *v = n.inner->operand(k); !definedOutside(v, loop) && !isConstant(v))
      return std::nullopt; // the inner trip count must not change from one outer iteration to the next
  if (!narrowInteger(loop->operand(0)->type()) || !narrowInteger(n.inner->operand(0)->type()))
    return std::nullopt; // the product of two trip counts must fit in i64
  return n;
}

// max(0, ceil((ub - lb) / step)) as an i64 (bounds of 32 bits or fewer; step > 0).
Value *tripCount(Builder &b, Value *lb, Value *ub, Value *step) {
  Type i64 = Type::i64();
  auto wide = [&](Value *v) { return b.cast(OpCode::ExtSI, v, i64); };
  Value *zero = b.constInt(0, i64), *one = b.constInt(1, i64);
  Value *span = b.binary(OpCode::SubI, wide(ub), wide(lb));
  Value *n = b.binary(OpCode::AddI, b.binary(OpCode::DivSI, b.binary(OpCode::SubI, span, one), wide(step)), one);
  return b.select(b.cmpi("sgt", span, zero), n, zero);
}

bool constantlyNonEmpty(const Op *loop) {
  std::optional<passes::ConstantValue> lb = passes::constantOf(loop->operand(0)),
                                       ub = passes::constantOf(loop->operand(1));
  return lb && ub && lb->isInt() && ub->isInt() && lb->sext() < ub->sext();
}

// A value of `type` for a loop-carried slot whose initial value is never read (the first
// iteration sets it), where the real one cannot be computed early.
Value *placeholder(Builder &b, Type type) {
  Type element = type.isBlock() ? type.element() : type;
  Value *scalar = nullptr;
  if (element == Type::i1())
    scalar = b.constBool(false);
  else if (element.isInteger())
    scalar = b.constInt(0, element);
  else if (element.isFloat())
    scalar = b.constFloat(0, element);
  else if (element.isPtr())
    scalar = b.cast(OpCode::IntToPtr, b.constInt(0, Type::i64()), element);
  if (!scalar || !type.isBlock())
    return scalar;
  return b.splat(scalar, type.shape());
}

// The fusion, where every placeholder the loop needs exists (else nothing changes).
bool flattenNest(Nest n) {
  Op *outer = n.outer, *inner = n.inner;
  for (unsigned k = 0; k < 3; ++k) // constant bounds in the outer body go before the nest
    if (Op *def = inner->operand(k)->definingOp(); def && def->isInside(outer)) {
      def->moveBefore(outer);
      n.pre.erase(std::find(n.pre.begin(), n.pre.end(), def));
    }
  Block *ob = outer->region(), *ib = inner->region();
  Value *lb = outer->operand(0), *ub = outer->operand(1), *st = outer->operand(2);
  Value *jlb = inner->operand(0), *jub = inner->operand(1), *js = inner->operand(2);
  Value *i = ob->argument(0), *j = ib->argument(0);
  std::span<Value *const> oinit = outer->operands().subspan(3), xinit = inner->operands().subspan(3);
  size_t no = oinit.size(), nx = xinit.size();
  std::set<const Op *> pre(n.pre.begin(), n.pre.end());
  auto topLevel = [&](Op *op) {
    while (op->parentBlock() != ob)
      op = op->parentOp();
    return op;
  };

  // Inner carried values whose initial value is defined before the nest are reset at the
  // end of each outer iteration; the others are set at its start.
  std::vector<bool> reset(nx);
  for (size_t k = 0; k < nx; ++k)
    reset[k] = definedOutside(xinit[k], outer);
  // What the prologue computes for later (the inner body, the epilogue, the yield).
  std::vector<Value *> pvals;
  for (Op *op : n.pre)
    for (Value *r : op->results()) {
      bool later = false;
      for (const Use &u : r->uses())
        later = later || (!(u.user == inner && u.operandIndex >= 3) && !pre.count(topLevel(u.user)));
      if (later)
        pvals.push_back(r);
    }

  Builder b;
  b.setLoc(outer->loc());
  b.setInsertionPoint(outer);
  Value *ni = tripCount(b, lb, ub, st), *nj = tripCount(b, jlb, jub, js);
  Value *zero = b.constInt(0, Type::i64()), *one = b.constInt(1, Type::i64());
  bool nonEmpty = constantlyNonEmpty(inner);
  Value *cond = b.cmpi("sgt", ni, zero);
  if (!nonEmpty)
    cond = b.binary(OpCode::AndI, cond, b.cmpi("sgt", nj, zero));
  std::vector<Type> resultTypes;
  for (Value *r : outer->results())
    resultTypes.push_back(r->type());
  Op *guard = b.ifOp(cond, resultTypes);
  Block *then = guard->region(0), *otherwise = guard->region(1);

  // The prologue of the first outer iteration, peeled where it is pure: the initial
  // values of what the loop carries from the prologue (they keep the axis info of what
  // the prologue computes; any value of the type would do, since the first iteration
  // computes them again).
  b.setInsertionPointToEnd(then);
  ValueMap peel;
  peel.map(i, lb);
  for (size_t m = 0; m < no; ++m)
    peel.map(ob->argument(unsigned(m + 1)), oinit[m]);
  std::set<const Op *> impure, peeled;
  for (Op *op : n.pre) {
    bool ok = passes::isPure(op) && !op->numRegions();
    for (Value *o : op->operands())
      ok = ok && !(o->definingOp() && impure.count(o->definingOp()));
    if (!ok)
      impure.insert(op);
  }
  std::function<void(Op *)> clonePeeled = [&](Op *op) {
    if (!peeled.insert(op).second)
      return;
    for (Value *o : op->operands())
      if (Op *def = o->definingOp(); def && pre.count(def))
        clonePeeled(def);
    b.insert(op->clone(peel));
  };
  auto initial = [&](Value *v) -> Value * {
    Op *def = v->definingOp();
    if (!def || !pre.count(def))
      return peel.lookup(v); // the outer induction variable, an outer carried value, or invariant
    if (impure.count(def))
      return placeholder(b, v->type());
    clonePeeled(def);
    return peel.lookup(v);
  };
  std::vector<Value *> inits{lb, jlb};
  inits.insert(inits.end(), oinit.begin(), oinit.end());
  for (size_t k = 0; k < nx; ++k)
    inits.push_back(reset[k] ? xinit[k] : initial(xinit[k]));
  for (Value *v : pvals)
    inits.push_back(initial(v));
  for (Value *v : inits)
    if (!v) {
      guard->erase(); // a type without a placeholder; the ops before it fold away
      return false;
    }

  Value *total = b.binary(OpCode::MulI, ni, nj);
  Op *fused = b.forOp(zero, total, one, inits);
  fused->setLoc(inner->loc());
  for (const NamedAttribute &a : outer->attrs().entries())
    if (a.name != "flatten")
      fused->setAttr(a.name, a.value);
  for (const char *name : {"num_stages", "loop_unroll_factor"}) // the loop that pipelines is the inner one
    if (inner->attr(name).present())
      fused->setAttr(name, inner->attr(name));
  Block *fb = fused->region();
  Value *fi = fb->argument(1), *fj = fb->argument(2);
  auto arg = [&](size_t k) { return fb->argument(unsigned(3 + k)); }; // o..., x..., v...
  b.setInsertionPointToEnd(fb);
  b.setLoc(outer->loc());

  // The prologue, at an outer iteration's first inner one (never past the last outer one:
  // the pipeline computes what the loads need ahead of time, past the end too).
  std::vector<Type> ptypes;
  for (size_t k = 0; k < nx; ++k)
    if (!reset[k])
      ptypes.push_back(xinit[k]->type());
  for (Value *v : pvals)
    ptypes.push_back(v->type());
  Op *pif = nullptr;
  if (!n.pre.empty() || !ptypes.empty()) {
    Value *first = b.binary(OpCode::AndI, b.cmpi("eq", fj, jlb), b.cmpi("slt", fi, ub));
    pif = b.ifOp(first, ptypes);
  }
  ValueMap pmap;
  pmap.map(i, fi);
  for (size_t m = 0; m < no; ++m)
    pmap.map(ob->argument(unsigned(m + 1)), arg(m));
  if (pif)
    b.setInsertionPointToEnd(pif->region(0));
  for (Op *op : n.pre)
    b.insert(op->clone(pmap));
  std::vector<Value *> thenYield, elseYield;
  for (size_t k = 0; k < nx; ++k)
    if (!reset[k]) {
      thenYield.push_back(pmap.lookup(xinit[k]));
      elseYield.push_back(arg(no + k));
    }
  for (size_t q = 0; q < pvals.size(); ++q) {
    thenYield.push_back(pmap.lookup(pvals[q]));
    elseYield.push_back(arg(no + nx + q));
  }
  if (pif) {
    b.yield(thenYield);
    b.setInsertionPointToEnd(pif->region(1));
    b.yield(elseYield);
  }

  // The inner body, at the fused loop's top level (where the pipeline looks for loads).
  b.setInsertionPointToEnd(fb);
  ValueMap bmap;
  bmap.map(i, fi);
  for (size_t m = 0; m < no; ++m)
    bmap.map(ob->argument(unsigned(m + 1)), arg(m));
  unsigned at = 0;
  for (size_t k = 0; k < nx; ++k)
    bmap.map(ib->argument(unsigned(k + 1)), reset[k] ? arg(no + k) : pif->result(at++));
  for (size_t q = 0; q < pvals.size(); ++q)
    bmap.map(pvals[q], pif->result(at++));
  bmap.map(j, fj);
  Op *innerYield = ib->terminator();
  for (Op *op : *ib)
    if (op != innerYield)
      b.insert(op->clone(bmap));
  std::vector<Value *> xn;
  for (Value *v : innerYield->operands())
    xn.push_back(bmap.lookup(v));

  // The epilogue, at an outer iteration's last inner one; it resets the accumulators.
  Value *jn = b.binary(OpCode::AddI, fj, js);
  Value *last = b.cmpi("sge", jn, jub);
  std::vector<Type> etypes = resultTypes;
  for (size_t k = 0; k < nx; ++k)
    if (reset[k])
      etypes.push_back(xinit[k]->type());
  Op *eif = b.ifOp(last, etypes);
  for (size_t k = 0; k < nx; ++k)
    bmap.map(inner->result(unsigned(k)), xn[k]);
  b.setInsertionPointToEnd(eif->region(0));
  for (Op *op : n.post)
    b.insert(op->clone(bmap));
  thenYield.clear();
  elseYield.clear();
  for (size_t m = 0; m < no; ++m) {
    thenYield.push_back(bmap.lookup(ob->terminator()->operand(unsigned(m))));
    elseYield.push_back(arg(m));
  }
  for (size_t k = 0; k < nx; ++k)
    if (reset[k]) {
      thenYield.push_back(xinit[k]);
      elseYield.push_back(xn[k]);
    }
  b.yield(thenYield);
  b.setInsertionPointToEnd(eif->region(1));
  b.yield(elseYield);

  b.setInsertionPointToEnd(fb);
  std::vector<Value *> next{b.select(last, b.binary(OpCode::AddI, fi, st), fi), b.select(last, jlb, jn)};
  for (size_t m = 0; m < no; ++m)
    next.push_back(eif->result(unsigned(m)));
  at = unsigned(no);
  for (size_t k = 0; k < nx; ++k)
    next.push_back(reset[k] ? eif->result(at++) : xn[k]);
  for (size_t q = 0; q < pvals.size(); ++q)
    next.push_back(pif->result(unsigned(ptypes.size() - pvals.size() + q)));
  b.yield(next);

  b.setInsertionPointToEnd(then);
  std::vector<Value *> results;
  for (size_t m = 0; m < no; ++m)
    results.push_back(fused->result(unsigned(2 + m)));
  b.yield(results);

  // Otherwise the nest as written, without the inner loop (it runs zero times), or,
  // when the inner loop always runs, nothing (the outer one does not run).
  for (size_t m = 0; m < no; ++m)
    outer->result(unsigned(m))->replaceAllUsesWith(guard->result(unsigned(m)));
  b.setInsertionPointToEnd(otherwise);
  if (nonEmpty) {
    b.yield(std::vector<Value *>(oinit.begin(), oinit.end()));
    outer->erase();
    return true;
  }
  outer->detach();
  otherwise->push_back(outer);
  outer->attrs().erase("flatten");
  for (size_t k = 0; k < nx; ++k)
    inner->result(unsigned(k))->replaceAllUsesWith(xinit[k]);
  inner->erase();
  b.yield(outer->results());
  return true;
}

} // namespace

bool flattenEnabled() {
  const char *v = std::getenv("TRIDENT_FLATTEN");
  return !(v && (std::strcmp(v, "0") == 0 || std::strcmp(v, "off") == 0));
}

bool isFlattenCandidate(const Op *loop) { return flattenEnabled() && matchNest(loop).has_value(); }

bool flattenLoops(Module &m, Diagnostics &) {
  if (!flattenEnabled())
    return true;
  for (Op *f : m.functions()) {
    if (!f->region())
      continue;
    std::vector<Op *> loops;
    f->walk([&](Op *op) {
      if (op->is(OpCode::For) && op->attr("flatten").isBool())
        loops.push_back(op);
    });
    // Innermost first: a fused loop may be the inner loop of an outer nest.
    for (auto it = loops.rbegin(); it != loops.rend(); ++it)
      if (std::optional<Nest> n = matchNest(*it))
        flattenNest(*n);
  }
  return true;
}

} // namespace trident
