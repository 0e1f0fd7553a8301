// Structured control flow: scf.for with loop-carried blocks (a known trip count; the
// body may load, store and run atomics in per-iteration slots) and scf.if with results
// and side effects in either branch.
//
// Loop-carried floats keep the facts declared for them on entry: the yield is clamped
// to the declared bound and, for exact values, rounded down to the declared fraction,
// so what the body was built for holds in every iteration. Errors still grow, so the
// facts of a loop's values come from running the transfer functions over the body once
// per iteration (inferFor).

#include "Generator.h"

#include <algorithm>
#include <cmath>

namespace trident::e2e {

namespace {

bool isF8(Type t) { return t.element() == Type::f8e4m3() || t.element() == Type::f8e5m2(); }

// The smallest power of two >= x (x > 0).
double powerOfTwoAbove(double x) { return std::exp2(std::ceil(std::log2(std::max(x, 1e-30)))); }

bool carriable(const Facts &f, Type t) { return f.kind != Facts::Kind::Other && !isF8(t); }

} // namespace

void Generator::genBody(int steps) {
  for (int done = 0, attempts = 0; done < steps && attempts < steps * 4; ++attempts)
    if (step())
      ++done;
}

Value *Generator::yieldValue(Type t) {
  size_t start = scopes_.back().poolStart;
  std::vector<Value *> local;
  for (size_t i = start; i < pool_.size(); ++i)
    if (pool_[i]->type() == t)
      local.push_back(pool_[i]);
  if (!local.empty() && rng_.chance(0.8))
    return local[local.size() - 1 - size_t(rng_.range(0, std::min<int64_t>(int64_t(local.size()), 3) - 1))];
  if (Value *v = pickValue([&](Value *x) { return x->type() == t; }))
    return v;
  return operandOfType(t, false);
}

bool Generator::genFor() {
  if (!budgetLeft())
    return false;
  int64_t trips = int64_t(rng_.weighted({0.1, 0.3, 0.3, 0.3}));
  int64_t step = rng_.range(1, 3), lb = rng_.range(-3, 3);
  int64_t ub = trips == 0 ? lb - rng_.range(0, 2) : lb + (trips - 1) * step + 1 + rng_.range(0, step - 1);
  Type bt = typeEnabled(Type::i64()) && rng_.chance(0.2) ? Type::i64() : Type::i32();
  auto bound = [&](int64_t v) {
    if (enabled("scalar-args") && rng_.chance(0.3)) {
      use("scalar-args");
      return addScalarParam(bt, uint64_t(v), intFacts(v, v), "b");
    }
    return constInt(v, bt);
  };
  Value *lbv = bound(lb), *ubv = bound(ub), *stepv = bound(step);

  // Loop-carried values and the facts every iteration keeps.
  std::vector<Value *> inits;
  int want = int(rng_.range(1, 3));
  for (int i = 0; i < want * 3 && int(inits.size()) < want; ++i) {
    Value *v = pickValue([&](Value *x) { return carriable(facts(x), x->type()); });
    if (v && std::find(inits.begin(), inits.end(), v) == inits.end())
      inits.push_back(v);
  }
  if (inits.empty())
    inits.push_back(randomConstant(Type::block(tileShape_, Type::f32()), false));
  std::vector<Facts> declared;
  for (Value *v : inits) {
    Facts f = facts(v);
    Type t = v->type();
    if (f.isFloat()) {
      double bound = powerOfTwoAbove(std::max(f.mag(), 1.0));
      Facts d = exactFloat(-bound, bound, f.frac);
      if (f.exact && fitsExact(t, d)) {
        f = d;
      } else {
        bound = std::min(bound * 2, safeMagnitude(t) / 4);
        f = approxFloat(-bound, bound, f.err);
      }
    } else if (f.isInt()) {
      f = fullInt(t);
    }
    declared.push_back(f);
  }

  use("loop");
  Op *loop = b_.forOp(lbv, ubv, stepv, inits);
  loops_[loop] = {lb, step, trips};
  Block *body = loop->region();
  Builder outer = b_;
  b_.setInsertionPointToEnd(body);
  enterScope();
  Value *iv = body->argument(0);
  recordWith(iv, trips > 0 ? intFacts(lb, lb + (trips - 1) * step) : intFacts(lb, lb));
  for (size_t i = 0; i < inits.size(); ++i)
    recordWith(body->argument(unsigned(i + 1)), declared[i]);

  // This iteration's slot: outer slot * trips + (iv - lb) / step.
  Scope &scope = scopes_.back();
  int64_t slots = std::max<int64_t>(trips, 1);
  auto note = [&](Value *v) { return recordWith(v, infer(v->definingOp(), 0), false); };
  Value *iv32 = bt == Type::i64() ? note(b_.cast(OpCode::TruncI, iv, Type::i32())) : iv;
  Value *index = note(b_.binary(OpCode::DivSI, note(b_.binary(OpCode::SubI, iv32, constInt(lb, Type::i32()))),
                                constInt(step, Type::i32())));
  facts_[index] = intFacts(0, slots - 1);
  if (scope.slot)
    index = note(b_.binary(OpCode::AddI, note(b_.binary(OpCode::MulI, scope.slot, constInt(slots, Type::i32()))), index));
  scope.slot = index;
  scope.slotCount *= slots;
  pool_.push_back(index);

  // Work on the loop-carried values first, so that iterations depend on each other.
  for (size_t i = 0; i < inits.size(); ++i) {
    Value *iter = body->argument(unsigned(i + 1));
    if (declared[i].kind == Facts::Kind::Int && rng_.chance(0.7))
      genIntOp(iter);
    else if (declared[i].kind == Facts::Kind::Float && rng_.chance(0.7))
      genFloatOp(iter);
  }
  genBody(int(rng_.range(2, 5)));

  std::vector<Value *> yields;
  for (size_t i = 0; i < inits.size(); ++i) {
    Value *iter = body->argument(unsigned(i + 1));
    Type t = iter->type();
    const Facts &d = declared[i];
    Value *y = yieldValue(t);
    if (facts(y).kind != d.kind && d.kind != Facts::Kind::Bits)
      y = iter; // arbitrary bits must not flow into a value the body computes with
    if (d.isExactFloat()) {
      if (!facts(y).isExactFloat())
        y = iter; // keep the value: nothing exact of this type was computed
      if (facts(y).frac > d.frac) { // round down to multiples of 2^-frac, exactly
        Value *up = record(b_.binary(OpCode::MulF, y, constFloat(std::ldexp(1.0, d.frac), t)));
        Value *down = record(b_.unary(OpCode::Floor, up));
        y = record(b_.binary(OpCode::MulF, down, constFloat(std::ldexp(1.0, -d.frac), t)));
      }
      if (facts(y).mag() > d.mag())
        y = clamp(y, d.mag());
    } else if (d.isFloat() && facts(y).isFloat() && facts(y).mag() > d.mag()) {
      y = clamp(y, d.mag());
    }
    yields.push_back(y);
  }
  b_.yield(yields);
  exitScope();
  b_ = outer;
  record(loop->result(0));
  for (unsigned i = 1; i < loop->numResults(); ++i)
    pool_.push_back(loop->result(i));
  return true;
}

Facts Generator::inferFor(const Op *op, unsigned result) {
  if (result > 0)
    return facts(op->result(result));
  const LoopInfo &info = loops_.at(op);
  const Block *body = op->region();
  const Op *yield = body->terminator();
  unsigned n = op->numResults();
  std::vector<Facts> current, seen;
  for (unsigned i = 0; i < n; ++i)
    current.push_back(facts(op->operand(3 + i)));
  seen = current;
  facts_[body->argument(0)] =
      info.trips > 0 ? intFacts(info.lb, info.lb + (info.trips - 1) * info.step) : intFacts(info.lb, info.lb);
  for (int64_t k = 0; k < info.trips; ++k) {
    for (unsigned i = 0; i < n; ++i)
      facts_[body->argument(i + 1)] = current[i];
    inferBlock(body);
    for (unsigned i = 0; i < n; ++i) {
      current[i] = facts(yield->operand(i));
      seen[i] = join(seen[i], current[i]);
    }
  }
  // Once more with what any iteration may start from, so the body's facts hold for all.
  for (unsigned i = 0; i < n; ++i)
    facts_[body->argument(i + 1)] = seen[i];
  inferBlock(body);
  for (unsigned i = 1; i < n; ++i)
    facts_[op->result(i)] = current[i];
  return current[0];
}

bool Generator::genIf() {
  if (!budgetLeft())
    return false;
  Value *cond = nullptr;
  auto note = [&](Value *v) { return recordWith(v, infer(v->definingOp(), 0), false); };
  static const char *const preds[] = {"eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"};
  switch (rng_.range(0, 3)) {
  case 0: // by program
    cond = note(b_.cmpi(preds[rng_.range(0, 9)], program_, constInt(rng_.range(0, numPrograms_), Type::i32())));
    break;
  case 1: // by a scalar argument
    if (enabled("scalar-args")) {
      int64_t v = rng_.range(-2, 2);
      use("scalar-args");
      Value *p = addScalarParam(Type::i32(), uint64_t(v), intFacts(v, v), "c");
      cond = note(b_.cmpi(preds[rng_.range(0, 9)], p, constInt(rng_.range(-2, 2), Type::i32())));
    }
    break;
  case 2: // by data: a scalar integer or exact float
    if (Value *s = pickValue([&](Value *x) {
          return x->type().rank() == 0 && (facts(x).isInt() || facts(x).isExactFloat()) &&
                 x->type().element() != Type::i1() && !isF8(x->type());
        })) {
      if (facts(s).isInt())
        cond = note(b_.cmpi(preds[rng_.range(0, 9)], s, randomConstant(s->type(), false)));
      else
        cond = note(b_.cmpf(rng_.chance(0.5) ? "olt" : "oge", s, randomConstant(s->type(), true)));
    }
    break;
  default: cond = pickValue([&](Value *x) { return x->type() == Type::i1(); }); break;
  }
  if (!cond)
    cond = note(b_.cmpi("eq", record(b_.binary(OpCode::AndI, program_, constInt(1, Type::i32()))),
                        constInt(0, Type::i32())));

  std::vector<Type> types;
  int want = int(rng_.range(0, 2));
  for (int i = 0; i < want; ++i)
    if (Value *v = pickValue([&](Value *x) { return carriable(facts(x), x->type()); }))
      types.push_back(v->type());

  use("if");
  Op *op = b_.ifOp(cond, types);
  Builder outer = b_;
  for (unsigned r = 0; r < 2; ++r) {
    b_.setInsertionPointToEnd(op->region(r));
    if (r == 1 && types.empty() && rng_.chance(0.3))
      break; // an empty else region
    enterScope();
    genBody(int(rng_.range(1, 3)));
    std::vector<Value *> yields;
    for (Type t : types)
      yields.push_back(yieldValue(t));
    b_.yield(yields);
    exitScope();
  }
  b_ = outer;
  if (op->numResults() > 0) {
    record(op->result(0));
    for (unsigned i = 1; i < op->numResults(); ++i)
      pool_.push_back(op->result(i));
  } else {
    --opsLeft_;
  }
  return true;
}

Facts Generator::inferIf(const Op *op, unsigned result) {
  if (result > 0)
    return facts(op->result(result));
  inferBlock(op->region(0));
  inferBlock(op->region(1));
  const Op *thenYield = op->region(0)->terminator();
  const Op *elseYield = op->region(1)->terminator();
  for (unsigned i = 1; i < op->numResults(); ++i)
    facts_[op->result(i)] = join(facts(thenYield->operand(i)), facts(elseYield->operand(i)));
  return join(facts(thenYield->operand(0)), facts(elseYield->operand(0)));
}

} // namespace trident::e2e
