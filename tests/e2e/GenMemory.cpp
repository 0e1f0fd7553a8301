// Memory: inputs and their data, tile pointers (one slot per program and loop
// iteration), masked loads and stores (a tail bound, or a comparison with a scalar
// argument), gathers with computed indices, and atomics whose outcome is the same in
// any order: accumulations that commute, and per-element slots touched once.

#include "Generator.h"

#include "trident/support/FloatFormats.h"

#include <bit>
#include <cmath>
#include <cstring>

namespace trident::e2e {

namespace {

bool isF8(Type t) { return t.element() == Type::f8e4m3() || t.element() == Type::f8e5m2(); }

FloatFormat formatOf(Type e) {
  switch (e.kind()) {
  case TypeKind::F16: return FloatFormat::F16;
  case TypeKind::BF16: return FloatFormat::BF16;
  case TypeKind::F8E4M3: return FloatFormat::F8E4M3;
  default: return FloatFormat::F8E5M2;
  }
}

void putElement(std::vector<uint8_t> &out, Type e, double v, int64_t iv) {
  uint64_t bits = 0;
  size_t bytes = e == Type::i1() ? 1 : e.bitWidth() / 8;
  if (e.isInteger())
    bits = e == Type::i1() ? uint64_t(iv != 0) : uint64_t(iv);
  else if (e == Type::f32())
    bits = std::bit_cast<uint32_t>(float(v));
  else if (e == Type::f64())
    bits = std::bit_cast<uint64_t>(v);
  else
    bits = encodeFloat(v, formatOf(e));
  for (size_t i = 0; i < bytes; ++i)
    out.push_back(uint8_t(bits >> (8 * i)));
}

double roundToElement(double v, Type e) {
  if (e == Type::f32())
    return double(float(v));
  if (e == Type::f64())
    return v;
  return roundToFormat(v, formatOf(e));
}

const char *const kSems[] = {"relaxed", "acquire", "release", "acq_rel"};

} // namespace

std::vector<uint8_t> Generator::inputData(Type e, size_t count, Facts &f, bool forceExact) {
  std::vector<uint8_t> out;
  if (e.isInteger()) {
    int64_t lo = intMin(e), hi = intMax(e);
    if (e != Type::i1()) {
      switch (rng_.range(0, 2)) {
      case 0: break;
      case 1: {
        int64_t r = std::min<int64_t>(intMax(e), rng_.pick(std::vector<int64_t>{3, 100, 1000, 100000}));
        lo = -r, hi = r;
        break;
      }
      default:
        lo = 0;
        hi = std::min<int64_t>(intMax(e), rng_.pick(std::vector<int64_t>{1, 15, 255, 65535}));
        break;
      }
    }
    f = intFacts(lo, hi);
    for (size_t i = 0; i < count; ++i)
      putElement(out, e, 0, e == Type::i1() ? rng_.range(0, 1) : rng_.range(lo, hi));
    return out;
  }
  bool exact = forceExact || isF8(e) || rng_.chance(0.5);
  if (exact) {
    // k * 2^-frac, every k of the range representable.
    int frac = int(rng_.range(0, isF8(e) ? 2 : 3));
    int64_t k = rng_.pick(std::vector<int64_t>{4, 16, 100, 1000});
    k = std::min<int64_t>(k, (int64_t(1) << precisionBits(e)) - 1);
    bool nonNegative = rng_.chance(0.2);
    f = exactFloat(nonNegative ? 0 : -std::ldexp(double(k), -frac), std::ldexp(double(k), -frac), frac);
    if (!fitsExact(e, f))
      f = exactFloat(f.lo, f.hi, 0), frac = 0;
    for (size_t i = 0; i < count; ++i)
      putElement(out, e, std::ldexp(double(rng_.range(nonNegative ? 0 : -k, k)), -frac), 0);
    return out;
  }
  static const double ranges[][2] = {{-1, 1}, {-4, 4}, {0.5, 2}, {-100, 100}};
  const double *r = ranges[rng_.range(0, 3)];
  f = approxFloat(r[0], r[1], 0);
  for (size_t i = 0; i < count; ++i)
    putElement(out, e, roundToElement(r[0] + (r[1] - r[0]) * rng_.unit(), e), 0);
  return out;
}

std::vector<uint8_t> Generator::poison(Type e, size_t count) const {
  // 0x7f bytes: huge floats or NaN, never a bool, an unlikely integer.
  size_t bytes = e == Type::i1() ? 1 : e.bitWidth() / 8;
  return std::vector<uint8_t>(count * bytes, 0x7f);
}

Value *Generator::tileOffsets(const std::vector<int64_t> &shape) {
  const Scope &scope = scopes_.back();
  int64_t per = numElements(shape);
  auto note = [&](Value *v) { return recordWith(v, infer(v->definingOp(), 0), false); };
  Value *base = note(b_.binary(OpCode::MulI, program_, constInt(per * scope.slotCount, Type::i32())));
  if (scope.slot)
    base = note(b_.binary(OpCode::AddI, base, note(b_.binary(OpCode::MulI, scope.slot, constInt(per, Type::i32())))));
  if (shape.empty())
    return base;
  Value *offsets = note(b_.binary(OpCode::AddI, note(b_.splat(base, shape)), linearIndex(shape)));
  if (typeEnabled(Type::i64()) && rng_.chance(0.2))
    offsets = note(b_.cast(OpCode::ExtSI, offsets, offsets->type().withElement(Type::i64())));
  return offsets;
}

Value *Generator::dataMask(const std::vector<int64_t> &shape) {
  Value *x = pickValue([&](Value *v) {
    return shapeOf(v->type()) == shape && facts(v).isInt() && v->type().element() != Type::i1();
  });
  if (!x)
    x = shape.empty() ? program_ : linearIndex(shape);
  Type e = x->type().element();
  const Facts &f = facts(x);
  int64_t lo = std::max(f.ilo, intMin(e) / 2), hi = std::min(f.ihi, intMax(e) / 2);
  if (lo > hi) // the value lies wholly outside the middle half of its type: bound it by its own range
    lo = f.ilo, hi = f.ihi;
  int64_t bound = rng_.range(lo, hi);
  static const char *const preds[] = {"slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge", "ne", "eq"};
  Value *n = addScalarParam(e, uint64_t(bound), intFacts(bound, bound), "bound");
  Value *splat = shape.empty() ? n : recordWith(b_.splat(n, shape), intFacts(bound, bound), false);
  use("mask");
  return recordWith(b_.cmpi(preds[rng_.range(0, 9)], x, splat), intFacts(-1, 0), false);
}

Value *Generator::genLoad(Type t, bool allowMask, bool exactData) {
  std::vector<int64_t> shape = shapeOf(t);
  Type e = t.element();
  int64_t per = t.numElements();
  size_t count = size_t(numPrograms_ * scopes_.back().slotCount * per);
  Facts f;
  std::vector<uint8_t> data = inputData(e, count, f, exactData);
  bool tail = allowMask && enabled("mask") && per > 1 && rng_.chance(0.25);
  if (tail)
    count -= size_t(rng_.range(1, per - 1));
  ArgSpec spec;
  spec.name = "in" + std::to_string(kernel_.args.size());
  spec.element = e;
  spec.count = count;
  size_t bytes = e == Type::i1() ? 1 : e.bitWidth() / 8;
  data.resize(count * bytes);
  spec.init = std::move(data);
  Value *param = addBufferParam(std::move(spec));
  Value *offsets = tileOffsets(shape);
  Value *ptrs = shape.empty() ? b_.addPtr(param, offsets) : b_.addPtr(recordWith(b_.splat(param, shape), otherFacts(), false), offsets);
  recordWith(ptrs, otherFacts(), false);
  Value *mask = nullptr;
  if (tail && !shape.empty()) {
    Type ot = offsets->type().element();
    Value *n = addScalarParam(ot, uint64_t(count), intFacts(int64_t(count), int64_t(count)), "n");
    mask = recordWith(b_.cmpi("slt", offsets, recordWith(b_.splat(n, shape), otherFacts(), false)), intFacts(-1, 0),
                      false);
    use("mask");
  } else if (allowMask && enabled("mask") && rng_.chance(0.15)) {
    mask = dataMask(shape);
  }
  AttributeList attrs;
  if (rng_.chance(0.3)) {
    static const char *const caches[] = {"", "ca", "cg", "cv"};
    static const char *const evictions[] = {"", "evict_normal", "evict_first", "evict_last"};
    attrs.set("cache", Attribute::string(caches[rng_.range(0, 3)]));
    attrs.set("eviction", Attribute::string(evictions[rng_.range(0, 3)]));
    attrs.set("volatile", Attribute::boolean(rng_.chance(0.2)));
  }
  if (!mask)
    return recordWith(b_.load(ptrs, nullptr, nullptr, attrs), f);
  Value *other = randomConstant(t, f.isExactFloat());
  Facts joined = join(f, facts(other));
  if (rng_.chance(0.7))
    return recordWith(b_.load(ptrs, mask, other, attrs), joined);
  // Without `other`, masked-off elements are undefined: select them away at once.
  Value *raw = recordWith(b_.load(ptrs, mask, nullptr, attrs), f, false);
  return recordWith(b_.select(mask, raw, other), joined);
}

bool Generator::genLoadStep() {
  std::vector<int64_t> shape = tileShape_;
  if (rng_.chance(0.3))
    if (Value *v = pickValue([&](Value *x) { return facts(x).kind != Facts::Kind::Other; }))
      shape = shapeOf(v->type());
  double r = rng_.unit();
  if (r < 0.08 && enabled("f8")) {
    Type f8 = rng_.chance(0.5) ? Type::f8e4m3() : Type::f8e5m2();
    Value *v = genLoad(Type::block(shape, f8));
    use("f8");
    if (v && rng_.chance(0.8))
      castTo(v, randomElement(true));
    return v != nullptr;
  }
  Type e = r < 0.13 ? Type::i1() : randomElement(r < 0.6);
  return genLoad(Type::block(shape, e)) != nullptr;
}

bool Generator::genGather() {
  Value *src = pickValue([&](Value *v) {
    return facts(v).isInt() && v->type().rank() >= 1 && v->type().element() != Type::i1();
  });
  if (!src)
    src = linearIndex(tileShape_);
  std::vector<int64_t> shape = shapeOf(src->type());
  int64_t m = int64_t(1) << rng_.range(1, 6);
  Type e = randomElement(rng_.chance(0.5));
  Facts f;
  ArgSpec spec;
  spec.name = "table" + std::to_string(kernel_.args.size());
  spec.element = e;
  spec.count = size_t(numPrograms_ * m);
  spec.init = inputData(e, spec.count, f);
  Value *param = addBufferParam(std::move(spec));
  use("gather");
  Value *idx = castTo(src, Type::i32());
  if (!idx)
    return false;
  idx = record(b_.binary(OpCode::AndI, idx, constInt(m - 1, idx->type())));
  Value *base = recordWith(b_.binary(OpCode::MulI, program_, constInt(m, Type::i32())), intFacts(0, (numPrograms_ - 1) * m), false);
  Value *offsets = record(b_.binary(OpCode::AddI, idx, record(b_.splat(base, shape))));
  Value *ptrs = recordWith(b_.addPtr(recordWith(b_.splat(param, shape), otherFacts(), false), offsets), otherFacts(), false);
  if (enabled("mask") && rng_.chance(0.3)) {
    Value *mask = dataMask(shape);
    Value *other = randomConstant(Type::block(shape, e), f.isExactFloat());
    recordWith(b_.load(ptrs, mask, other), join(f, facts(other)));
    return true;
  }
  recordWith(b_.load(ptrs), f);
  return true;
}

bool Generator::genAtomic() {
  bool i64 = typeEnabled(Type::i64()) && rng_.chance(0.3);
  Type e = i64 ? Type::i64() : Type::i32();
  std::vector<int64_t> shape = tileShape_;
  if (Value *v = pickValue([&](Value *x) { return facts(x).isInt() && x->type().element() != Type::i1(); }))
    shape = shapeOf(v->type());
  Type t = Type::block(shape, e);
  int64_t per = t.numElements();
  use("atomic");
  static const char *const kinds[] = {"add", "and", "or", "xor", "max", "min", "umax", "umin"};
  switch (rng_.range(0, 2)) {
  case 0: { // accumulate into a few slots shared by every program: the order does not matter
    int64_t slots = int64_t(1) << rng_.range(0, 3);
    bool fadd = typeEnabled(Type::f32()) && rng_.chance(0.2);
    Type et = fadd ? Type::f32() : e;
    Facts f;
    ArgSpec spec;
    spec.name = "acc" + std::to_string(kernel_.args.size());
    spec.element = et;
    spec.count = size_t(slots);
    spec.written = true;
    Value *value = operandOfType(Type::block(shape, et), fadd);
    const Facts &vf = facts(value);
    if (fadd) {
      // Exact sums in any order: every partial sum fits f32's significand.
      if (!vf.isExactFloat())
        return false;
      double total = vf.mag() * double(numPrograms_ * scopes_.back().slotCount * per) + 64;
      if (!fitsExact(Type::f32(), exactFloat(-total, total, vf.frac)))
        return false;
      for (int64_t i = 0; i < slots; ++i)
        putElement(spec.init, Type::f32(), double(rng_.range(-64, 64)), 0);
      spec.check.mode = OutputCheck::Mode::Exact;
    } else {
      spec.init = inputData(et, spec.count, f);
    }
    Value *param = addBufferParam(std::move(spec));
    Value *src = pickValue([&](Value *x) { return facts(x).isInt() && shapeOf(x->type()) == shape && x->type().element() != Type::i1(); });
    Value *idx = src ? castTo(src, Type::i32()) : linearIndex(shape);
    if (shape.empty() && !src)
      idx = program_;
    idx = record(b_.binary(OpCode::AndI, idx, constInt(slots - 1, idx->type())));
    Value *ptrs = shape.empty() ? b_.addPtr(param, idx) : b_.addPtr(record(b_.splat(param, shape)), idx);
    recordWith(ptrs, otherFacts(), false);
    Value *mask = enabled("mask") && rng_.chance(0.3) ? dataMask(shape) : nullptr;
    Value *old = b_.atomicRMW(fadd ? "fadd" : kinds[rng_.range(0, 7)], ptrs, value, mask, kSems[rng_.range(0, 3)],
                              rng_.chance(0.8) ? "gpu" : "sys");
    recordWith(old, fadd ? approxFloat(0, 0, 0) : fullInt(e), false); // depends on the order: never used
    return true;
  }
  case 1: { // one slot per element, touched once: the old value is the initial one
    Facts f;
    bool xchgF32 = typeEnabled(Type::f32()) && rng_.chance(0.15);
    Type et = xchgF32 ? Type::f32() : e;
    Type vt = Type::block(shape, et);
    ArgSpec spec;
    spec.name = "slots" + std::to_string(kernel_.args.size());
    spec.element = et;
    spec.count = size_t(numPrograms_ * scopes_.back().slotCount * per);
    spec.init = inputData(et, spec.count, f, xchgF32);
    spec.written = true;
    if (xchgF32)
      spec.check.mode = OutputCheck::Mode::Exact;
    if (xchgF32 && !f.exact)
      return false;
    Value *value = operandOfType(vt, xchgF32);
    if (xchgF32 && !facts(value).isExactFloat())
      return false;
    Value *param = addBufferParam(std::move(spec));
    Value *offsets = tileOffsets(shape);
    Value *ptrs = shape.empty() ? b_.addPtr(param, offsets) : b_.addPtr(record(b_.splat(param, shape)), offsets);
    recordWith(ptrs, otherFacts(), false);
    Value *mask = enabled("mask") && rng_.chance(0.3) && !shape.empty() ? dataMask(shape) : nullptr;
    static const char *const scopes[] = {"gpu", "cta", "sys"};
    Value *old = b_.atomicRMW(xchgF32 || rng_.chance(0.15) ? "xchg" : kinds[rng_.range(0, 7)], ptrs, value, mask,
                              kSems[rng_.range(0, 3)], scopes[rng_.range(0, 2)]);
    if (!mask) {
      recordWith(old, f);
        return true;
    }
    recordWith(old, f, false); // masked-off elements are undefined
    Value *other = randomConstant(vt, xchgF32);
    recordWith(b_.select(mask, old, other), join(f, facts(other)));
    return true;
  }
  default: { // compare-and-swap on per-element slots, against a copy of their contents
    Facts f;
    ArgSpec spec;
    spec.name = "cas" + std::to_string(kernel_.args.size());
    spec.element = e;
    spec.count = size_t(numPrograms_ * scopes_.back().slotCount * per);
    spec.init = inputData(e, spec.count, f);
    spec.written = true;
    ArgSpec copy = spec;
    copy.name = "expected" + std::to_string(kernel_.args.size() + 1);
    copy.written = false;
    Value *param = addBufferParam(std::move(spec));
    Value *expectedParam = addBufferParam(std::move(copy));
    Value *offsets = tileOffsets(shape);
    auto pointers = [&](Value *p) {
      Value *q = shape.empty() ? b_.addPtr(p, offsets) : b_.addPtr(record(b_.splat(p, shape)), offsets);
      return recordWith(q, otherFacts(), false);
    };
    Value *expected = recordWith(b_.load(pointers(expectedParam)), f, false);
    Value *flipped = recordWith(b_.binary(OpCode::XOrI, expected, constInt(1, t)), fullInt(e), false);
    Value *which = shape.empty() ? recordWith(b_.cmpi("slt", program_, constInt(1, Type::i32())), intFacts(-1, 0), false)
                                 : dataMask(shape);
    Value *cmp = recordWith(b_.select(which, expected, flipped), fullInt(e), false);
    Value *value = operandOfType(t, false);
    Value *old = b_.atomicCAS(pointers(param), cmp, value, kSems[rng_.range(0, 3)], rng_.chance(0.5) ? "gpu" : "cta");
    recordWith(old, f);
    return true;
  }
  }
}

void Generator::storeOutput(Value *v, bool allowMask) {
  Type t = v->type();
  std::vector<int64_t> shape = shapeOf(t);
  Type e = t.element();
  int64_t per = t.numElements();
  size_t count = size_t(numPrograms_ * scopes_.back().slotCount * per);
  bool tail = allowMask && enabled("mask") && per > 1 && rng_.chance(0.2);
  if (tail)
    count -= size_t(rng_.range(1, per - 1));
  ArgSpec spec;
  spec.name = "out" + std::to_string(kernel_.args.size());
  spec.element = e;
  spec.count = count;
  spec.init = poison(e, count);
  spec.written = true;
  Value *param = addBufferParam(std::move(spec));
  Value *offsets = tileOffsets(shape);
  Value *ptrs = shape.empty() ? b_.addPtr(param, offsets)
                              : b_.addPtr(recordWith(b_.splat(param, shape), otherFacts(), false), offsets);
  recordWith(ptrs, otherFacts(), false);
  Value *mask = nullptr;
  if (tail) {
    Type ot = offsets->type().element();
    Value *n = addScalarParam(ot, uint64_t(count), intFacts(int64_t(count), int64_t(count)), "n");
    mask = recordWith(b_.cmpi("slt", offsets, recordWith(b_.splat(n, shape), otherFacts(), false)), intFacts(-1, 0),
                      false);
    use("mask");
  } else if (allowMask && !shape.empty() && enabled("mask") && rng_.chance(0.15)) {
    mask = dataMask(shape);
  }
  AttributeList attrs;
  if (rng_.chance(0.2)) {
    static const char *const caches[] = {"", "wb", "cg", "cs", "wt"};
    attrs.set("cache", Attribute::string(caches[rng_.range(0, 4)]));
  }
  b_.store(ptrs, v, mask, attrs);
  stores_.push_back({params_.at(param), v});
}

bool Generator::genStoreStep() {
  Value *v = pickValue([&](Value *x) {
    return facts(x).kind != Facts::Kind::Other && x->type().numElements() <= options_.maxElements;
  });
  if (!v)
    return false;
  storeOutput(v, true);
  --opsLeft_;
  return true;
}

} // namespace trident::e2e
