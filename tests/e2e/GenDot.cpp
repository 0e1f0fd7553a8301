// Dots: tt.dot of [B x] MxK and KxN blocks into an MxN accumulator. Most are shaped for
// the matrix units (M, N multiples of 16 and 8, K of 16, or of 8 for tf32: mma.sync on
// sm_90); some are not (M, N or K below that, batched rank-3 dots, the shapes of pool
// values) and keep the FMA lowering. Inputs are f16 or bf16 into f32, f32 with "ieee",
// "tf32" or "tf32x3" products, and now and then f16 into f16, f64, and i8 into i32.
//
// Operands are loads (row- or column-major tiles, masked with `other` = 0 or another
// constant, or a load without `other` and a select), pool values of the right shape
// (cast when needed), elementwise ops on a load, and transposes of KxM blocks. A K loop
// loads a tile of A and of B per iteration through pointers that advance (or offsets
// indexed by the induction variable), masked along K, M or N sometimes, straight into a
// dot on a loop-carried accumulator: the loads the SIMT lowering pipelines with
// cp.async. The result gets an epilogue (elementwise ops, a bias, a cast, a reduction)
// and is stored.
//
// Exactness: the data are small dyadic numbers k * 2^-frac, with |k| and the number of
// products bounded so that every product and partial sum is exact in the accumulator
// and every f32 input holds in tf32 (except for "ieee" f32 dots, whose inputs may have
// more bits: a lowering that rounds them to tf32 is caught). Then every summation
// order, matrix units included, gives the reference's bits; dotFacts decides, and
// approximate inputs get a tolerance instead.
//
// K loops, and the tensor descriptors and block pointers their tiles may come through,
// are in GenDotLoop.cpp.

#include "GenDot.h"

#include "trident/support/FloatFormats.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace trident::e2e {

Facts factsOf(Type e, const DotRange &r) {
  if (e.isInteger())
    return intFacts(r.nonNegative ? 0 : -r.kmax, r.kmax);
  if (r.approx)
    return approxFloat(r.lo, r.hi, 0);
  double m = std::ldexp(double(r.kmax), -r.frac);
  return exactFloat(r.nonNegative ? 0 : -m, m, r.frac);
}

namespace {

FloatFormat narrowFormat(Type e) { return e == Type::bf16() ? FloatFormat::BF16 : FloatFormat::F16; }

double roundToElement(double v, Type e) {
  if (e == Type::f32())
    return double(float(v));
  if (e == Type::f64())
    return v;
  return roundToFormat(v, narrowFormat(e));
}

void putValue(std::vector<uint8_t> &out, Type e, double v) {
  uint64_t bits = 0;
  switch (e.kind()) {
  case TypeKind::F16:
  case TypeKind::BF16: bits = encodeFloat(v, narrowFormat(e)); break;
  case TypeKind::F32: bits = std::bit_cast<uint32_t>(float(v)); break;
  case TypeKind::F64: bits = std::bit_cast<uint64_t>(v); break;
  default: bits = uint64_t(int64_t(v)); break;
  }
  for (size_t i = 0; i < e.bitWidth() / 8; ++i)
    out.push_back(uint8_t(bits >> (8 * i)));
}

int log2Ceil(int64_t n) {
  int l = 0;
  while ((int64_t(1) << l) < n)
    ++l;
  return l;
}

} // namespace

std::optional<DotKind> DotGen::pickKind() {
  struct Option {
    Type in, acc;
    const char *precision;
    double weight;
  };
  std::vector<Option> options = {
      {Type::f16(), Type::f32(), "ieee", 3},   {Type::bf16(), Type::f32(), "ieee", 2},
      {Type::f32(), Type::f32(), "tf32", 2},   {Type::f32(), Type::f32(), "ieee", 1.5},
      {Type::f32(), Type::f32(), "tf32x3", 0.3}, {Type::f16(), Type::f16(), "ieee", 0.3},
      {Type::f64(), Type::f64(), "ieee", 0.3}, {Type::i8(), Type::i32(), "ieee", 0.4},
  };
  std::vector<double> weights;
  for (const Option &o : options)
    weights.push_back(g.typeEnabled(o.in) && g.typeEnabled(o.acc) ? o.weight : 0);
  if (std::all_of(weights.begin(), weights.end(), [](double w) { return w == 0; }))
    return std::nullopt;
  const Option &o = options[rng.weighted(weights)];
  DotKind kind{o.in, o.acc, o.precision};
  // Inputs other than f32 ignore input_precision: any value must do.
  if (o.in != Type::f32() && rng.chance(0.15))
    kind.precision = rng.chance(0.5) ? "tf32" : "tf32x3";
  g.use(scalarKindName(o.in.kind()));
  g.use(scalarKindName(o.acc.kind()));
  return kind;
}

// Shapes [B x] MxK and KxN of a dot run `repeats` times (programs, loop slots, K tiles).
void DotGen::pickShape(const DotKind &kind, bool forLoop, int64_t repeats, std::vector<int64_t> &a,
                       std::vector<int64_t> &bShape) {
  auto from = [&](std::vector<int64_t> values, std::vector<double> weights) {
    return values[rng.weighted(weights)];
  };
  bool tf32 = kind.in == Type::f32() && kind.precision == "tf32";
  int64_t m, n, k, batch = 0;
  double r = rng.unit();
  if (r < 0.75) { // matrix-unit shapes
    m = from({16, 32, 64}, {3, 2, 1});
    n = from({8, 16, 32, 64}, {1, 3, 2, 0.6});
    k = tf32 ? from({8, 16, 32}, {1, 3, 1}) : from({16, 32}, {3, 1});
  } else if (r < 0.93 || forLoop) { // shapes the matrix units do not take (some do, by chance)
    m = from({1, 2, 4, 8, 16, 32}, {0.3, 0.5, 1, 3, 1, 0.5});
    n = from({1, 2, 4, 8, 16, 32}, {0.3, 0.5, 1, 2, 2, 0.5});
    k = from({1, 2, 4, 8, 16, 32}, {0.3, 0.5, 1, 3, 1, 0.5});
  } else { // batched
    batch = from({1, 2, 4}, {0.3, 1, 0.3});
    m = from({2, 4, 8, 16}, {0.5, 1, 2, 1});
    n = from({2, 4, 8, 16}, {0.5, 1, 2, 1});
    k = from({2, 4, 8, 16}, {0.5, 1, 2, 1});
  }
  // K loops mostly get tiles of A and B of 2 KiB or more: what four warps copy
  // asynchronously in 16-byte pieces without replicas, so that the loads pipeline.
  if (forLoop && r < 0.75 && rng.chance(0.7)) {
    int64_t bytes = kind.in.bitWidth() / 8;
    while (m * k * bytes < 2048 && (m < 64 || k < 32))
      (m < 64 && (k >= 32 || rng.chance(0.5)) ? m : k) *= 2;
    while (k * n * bytes < 2048 && n < 64)
      n *= 2;
  }
  // No block larger than 16 times the kernel's limit (4096 elements by default).
  int64_t cap = std::max<int64_t>(16 * g.options_.maxElements, 16);
  int64_t b = std::max<int64_t>(batch, 1);
  // And no more multiply-adds in all than 512 times that (131072 by default): the
  // thread-IR simulator runs each one, and the fixed seeds must stay fast.
  int64_t work = std::max<int64_t>(512 * g.options_.maxElements, 64);
  while (b * m * n > cap || b * m * k > cap || b * k * n > cap || b * m * n * k * repeats > work) {
    if (m == 1 && n == 1 && k == 1)
      break;
    if (k > 16 || (k >= m && k >= n))
      k /= 2;
    else if (m >= n)
      m /= 2;
    else
      n /= 2;
  }
  a = {m, k};
  bShape = {k, n};
  if (batch) {
    a.insert(a.begin(), batch);
    bShape.insert(bShape.begin(), batch);
  }
}

bool DotGen::allowApprox(const DotKind &kind) const {
  return kind.in.isFloat() && kind.acc != Type::f16() && !(kind.in == Type::f32() && kind.precision != "ieee");
}

// One operand's range, |k| < 2^bits.
DotRange DotGen::pickRange(const DotKind &kind, int bits) {
  DotRange r;
  Type e = kind.in;
  r.nonNegative = rng.chance(0.15);
  if (e.isInteger()) {
    r.kmax = rng.pick(std::vector<int64_t>{1, 3, 15, 127});
    return r;
  }
  if (allowApprox(kind) && rng.chance(0.12)) {
    static const double ranges[][2] = {{-1, 1}, {-2, 2}, {0, 1}, {-0.5, 0.5}};
    const double *p = ranges[rng.range(0, 3)];
    r.approx = true, r.lo = p[0], r.hi = p[1];
    return r;
  }
  int l = int(rng.range(0, std::max(0, bits)));
  r.kmax = int64_t(1) << l;
  if (rng.chance(0.3))
    r.kmax = std::max<int64_t>(1, r.kmax - rng.range(0, r.kmax / 2));
  // Magnitudes from 2^-3 to 16.
  r.frac = int(rng.range(std::max(0, l - 4), std::min(l + 3, 9)));
  return r;
}

// Ranges of A and B whose `products` products and their sums stay exact.
void DotGen::pickRanges(const DotKind &kind, int64_t products, DotRange &ra, DotRange &rb) {
  Type e = kind.in;
  int inputBits = e.isInteger() ? 7 : int(precisionBits(e)) - 1;
  if (e == Type::f32())
    inputBits = kind.precision == "ieee" ? 13 : 10; // ieee: more bits than tf32 keeps, sometimes
  int cap = std::min(inputBits, 7);
  if (kind.precision == "ieee" && e == Type::f32() && rng.chance(0.3))
    cap = inputBits;
  // Two bits for the accumulator's own contents and the sign.
  int budget = e.isInteger() ? 14 : int(precisionBits(kind.acc)) - 3 - log2Ceil(products + 1);
  budget = std::max(budget, 0);
  ra = pickRange(kind, std::min(cap, budget));
  int used = ra.approx ? 0 : log2Ceil(ra.kmax + 1) - 1;
  rb = pickRange(kind, std::min(cap, std::max(0, budget - used)));
}

// A pool value of type `t` that may stand for an operand of range `r` (or close to it).
bool DotGen::suitable(const Facts &f, Type t, const DotRange &r) const {
  if (t.element().isInteger())
    return f.isInt() && f.imag() <= 127;
  if (!f.isFloat())
    return false;
  if (f.exact)
    return std::ldexp(f.mag(), f.frac) <= double(std::max<int64_t>(r.kmax, 1)) * 2 && f.frac <= 12;
  return r.approx && f.mag() <= 8 && f.err <= 1e-3;
}

Value *DotGen::tileBase(int64_t per) {
  const Generator::Scope &s = g.scopes_.back();
  Value *base = note(g.b_.binary(OpCode::MulI, g.program_, i32(per * s.slotCount)));
  if (s.slot)
    base = note(g.b_.binary(OpCode::AddI, base, note(g.b_.binary(OpCode::MulI, s.slot, i32(per)))));
  return base;
}

// row * rowStride + col * colStride over the last two axes of `shape` (and the batch
// axis, rows * cols apart), i32.
Value *DotGen::strided(const std::vector<int64_t> &shape, int64_t rowStride, int64_t colStride) {
  size_t rank = shape.size();
  Type t = Type::block(shape, Type::i32());
  auto scaled = [&](int axis, int64_t stride) {
    Value *idx = g.axisIndex(shape, axis);
    if (stride == 1)
      return idx;
    return note(g.b_.binary(OpCode::MulI, idx, g.constInt(stride, t)));
  };
  Value *sum = note(g.b_.binary(OpCode::AddI, scaled(int(rank) - 2, rowStride), scaled(int(rank) - 1, colStride)));
  if (rank == 3)
    sum = note(g.b_.binary(OpCode::AddI, sum, scaled(0, shape[1] * shape[2])));
  return sum;
}

Value *DotGen::newInput(Type e, size_t count, const DotRange &r, std::string prefix) {
  ArgSpec spec;
  spec.name = prefix + std::to_string(g.kernel_.args.size());
  spec.element = e;
  spec.count = count;
  for (size_t i = 0; i < count; ++i) {
    double v;
    if (e.isInteger())
      v = double(rng.range(r.nonNegative ? 0 : -r.kmax, r.kmax));
    else if (r.approx)
      v = roundToElement(r.lo + (r.hi - r.lo) * rng.unit(), e);
    else
      v = std::ldexp(double(rng.range(r.nonNegative ? 0 : -r.kmax, r.kmax)), -r.frac);
    putValue(spec.init, e, v);
  }
  return g.addBufferParam(std::move(spec));
}

// A load of `ptrs` under `mask` (or none): masked-off elements read 0 (mostly) or
// another value of the range, through `other` or a select after a load without it.
Value *DotGen::maskedLoad(Value *ptrs, Value *mask, Type t, const Facts &f, const DotRange &r) {
  if (!mask)
    return g.recordWith(g.b_.load(ptrs), f, false);
  Value *other;
  if (rng.chance(0.8)) {
    other = t.element().isInteger() ? g.constInt(0, t) : g.constFloat(0, t);
  } else if (t.element().isInteger()) {
    other = g.constInt(rng.range(-r.kmax, r.kmax), t);
  } else {
    double v = r.approx ? 0.5 : std::ldexp(double(rng.range(r.nonNegative ? 0 : -r.kmax, r.kmax)), -r.frac);
    other = g.constFloat(v, t);
  }
  Facts joined = join(f, g.facts(other));
  if (rng.chance(0.85))
    return g.recordWith(g.b_.load(ptrs, mask, other), joined, false);
  Value *raw = g.recordWith(g.b_.load(ptrs, mask, nullptr), f, false);
  return g.recordWith(g.b_.select(mask, raw, other), joined, false);
}

// A new input of one tile of `t` per program and loop slot, row- or column-major.
Value *DotGen::loadTile(Type t, const DotRange &r) {
  std::vector<int64_t> shape = shapeOf(t);
  Type e = t.element();
  int64_t per = t.numElements();
  size_t count = size_t(g.numPrograms_ * g.scopes_.back().slotCount * per);
  bool tail = g.enabled("mask") && per > 1 && rng.chance(0.12);
  size_t kept = tail ? count - size_t(rng.range(1, per - 1)) : count;
  Value *param = newInput(e, kept, r);
  size_t rank = shape.size();
  int64_t rows = shape[rank - 2], cols = shape[rank - 1];
  Value *index = rank == 2 && rng.chance(0.3) ? strided(shape, 1, rows) : strided(shape, cols, 1);
  Value *offsets = note(g.b_.binary(OpCode::AddI, note(g.b_.splat(tileBase(per), shape)), index));
  if (g.typeEnabled(Type::i64()) && rng.chance(0.15))
    offsets = note(g.b_.cast(OpCode::ExtSI, offsets, offsets->type().withElement(Type::i64())));
  Value *ptrs = note(g.b_.addPtr(note(g.b_.splat(param, shape)), offsets));
  Value *mask = nullptr;
  if (tail) {
    Type ot = offsets->type().element();
    Value *n = g.addScalarParam(ot, uint64_t(kept), intFacts(int64_t(kept), int64_t(kept)), "n");
    mask = note(g.b_.cmpi("slt", offsets, note(g.b_.splat(n, shape))));
  } else if (g.enabled("mask") && rng.chance(0.15)) {
    if (rng.chance(0.4)) {
      mask = g.dataMask(shape);
    } else { // a bound on rows or columns, as for the edges of a matrix
      int axis = int(rank) - 1 - int(rng.range(0, 1));
      int64_t bound = rng.range(0, shape[size_t(axis)]);
      Value *p = g.addScalarParam(Type::i32(), uint64_t(bound), intFacts(bound, bound), "bound");
      mask = note(g.b_.cmpi("slt", g.axisIndex(shape, axis), note(g.b_.splat(p, shape))));
    }
  }
  if (mask)
    g.use("mask");
  return maskedLoad(ptrs, mask, t, factsOf(e, r), r);
}

// An elementwise op on an operand that keeps it exact (mostly): negation, scaling by a
// power of two, relu, abs, doubling.
Value *DotGen::tweak(Value *x, const DotRange &r) {
  Type t = x->type();
  Builder &b = g.b_;
  if (t.element().isInteger()) {
    switch (rng.range(0, 2)) {
    case 0: return g.record(b.binary(OpCode::MaxSI, x, g.constInt(0, t)));
    case 1: return g.record(b.binary(OpCode::MinSI, x, g.constInt(rng.range(0, 5), t)));
    default: return g.record(b.binary(OpCode::SubI, g.constInt(0, t), x));
    }
  }
  switch (rng.range(0, 4)) {
  case 0: return g.record(b.unary(OpCode::NegF, x));
  case 1: {
    // Halving adds a fraction bit; doubling needs room above.
    bool half = r.frac < 9 || rng.chance(0.2);
    return g.record(b.binary(OpCode::MulF, x, g.constFloat(half ? 0.5 : 2.0, t)));
  }
  case 2: return g.record(b.binary(OpCode::MaxNumF, x, g.constFloat(0, t)));
  case 3: return g.record(b.unary(OpCode::AbsF, x));
  default: return g.record(b.binary(OpCode::AddF, x, x));
  }
}

// An operand of type `t` ([B x] R x C) with values of range `r` (or close).
Value *DotGen::operand(Type t, const DotRange &r, bool allowTrans) {
  std::vector<int64_t> shape = shapeOf(t);
  Type e = t.element();
  switch (rng.weighted({5.5, allowTrans ? 1.2 : 0, 1.5, 1.0, 1.0})) {
  case 1: { // the transpose of a CxR block
    std::vector<int64_t> flipped = shape, order(shape.size());
    std::swap(flipped[shape.size() - 1], flipped[shape.size() - 2]);
    for (size_t i = 0; i < order.size(); ++i)
      order[i] = int64_t(i);
    std::swap(order[shape.size() - 1], order[shape.size() - 2]);
    Value *x = operand(Type::block(flipped, e), r, false);
    g.use("shape");
    return g.record(g.b_.trans(x, order));
  }
  case 2: { // a pool value, cast if need be
    if (Value *v = g.pickValue([&](Value *x) { return x->type() == t && suitable(g.facts(x), t, r); }))
      return v;
    if (Value *v = g.pickValue([&](Value *x) {
          const Facts &f = g.facts(x);
          return shapeOf(x->type()) == shape && x->type() != t && (f.isInt() || f.isFloat()) &&
                 x->type().element().isFloat() == e.isFloat() && x->type().element() != Type::i1() &&
                 x->type().element().bitWidth() >= (e.isInteger() ? 8u : 16u);
        }))
      if (Value *c = g.castTo(v, e); c && suitable(g.facts(c), t, r))
        return c;
    break;
  }
  case 3: { // a load of another type, cast
    if (e.isInteger()) {
      if (!g.typeEnabled(Type::i32()))
        break;
      Value *wide = loadTile(t.withElement(Type::i32()), r);
      return g.record(g.b_.cast(OpCode::TruncI, wide, t));
    }
    std::vector<Type> others;
    for (Type o : {Type::f16(), Type::bf16(), Type::f32(), Type::f64()})
      if (o != e && g.typeEnabled(o) && (r.approx || fitsExact(o, factsOf(o, r))))
        others.push_back(o);
    if (others.empty())
      break;
    Type o = rng.pick(others);
    Value *x = loadTile(t.withElement(o), r);
    if (Value *c = g.castTo(x, e))
      return c;
    break;
  }
  case 4: return tweak(loadTile(t, r), r);
  default: break;
  }
  return loadTile(t, r);
}

// An accumulator of `t` for A and B of ranges `ra` and `rb`: zeros, a load, a pool value
// or a constant, small enough to leave the sum of `products` products exact.
Value *DotGen::accumulator(Type t, const DotRange &ra, const DotRange &rb, int64_t products) {
  Type e = t.element();
  DotRange rc;
  rc.approx = ra.approx || rb.approx;
  if (e.isFloat() && !rc.approx) {
    // What the products leave of the accumulator's significand, in units of the
    // products' grid 2^-(fa + fb); the accumulator's grid is coarser.
    int grid = ra.frac + rb.frac;
    double room = std::ldexp(1.0, int(precisionBits(e)) - 1) - double(products) * double(ra.kmax * rb.kmax);
    rc.frac = int(rng.range(0, std::min(grid, 6)));
    double kmax = std::min(64.0, std::floor(std::ldexp(room / 2, rc.frac - grid)));
    if (kmax < 1)
      return g.constFloat(0, t);
    rc.kmax = int64_t(kmax);
  } else {
    rc.kmax = int64_t(1) << rng.range(0, 6);
  }
  switch (rng.weighted({4.5, 2, 1.5, 1})) {
  case 1: return loadTile(t, rc);
  case 2:
    if (Value *v = g.pickValue([&](Value *x) { return x->type() == t && suitable(g.facts(x), t, rc); }))
      return v;
    break;
  case 3:
    if (e.isInteger())
      return g.constInt(rng.range(-100, 100), t);
    return g.constFloat(std::ldexp(double(rng.range(-rc.kmax, rc.kmax)), -rc.frac), t);
  default: break;
  }
  return e.isInteger() ? g.constInt(0, t) : g.constFloat(0, t);
}

// Checks what the dot of `products` products per element gives (falling back from tf32
// to ieee for inputs tf32 does not hold), or says no.
bool DotGen::finishDot(DotKind &kind, Value *a, Value *b, Value *acc, int64_t products) {
  Type t = acc->type();
  const Facts &fa = g.facts(a), &fb = g.facts(b), &fc = g.facts(acc);
  bool tf32 = kind.in == Type::f32() && kind.precision != "ieee";
  if (tf32 && !(fitsTf32(fa) && fitsTf32(fb)))
    kind.precision = "ieee", tf32 = false;
  Facts f = dotFacts(kind.acc, fa, fb, fc, products, tf32);
  return g.acceptable(t, f);
}

void DotGen::epilogue(Value *d) {
  Value *v = d;
  Type t = d->type();
  std::vector<int64_t> shape = shapeOf(t);
  int steps = int(rng.weighted({0.35, 0.4, 0.25}));
  for (int i = 0; i < steps; ++i) {
    const Facts &f = g.facts(v);
    if (!f.isFloat() && !f.isInt())
      break;
    bool isFloat = v->type().element().isFloat();
    switch (rng.weighted({3, isFloat ? 1.5 : 0, isFloat ? 1.0 : 0, v->type().rank() >= 1 && g.enabled("reduce") ? 1.0 : 0,
                          isFloat ? 0.7 : 0})) {
    case 0: { // any elementwise op
      size_t before = g.pool_.size();
      if (isFloat ? g.genFloatOp(v) : g.genIntOp(v))
        if (g.pool_.size() > before)
          v = g.pool_.back();
      break;
    }
    case 1: { // a bias along rows or columns
      std::vector<int64_t> s = shapeOf(v->type());
      if (s.size() < 2)
        break;
      int axis = int(rng.range(0, int64_t(s.size()) - 1));
      std::vector<int64_t> bs = s;
      bs[size_t(axis)] = 1;
      DotRange r;
      r.kmax = 8, r.frac = int(rng.range(0, 3));
      Type bt = Type::block(bs, v->type().element());
      Value *bias = g.broadcastTo(loadTile(bt, r), s);
      Facts in[] = {f, g.facts(bias)};
      if (!bias || !g.acceptable(v->type(), transfer(OpCode::AddF, v->type(), in, v->type())))
        break;
      v = g.record(g.b_.binary(OpCode::AddF, v, bias));
      break;
    }
    case 2: { // a narrower float
      Type to = rng.chance(0.5) ? Type::f16() : Type::bf16();
      if (v->type().element() != to && g.typeEnabled(to))
        if (Value *c = g.castTo(v, to))
          v = c;
      break;
    }
    case 3: { // a reduction along one axis
      if (!(f.isInt() || f.isFloat()) || v->type().element() == Type::i1())
        break;
      int axis = int(rng.range(0, int64_t(v->type().rank()) - 1));
      std::vector<Value *> inputs = {v};
      std::vector<Combine> kinds = g.pickCombiners(inputs, axis);
      g.use("reduce");
      Op *op = g.b_.reduce(inputs, axis, [&](Builder &b, std::span<Value *const> l, std::span<Value *const> r) {
        return g.emitCombiner(b, kinds, l, r);
      });
      g.combiners_[op] = kinds;
      v = g.record(op->result(0));
      for (unsigned k = 1; k < op->numResults(); ++k)
        g.pool_.push_back(op->result(k));
      break;
    }
    default: { // leaky relu: x >= 0 ? x : x / 8
      Value *zero = g.constFloat(0, v->type());
      Value *neg = g.record(g.b_.binary(OpCode::MulF, v, g.constFloat(0.125, v->type())));
      Value *pos = g.record(g.b_.cmpf("oge", v, zero));
      v = g.record(g.b_.select(pos, v, neg));
      break;
    }
    }
  }
  g.storeOutput(v, true);
  if (v != d && rng.chance(0.3))
    g.storeOutput(d, true);
}

bool DotGen::run() {
  // A dot and its loop may add a dozen parameters; kernels have at most 64.
  if (g.kernel_.args.size() > 36)
    return false;
  std::optional<DotKind> kind = pickKind();
  if (!kind)
    return false;
  g.use("dot");
  size_t mark = g.pool_.size();
  bool ok = g.enabled("loop") && g.depth() < 3 && rng.chance(0.45) ? loop(*kind) : false;
  if (!ok) {
    std::vector<int64_t> as, bs;
    pickShape(*kind, false, g.numPrograms_ * g.scopes_.back().slotCount, as, bs);
    std::vector<int64_t> cs = as;
    cs.back() = bs.back();
    int64_t k = as.back();
    DotRange ra, rb;
    pickRanges(*kind, k, ra, rb);
    Value *a = operand(Type::block(as, kind->in), ra);
    Value *b = operand(Type::block(bs, kind->in), rb);
    Value *acc = accumulator(Type::block(cs, kind->acc), ra, rb, k);
    if (finishDot(*kind, a, b, acc, k)) {
      Value *d = g.record(g.b_.dot(a, b, acc, kind->precision));
      epilogue(d);
      ok = true;
    }
  }
  // Blocks beyond the kernel's limit stay out of the pool.
  auto big = [&](Value *v) { return v->type().numElements() > g.options_.maxElements; };
  g.pool_.erase(std::remove_if(g.pool_.begin() + long(mark), g.pool_.end(), big), g.pool_.end());
  return ok;
}

bool Generator::genDot() { return DotGen(*this).run(); }

} // namespace trident::e2e
