#include "RandomKernel.h"

namespace trident::test {

Value *RandomKernelGenerator::constant(Type t, double v) {
  Type bt = Type::block(shape_, t);
  return t.isFloat() ? b_.constFloat(v, bt) : b_.constInt(static_cast<int64_t>(v), bt);
}

Value *RandomKernelGenerator::pickOf(Type element) {
  std::vector<Value *> &pool = element == Type::f32() ? f32_ : i32_;
  // Recent values more often, so chains grow deep.
  int n = static_cast<int>(pool.size());
  return pool[n - 1 - std::min(pick(n), pick(n))];
}

Value *RandomKernelGenerator::elementwiseF32(Value *a, Value *c) {
  switch (pick(9)) {
  case 0: return b_.binary(OpCode::AddF, a, c);
  case 1: return b_.binary(OpCode::SubF, a, c);
  case 2: return b_.binary(OpCode::MulF, a, c);
  case 3: return b_.binary(OpCode::MaxNumF, a, c);
  case 4: return b_.binary(OpCode::MinNumF, a, c);
  case 5: return b_.select(b_.cmpf("olt", a, c), a, c);
  case 6: return b_.binary(OpCode::AddF, b_.unary(OpCode::NegF, a), c);
  case 7: return b_.unary(OpCode::Exp, b_.binary(OpCode::MinNumF, a, constant(Type::f32(), 2.0)));
  default: return b_.fma(a, c, a);
  }
}

Value *RandomKernelGenerator::elementwiseI32(Value *a, Value *c) {
  switch (pick(8)) {
  case 0: return b_.binary(OpCode::AddI, a, c);
  case 1: return b_.binary(OpCode::SubI, a, c);
  case 2: return b_.binary(OpCode::MulI, a, c);
  case 3: return b_.binary(OpCode::XOrI, a, c);
  case 4: return b_.binary(OpCode::MaxSI, a, c);
  case 5: return b_.binary(OpCode::MinSI, a, c);
  case 6: return b_.binary(OpCode::ShRSI, a, constant(Type::i32(), 1));
  default: return b_.select(b_.cmpi("slt", a, c), a, c);
  }
}

Value *RandomKernelGenerator::reduceBack(Value *v) {
  bool isFloat = v->type().element().isFloat();
  OpCode code =
      isFloat ? (pick(2) ? OpCode::AddF : OpCode::MaxNumF) : (pick(2) ? OpCode::AddI : OpCode::MaxSI);
  unsigned axis = static_cast<unsigned>(pick(static_cast<int>(shape_.size())));
  Value *inputs[] = {v};
  Op *r = b_.reduce(inputs, static_cast<int>(axis), [&](Builder &ib, auto lhs, auto rhs) {
    return std::vector<Value *>{ib.binary(code, lhs[0], rhs[0])};
  });
  Value *reduced = r->result();
  if (shape_.size() == 1)
    return b_.splat(reduced, shape_);
  return b_.broadcast(b_.expandDims(reduced, static_cast<int>(axis)), shape_);
}

Value *RandomKernelGenerator::scanAlong(Value *v) {
  bool isFloat = v->type().element().isFloat();
  OpCode code = isFloat ? (pick(2) ? OpCode::AddF : OpCode::MaxNumF) : OpCode::AddI;
  Value *inputs[] = {v};
  Op *s = b_.scan(
      inputs, pick(static_cast<int>(shape_.size())), pick(2) == 1,
      [&](Builder &ib, auto lhs, auto rhs) { return std::vector<Value *>{ib.binary(code, lhs[0], rhs[0])}; });
  return s->result();
}

Value *RandomKernelGenerator::transposeTwice(Value *v) {
  int64_t order[] = {1, 0};
  Value *t = b_.trans(v, order);
  Value *doubled = b_.binary(v->type().element().isFloat() ? OpCode::AddF : OpCode::AddI, t, t);
  return b_.trans(doubled, order);
}

Value *RandomKernelGenerator::reshapeRoundTrip(Value *v) {
  int64_t total = 1;
  for (int64_t s : shape_)
    total *= s;
  std::vector<int64_t> other =
      shape_.size() == 2 || total < 2 ? std::vector<int64_t>{total} : std::vector<int64_t>{total / 2, 2};
  Value *r = b_.reshape(v, other);
  Value *c = b_.binary(v->type().element().isFloat() ? OpCode::MulF : OpCode::MulI, r, r);
  Value *back = b_.reshape(c, shape_);
  if (shape_.size() == 1 && total >= 2) { // and a join/split round trip
    auto [lo, hi] = b_.split(b_.join(back, v));
    return b_.binary(v->type().element().isFloat() ? OpCode::SubF : OpCode::SubI, lo,
                     hi); // asymmetric: halves must not swap
  }
  return back;
}

Value *RandomKernelGenerator::loop(Value *v) {
  bool isFloat = v->type().element().isFloat();
  Value *inits[] = {v};
  Op *f =
      b_.forOp(b_.constInt(0, Type::i32()), b_.constInt(3, Type::i32()), b_.constInt(1, Type::i32()), inits);
  Op *after = f;
  b_.setInsertionPointToEnd(f->region());
  Value *acc = f->region()->argument(1);
  Value *next = isFloat ? b_.fma(acc, constant(Type::f32(), 0.5), v) : b_.binary(OpCode::AddI, acc, v);
  Value *yielded[] = {next};
  b_.yield(yielded);
  b_.setInsertionPointAfter(after);
  return f->result(0);
}

Value *RandomKernelGenerator::branch(Value *a, Value *c) {
  Value *cond = b_.cmpi("sgt", n_, b_.constInt(pick(64), Type::i32()));
  Type types[] = {a->type()};
  Op *i = b_.ifOp(cond, types);
  Op *after = i;
  b_.setInsertionPointToEnd(i->region(0));
  Value *t[] = {a->type().element().isFloat() ? elementwiseF32(a, c) : elementwiseI32(a, c)};
  b_.yield(t);
  b_.setInsertionPointToEnd(i->region(1));
  Value *e[] = {c};
  b_.yield(e);
  b_.setInsertionPointAfter(after);
  return i->result(0);
}

RandomKernel RandomKernelGenerator::generate() {
  RandomKernel k;
  if (pick(2)) {
    shape_ = {pow2(10)};
  } else {
    int64_t m = pow2(6), n = pow2(6);
    while (m * n > 2048)
      n /= 2;
    shape_ = {m, n};
  }
  k.shape = shape_;
  k.numWarps = static_cast<unsigned>(pow2(3));
  b_ = Builder(k.module);
  Type f32p = Type::ptr(Type::f32()), i32p = Type::ptr(Type::i32());
  Type params[] = {f32p, i32p, f32p, i32p, i32p, Type::i32()};
  Op *func = b_.func("random_kernel", params, {});
  func->setAttr("arg_divisibility", Attribute::ints({16, 16, 16, 16, 16, 1}));
  Block *body = func->region();
  b_.setInsertionPointToEnd(body);
  n_ = body->argument(5);

  Value *offs;
  if (shape_.size() == 1) {
    offs = b_.makeRange(0, shape_[0]);
  } else {
    Value *rows = b_.expandDims(b_.makeRange(0, shape_[0]), 1);
    Value *cols = b_.expandDims(b_.makeRange(0, shape_[1]), 0);
    int64_t rowShape[] = {shape_[0], 1};
    Value *rowStarts =
        b_.binary(OpCode::MulI, rows, b_.constInt(shape_[1], Type::block(rowShape, Type::i32())));
    offs = b_.binary(OpCode::AddI, b_.broadcast(rowStarts, shape_), b_.broadcast(cols, shape_));
  }
  Value *mask = b_.cmpi("slt", offs, b_.splat(n_, shape_));
  auto pointers = [&](unsigned arg, Value *offsets) {
    return b_.addPtr(b_.splat(body->argument(arg), shape_), offsets);
  };
  f32_ = {b_.load(pointers(0, offs), mask, constant(Type::f32(), 0.0))};
  i32_ = {b_.load(pointers(1, offs), mask, constant(Type::i32(), 0.0))};

  int steps = 4 + pick(7);
  for (int s = 0; s < steps; ++s) {
    bool useFloat = pick(2);
    Type t = useFloat ? Type::f32() : Type::i32();
    Value *a = pickOf(t), *c = pickOf(t), *r;
    switch (pick(12)) {
    case 0: r = reduceBack(a); break;
    case 1: r = scanAlong(a); break;
    case 2: r = shape_.size() == 2 ? transposeTwice(a) : reshapeRoundTrip(a); break;
    case 3: r = reshapeRoundTrip(a); break;
    case 4: r = loop(a); break;
    case 5: r = branch(a, c); break;
    case 6: // casts between the pools
      if (useFloat) {
        Value *scaled = b_.binary(OpCode::MulF, a, constant(Type::f32(), 8.0));
        i32_.push_back(b_.cast(OpCode::FPToSI, scaled, Type::block(shape_, Type::i32())));
      } else {
        f32_.push_back(b_.cast(OpCode::SIToFP, b_.binary(OpCode::ShRSI, a, constant(Type::i32(), 20)),
                               Type::block(shape_, Type::f32())));
      }
      continue;
    default: r = useFloat ? elementwiseF32(a, c) : elementwiseI32(a, c); break;
    }
    (useFloat ? f32_ : i32_).push_back(r);
  }

  b_.store(pointers(2, offs), f32_.back(), mask);
  b_.store(pointers(3, offs), i32_.back(), mask);
  Value *slot = b_.binary(OpCode::AndI, offs, constant(Type::i32(), 15));
  b_.atomicRMW("add", pointers(4, slot), i32_.back(), mask);
  b_.ret();
  return k;
}

} // namespace trident::test
