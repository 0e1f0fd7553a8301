// Shape ops (splat, expand_dims + broadcast, reshape, trans, join, split, cat) and
// reductions and scans along any axis, with built-in and custom combiners.

#include "Generator.h"

#include <algorithm>

namespace trident::e2e {

namespace {

bool isF8(Type t) { return t.element() == Type::f8e4m3() || t.element() == Type::f8e5m2(); }

// A random shape of 2^log2Elements elements and rank 1 to 3.
std::vector<int64_t> randomFactorization(Rng &rng, int log2Elements) {
  int rank = int(rng.range(1, std::min(3, std::max(1, log2Elements))));
  std::vector<int64_t> logs(size_t(rank), 0);
  for (int i = 0; i < log2Elements; ++i)
    logs[size_t(rng.range(0, rank - 1))]++;
  std::vector<int64_t> shape;
  for (int64_t l : logs)
    shape.push_back(int64_t(1) << l);
  return shape;
}

int log2Of(int64_t n) {
  int l = 0;
  while ((int64_t(1) << l) < n)
    ++l;
  return l;
}

} // namespace

Value *Generator::broadcastTo(Value *v, const std::vector<int64_t> &shape) {
  std::vector<int64_t> s = shapeOf(v->type());
  if (s == shape)
    return v;
  if (s.empty())
    return record(b_.splat(v, shape));
  if (s.size() + 1 == shape.size()) {
    std::vector<int> axes;
    for (size_t k = 0; k < shape.size(); ++k) {
      std::vector<int64_t> rest = shape;
      rest.erase(rest.begin() + long(k));
      if (rest == s)
        axes.push_back(int(k));
    }
    if (axes.empty())
      return nullptr;
    v = record(b_.expandDims(v, rng_.pick(axes)));
    s = shapeOf(v->type());
  }
  if (s.size() != shape.size())
    return nullptr;
  for (size_t i = 0; i < s.size(); ++i)
    if (s[i] != shape[i] && s[i] != 1)
      return nullptr;
  use("shape");
  return record(b_.broadcast(v, shape));
}

bool Generator::genShapeOp() {
  Value *a = pickValue([&](Value *v) { return facts(v).kind != Facts::Kind::Other; });
  if (!a)
    return false;
  Type t = a->type();
  std::vector<int64_t> shape = shapeOf(t);
  int64_t n = t.numElements();
  auto sameType = [&]() -> Value * {
    if (Value *b = pickValue([&](Value *v) { return v->type() == t && v != a; }))
      return b;
    if (facts(a).kind == Facts::Kind::Bits || isF8(t))
      return a;
    return operandOfType(t, false);
  };
  use("shape");
  switch (rng_.range(0, 6)) {
  case 0: { // reshape
    if (n < 2)
      return false;
    std::vector<int64_t> to = randomFactorization(rng_, log2Of(n));
    if (to == shape)
      return false;
    record(b_.reshape(a, to));
    return true;
  }
  case 1: { // trans
    if (shape.size() < 2)
      return false;
    std::vector<int64_t> order(shape.size());
    for (size_t i = 0; i < order.size(); ++i)
      order[i] = int64_t(i);
    while (std::is_sorted(order.begin(), order.end()))
      for (size_t i = order.size() - 1; i > 0; --i)
        std::swap(order[i], order[size_t(rng_.range(0, int64_t(i)))]);
    record(b_.trans(a, order));
    return true;
  }
  case 2: { // join
    if (n * 2 > options_.maxElements || shape.size() >= 4)
      return false;
    record(b_.join(a, sameType()));
    return true;
  }
  case 3: { // split
    if (shape.empty() || shape.back() != 2) {
      if (n < 2 || shape.size() >= 4)
        return false;
      std::vector<int64_t> to = shape;
      // Make the last dimension 2: halve the last dimension larger than 1.
      for (size_t i = to.size(); i-- > 0;)
        if (to[i] > 1) {
          to[i] /= 2;
          break;
        }
      to.push_back(2);
      a = record(b_.reshape(a, to));
    }
    auto [lo, hi] = b_.split(a);
    record(lo);
    pool_.push_back(hi);
    return true;
  }
  case 4: { // cat
    if (shape.empty() || n * 2 > options_.maxElements)
      return false;
    record(b_.cat(a, sameType()));
    return true;
  }
  case 5: { // expand_dims + broadcast to a larger block
    if (shape.size() >= 3)
      return false;
    int64_t d = int64_t(1) << rng_.range(1, 3);
    if (n * d > options_.maxElements)
      return false;
    int axis = int(rng_.range(0, int64_t(shape.size())));
    std::vector<int64_t> to = shape;
    to.insert(to.begin() + axis, d);
    if (shape.empty()) {
      record(b_.splat(a, to));
      return true;
    }
    Value *e = record(b_.expandDims(a, axis));
    record(b_.broadcast(e, to));
    return true;
  }
  default: { // a scalar splat to the tile's shape, or expand_dims alone
    if (shape.empty()) {
      record(b_.splat(a, tileShape_));
      return true;
    }
    if (shape.size() >= 4)
      return false;
    record(b_.expandDims(a, int(rng_.range(0, int64_t(shape.size())))));
    return true;
  }
  }
}

std::vector<Combine> Generator::pickCombiners(std::vector<Value *> &inputs, int axis) {
  std::vector<Combine> kinds;
  int64_t len = inputs[0]->type().shape()[size_t(axis)];
  bool single = inputs.size() == 1;
  for (size_t i = 0; i < inputs.size(); ++i) {
    Value *v = inputs[i];
    const Facts &f = facts(v);
    Type e = v->type().element();
    std::vector<Combine> choices;
    if (f.isInt()) {
      choices = {Combine::Add, Combine::Max,         Combine::Min, Combine::MaxUnsigned, Combine::Xor,
                 Combine::Or,  Combine::And,         Combine::Mul, Combine::MaxBySelect};
      if (e == Type::i1())
        choices = {Combine::Xor, Combine::Or, Combine::And, Combine::Max, Combine::MaxUnsigned};
    } else {
      choices = {Combine::MaxNum, Combine::MinNum, Combine::Maximum, Combine::Minimum};
      if (acceptable(v->type(), combineFacts(Combine::Add, e, len, f)))
        choices.push_back(Combine::Add), choices.push_back(Combine::Add);
      if (f.exact)
        choices.push_back(Combine::MaxBySelect);
    }
    if (single && e != Type::i1() && (f.isInt() || f.exact)) {
      choices.push_back(Combine::ArgMax);
      choices.push_back(Combine::ArgMin);
    }
    Combine c = rng_.pick(choices);
    kinds.push_back(c);
    if (c == Combine::ArgMax || c == Combine::ArgMin) {
      Value *index = axisIndex(shapeOf(v->type()), axis);
      if (rng_.chance(0.3) && typeEnabled(Type::i64()))
        index = record(b_.cast(OpCode::ExtSI, index, index->type().withElement(Type::i64())));
      inputs.push_back(index);
      kinds.push_back(Combine::ArgIndex);
      break;
    }
  }
  return kinds;
}

std::vector<Value *> Generator::emitCombiner(Builder &b, const std::vector<Combine> &kinds,
                                             std::span<Value *const> lhs, std::span<Value *const> rhs) {
  std::vector<Value *> out;
  for (size_t i = 0; i < kinds.size(); ++i) {
    Value *l = lhs[i], *r = rhs[i];
    bool isInt = l->type().isInteger();
    switch (kinds[i]) {
    case Combine::Add: out.push_back(b.binary(isInt ? OpCode::AddI : OpCode::AddF, l, r)); break;
    case Combine::Mul: out.push_back(b.binary(OpCode::MulI, l, r)); break;
    case Combine::Max: out.push_back(b.binary(OpCode::MaxSI, l, r)); break;
    case Combine::Min: out.push_back(b.binary(OpCode::MinSI, l, r)); break;
    case Combine::MaxUnsigned: out.push_back(b.binary(OpCode::MaxUI, l, r)); break;
    case Combine::Xor: out.push_back(b.binary(OpCode::XOrI, l, r)); break;
    case Combine::Or: out.push_back(b.binary(OpCode::OrI, l, r)); break;
    case Combine::And: out.push_back(b.binary(OpCode::AndI, l, r)); break;
    case Combine::MaxNum: out.push_back(b.binary(OpCode::MaxNumF, l, r)); break;
    case Combine::MinNum: out.push_back(b.binary(OpCode::MinNumF, l, r)); break;
    case Combine::Maximum: out.push_back(b.binary(OpCode::MaximumF, l, r)); break;
    case Combine::Minimum: out.push_back(b.binary(OpCode::MinimumF, l, r)); break;
    case Combine::MaxBySelect: {
      Value *greater = isInt ? b.cmpi("sgt", l, r) : b.cmpf("ogt", l, r);
      out.push_back(b.select(greater, l, r));
      break;
    }
    case Combine::ArgMax:
    case Combine::ArgMin: {
      // The better value wins; on a tie, the lower index, so any grouping gives one answer.
      bool max = kinds[i] == Combine::ArgMax;
      Value *li = lhs[i + 1], *ri = rhs[i + 1];
      Value *better = isInt ? b.cmpi(max ? "sgt" : "slt", l, r) : b.cmpf(max ? "ogt" : "olt", l, r);
      Value *equal = isInt ? b.cmpi("eq", l, r) : b.cmpf("oeq", l, r);
      Value *lower = b.cmpi("slt", li, ri);
      Value *takeLeft = b.binary(OpCode::OrI, better, b.binary(OpCode::AndI, equal, lower));
      out.push_back(b.select(takeLeft, l, r));
      out.push_back(b.select(takeLeft, li, ri));
      ++i;
      break;
    }
    case Combine::ArgIndex: break; // emitted with its value
    }
  }
  return out;
}

namespace {

bool reducible(const Facts &f, Type t) {
  return (f.kind == Facts::Kind::Int || f.kind == Facts::Kind::Float) && !isF8(t) && t.rank() >= 1;
}

} // namespace

bool Generator::genReduce() {
  Value *a = pickValue([&](Value *v) { return reducible(facts(v), v->type()); });
  if (!a)
    return false;
  int axis = int(rng_.range(0, int64_t(a->type().rank()) - 1));
  std::vector<Value *> inputs = {a};
  if (rng_.chance(0.25))
    if (Value *b = pickValue([&](Value *v) {
          return v != a && shapeOf(v->type()) == shapeOf(a->type()) && reducible(facts(v), v->type());
        }))
      inputs.push_back(b);
  std::vector<Combine> kinds = pickCombiners(inputs, axis);
  use("reduce");
  Op *op = b_.reduce(inputs, axis, [&](Builder &b, std::span<Value *const> l, std::span<Value *const> r) {
    return emitCombiner(b, kinds, l, r);
  });
  combiners_[op] = kinds;
  record(op->result(0));
  for (unsigned i = 1; i < op->numResults(); ++i)
    pool_.push_back(op->result(i));
  return true;
}

bool Generator::genScan() {
  Value *a = pickValue([&](Value *v) { return reducible(facts(v), v->type()); });
  if (!a)
    return false;
  int axis = int(rng_.range(0, int64_t(a->type().rank()) - 1));
  std::vector<Value *> inputs = {a};
  if (rng_.chance(0.2))
    if (Value *b = pickValue([&](Value *v) {
          return v != a && shapeOf(v->type()) == shapeOf(a->type()) && reducible(facts(v), v->type());
        }))
      inputs.push_back(b);
  std::vector<Combine> kinds = pickCombiners(inputs, axis);
  use("scan");
  Op *op = b_.scan(inputs, axis, rng_.chance(0.4), [&](Builder &b, std::span<Value *const> l,
                                                      std::span<Value *const> r) {
    return emitCombiner(b, kinds, l, r);
  });
  combiners_[op] = kinds;
  record(op->result(0));
  for (unsigned i = 1; i < op->numResults(); ++i)
    pool_.push_back(op->result(i));
  return true;
}

} // namespace trident::e2e
