// Elementwise ops and casts: integer arithmetic with guarded divisors and shift
// amounts, float arithmetic that stays comparable (exact values feed discontinuous ops;
// approximations only continuous ones, with guarded domains), comparisons, selects.

#include "Generator.h"

#include "trident/support/FloatFormats.h"

#include <bit>
#include <cmath>

namespace trident::e2e {

namespace {

bool isF8(Type t) { return t.element() == Type::f8e4m3() || t.element() == Type::f8e5m2(); }

const char *const kIntPredicates[] = {"eq", "ne", "slt", "sle", "sgt", "sge", "ult", "ule", "ugt", "uge"};
const char *const kExactFloatPredicates[] = {"oeq", "one", "olt", "ole", "ogt", "oge", "ueq", "une",
                                             "ult", "ule", "ugt", "uge", "ord", "uno"};

} // namespace

bool Generator::acceptable(Type t, const Facts &f) const {
  if (f.kind != Facts::Kind::Float)
    return true;
  if (!std::isfinite(f.lo) || !std::isfinite(f.hi) || !std::isfinite(f.err))
    return false;
  if (f.mag() > safeMagnitude(t))
    return false;
  // Beyond this the tolerance would no longer tell a right result from a wrong one
  // (f8 values carry only 3 or 4 significant bits).
  return f.exact || f.err <= (isF8(t) ? 0.3 : 0.1) * std::max(f.mag(), 1e-2);
}

Value *Generator::randomConstant(Type t, bool exactOnly) {
  Type e = t.element();
  if (e.isInteger()) {
    if (e == Type::i1())
      return recordWith(b_.constBool(rng_.chance(0.5), t), intFacts(-1, 0), false);
    int64_t choices[] = {0, 1, -1, 2, 3, 7, 100, -128, 255, intMax(e), intMin(e), rng_.range(-1000, 1000)};
    int64_t v = choices[rng_.range(0, 11)];
    if (!fitsInt(e, v, v) && !(v > 0 && uint64_t(v) < (uint64_t(1) << e.bitWidth())))
      v = 1;
    Value *c = b_.constInt(v, t);
    // The constant's bits, read signed.
    int64_t s = e.bitWidth() >= 64 ? v : int64_t(uint64_t(v) << (64 - e.bitWidth())) >> (64 - e.bitWidth());
    return recordWith(c, intFacts(s, s), false);
  }
  double v;
  if (exactOnly || rng_.chance(0.8))
    v = std::ldexp(double(rng_.range(-8, 8)), -int(rng_.range(0, 2)));
  else
    v = double(rng_.range(-300, 300)) / 97.0;
  if (isF8(e))
    v = std::ldexp(double(rng_.range(-7, 7)), -int(rng_.range(0, 1)));
  return constFloat(v, t);
}

Value *Generator::castTo(Value *v, Type element) {
  Type from = v->type().element();
  if (from == element)
    return v;
  Type to = v->type().withElement(element);
  const Facts &f = facts(v);
  if (from.isInteger() && element.isInteger()) {
    if (element.bitWidth() > from.bitWidth())
      return record(b_.cast(rng_.chance(0.5) ? OpCode::ExtSI : OpCode::ExtUI, v, to));
    return record(b_.cast(OpCode::TruncI, v, to));
  }
  if (from.isFloat() && element.isFloat()) {
    if (f.kind == Facts::Kind::Bits)
      return nullptr;
    if (from.bitWidth() == element.bitWidth()) // f16 <-> bf16 (or f8 <-> f8) go through f32
      return castTo(castTo(v, Type::f32()), element);
    if (element.bitWidth() > from.bitWidth())
      return record(b_.cast(OpCode::ExtF, v, to));
    Facts r = roundTo(element, f, 2);
    if (!acceptable(to, r) || r.mag() > safeMagnitude(to))
      return nullptr;
    Value *t = b_.cast(OpCode::TruncF, v, to);
    if (rng_.chance(0.25))
      t->definingOp()->setAttr("rounding", Attribute::string(rng_.chance(0.5) ? "rtz" : "rtne"));
    return record(t);
  }
  if (from.isInteger()) { // to a float
    if (isF8(to))
      return nullptr;
    Value *src = v;
    bool readUnsigned = rng_.chance(0.4);
    double largest = readUnsigned && f.ilo < 0 ? std::ldexp(1.0, int(from.bitWidth())) - 1 : double(f.imag());
    if (element == Type::f16() && largest > 60000) {
      // f16 has no room for wide integers: narrow to i16 first, read signed.
      if (from.bitWidth() > 16)
        src = record(b_.cast(OpCode::TruncI, v, v->type().withElement(Type::i16())));
      readUnsigned = false;
    }
    return record(b_.cast(readUnsigned ? OpCode::UIToFP : OpCode::SIToFP, src, to));
  }
  // Float to integer: only exact values convert the same everywhere.
  if (!f.isExactFloat() || isF8(v->type()))
    return nullptr;
  return record(b_.cast(rng_.chance(0.6) ? OpCode::FPToSI : OpCode::FPToUI, v, to));
}

Value *Generator::positive(Value *x, double c) {
  Value *a = record(b_.unary(OpCode::AbsF, x));
  return record(b_.binary(OpCode::AddF, a, constFloat(c, x->type())));
}

Value *Generator::clamp(Value *x, double bound) {
  bool nanProp = rng_.chance(0.3);
  Value *lo = record(b_.binary(nanProp ? OpCode::MaximumF : OpCode::MaxNumF, x, constFloat(-bound, x->type())));
  return record(b_.binary(nanProp ? OpCode::MinimumF : OpCode::MinNumF, lo, constFloat(bound, x->type())));
}

Value *Generator::operandOfType(Type t, bool exactOnly) {
  std::vector<int64_t> shape = shapeOf(t);
  bool isFloat = isFloatType(t);
  auto good = [&](Value *v) {
    const Facts &f = facts(v);
    if (f.kind == Facts::Kind::Other || f.kind == Facts::Kind::Bits)
      return false;
    return !exactOnly || !isFloat || f.isExactFloat();
  };
  for (int attempt = 0; attempt < 4; ++attempt) {
    switch (rng_.weighted({4, 1.5, 1.5, 1.5, enabled("scalar-args") && paramsLeft() ? 1.0 : 0, paramsLeft() ? 0.7 : 0})) {
    case 0:
      if (Value *v = pickValue([&](Value *x) { return x->type() == t && good(x); }))
        return v;
      break;
    case 1:
      if (Value *v = pickValue([&](Value *x) {
            return shapeOf(x->type()) == shape && x->type() != t && good(x) && !isF8(x->type()) &&
                   isFloatType(x->type()) == isFloat;
          })) {
        Value *c = castTo(v, t.element());
        if (c && good(c))
          return c;
      }
      break;
    case 2:
      if (Value *v = pickValue([&](Value *x) {
            if (x->type().element() != t.element() || !good(x) || x->type().rank() > shape.size() || x->type() == t)
              return false;
            // Broadcastable: a suffix-free subsequence of `shape` dims, or size-1 dims.
            std::vector<int64_t> s = shapeOf(x->type());
            if (s.size() == shape.size()) {
              for (size_t i = 0; i < s.size(); ++i)
                if (s[i] != shape[i] && s[i] != 1)
                  return false;
              return true;
            }
            return s.size() + 1 == shape.size() || s.empty();
          })) {
        if (Value *r = broadcastTo(v, shape))
          return r;
      }
      break;
    case 3: return randomConstant(t, exactOnly);
    case 4: {
      Type e = t.element();
      if (e == Type::i1() || isF8(t))
        break;
      Facts f;
      uint64_t bits = 0;
      if (e.isInteger()) {
        int64_t v = rng_.chance(0.5) ? rng_.range(-50, 50) : rng_.range(intMin(e), intMax(e));
        f = intFacts(v, v);
        bits = uint64_t(v);
      } else {
        std::vector<uint8_t> one = inputData(e, 1, f, exactOnly);
        if (exactOnly && !f.exact)
          break;
        for (size_t i = 0; i < one.size(); ++i)
          bits |= uint64_t(one[i]) << (8 * i);
        // The scalar's facts: the one value it holds.
        double value = 0;
        if (e == Type::f32())
          value = double(std::bit_cast<float>(uint32_t(bits)));
        else if (e == Type::f64())
          value = std::bit_cast<double>(bits);
        else
          value = decodeFloat(uint32_t(bits), e == Type::f16() ? FloatFormat::F16 : FloatFormat::BF16);
        f.lo = f.hi = value;
      }
      use("scalar-args");
      Value *p = addScalarParam(e, bits, f, "s");
      return shape.empty() ? p : record(b_.splat(p, shape));
    }
    default:
      if (!budgetLeft())
        break;
      if (Value *v = genLoad(t, true, exactOnly))
        if (good(v))
          return v;
      break;
    }
  }
  return randomConstant(t, exactOnly);
}

bool Generator::genElementwise() {
  // Arbitrary bits only go back to integers.
  if (rng_.chance(0.1))
    if (Value *bits = pickValue([&](Value *v) { return facts(v).kind == Facts::Kind::Bits; })) {
      record(b_.cast(OpCode::Bitcast, bits, bits->type().withElement(Type::integer(bits->type().element().bitWidth()))));
      return true;
    }
  Value *a = pickValue([&](Value *v) {
    Facts::Kind k = facts(v).kind;
    return (k == Facts::Kind::Int || k == Facts::Kind::Float) && !isF8(v->type());
  });
  if (!a)
    return false;
  if (rng_.chance(0.15))
    return genCast(a);
  return isFloatType(a->type()) ? genFloatOp(a) : genIntOp(a);
}

bool Generator::genIntOp(Value *a) {
  Type t = a->type();
  Type e = t.element();
  std::vector<int64_t> shape = shapeOf(t);
  if (e == Type::i1()) {
    switch (rng_.range(0, 3)) {
    case 0: {
      OpCode codes[] = {OpCode::AndI, OpCode::OrI, OpCode::XOrI};
      record(b_.binary(codes[rng_.range(0, 2)], a, operandOfType(t, false)));
      return true;
    }
    case 1: {
      Value *x = pickValue([&](Value *v) {
        return shapeOf(v->type()) == shape && facts(v).kind != Facts::Kind::Other && !isF8(v->type());
      });
      if (!x)
        return false;
      record(b_.select(a, x, operandOfType(x->type(), false)));
      return true;
    }
    default: return castTo(a, randomElement(false)) != nullptr;
    }
  }
  OpCode codes[] = {OpCode::AddI,  OpCode::SubI,  OpCode::MulI,  OpCode::DivSI, OpCode::DivUI, OpCode::RemSI,
                    OpCode::RemUI, OpCode::AndI,  OpCode::OrI,   OpCode::XOrI,  OpCode::ShLI,  OpCode::ShRSI,
                    OpCode::ShRUI, OpCode::MinSI, OpCode::MinUI, OpCode::MaxSI, OpCode::MaxUI, OpCode::UMulHi,
                    OpCode::AbsI,  OpCode::CmpI,  OpCode::Select};
  OpCode code = codes[rng_.range(0, 20)];
  switch (code) {
  case OpCode::AbsI: record(b_.unary(code, a)); return true;
  case OpCode::CmpI:
    record(b_.cmpi(kIntPredicates[rng_.range(0, 9)], a, operandOfType(t, false)));
    return true;
  case OpCode::Select: {
    Value *cond = nullptr;
    if (rng_.chance(0.2))
      cond = pickValue([&](Value *v) { return v->type() == Type::i1(); });
    if (!cond)
      cond = pickValue([&](Value *v) { return v->type() == t.withElement(Type::i1()); });
    if (!cond)
      cond = record(b_.cmpi(kIntPredicates[rng_.range(0, 9)], a, operandOfType(t, false)));
    record(b_.select(cond, a, operandOfType(t, false)));
    return true;
  }
  case OpCode::DivSI:
  case OpCode::RemSI:
  case OpCode::DivUI:
  case OpCode::RemUI: {
    // Divisors are odd, so never zero; signed dividends are never the minimum, so
    // MIN / -1 never happens.
    Value *d = record(b_.binary(OpCode::OrI, operandOfType(t, false), constInt(1, t)));
    Value *n = a;
    if (code == OpCode::DivSI || code == OpCode::RemSI)
      n = record(b_.binary(OpCode::MaxSI, a, constInt(intMin(e) + 1, t)));
    record(b_.binary(code, n, d));
    return true;
  }
  case OpCode::ShLI:
  case OpCode::ShRSI:
  case OpCode::ShRUI: {
    // Amounts up to twice the width: those >= width are defined by Trident (0 or the sign).
    int64_t w = e.bitWidth();
    Value *amount = rng_.chance(0.4) ? constInt(rng_.range(0, w + 1), t)
                                     : record(b_.binary(OpCode::AndI, operandOfType(t, false),
                                                        constInt(rng_.chance(0.7) ? w - 1 : 2 * w - 1, t)));
    record(b_.binary(code, a, amount));
    return true;
  }
  default: record(b_.binary(code, a, operandOfType(t, false))); return true;
  }
}

bool Generator::genFloatOp(Value *a) {
  Type t = a->type();
  const Facts fa = facts(a);
  bool math = enabled("math");
  struct Candidate {
    OpCode code;
    bool exactOnly;
    bool isMath;
  };
  static const Candidate candidates[] = {
      {OpCode::AddF, false, false},      {OpCode::SubF, false, false},     {OpCode::MulF, false, false},
      {OpCode::NegF, false, false},      {OpCode::AbsF, false, false},     {OpCode::MinimumF, false, false},
      {OpCode::MaximumF, false, false},  {OpCode::MinNumF, false, false},  {OpCode::MaxNumF, false, false},
      {OpCode::Fma, false, false},       {OpCode::Select, false, false},   {OpCode::Floor, true, false},
      {OpCode::Ceil, true, false},       {OpCode::RemF, true, false},      {OpCode::CmpF, true, false},
      {OpCode::DivF, false, true},       {OpCode::PreciseDivF, false, true}, {OpCode::Sqrt, false, true},
      {OpCode::PreciseSqrt, false, true}, {OpCode::Rsqrt, false, true},    {OpCode::Exp, false, true},
      {OpCode::Exp2, false, true},       {OpCode::Log, false, true},       {OpCode::Log2, false, true},
      {OpCode::Sin, false, true},        {OpCode::Cos, false, true},       {OpCode::Erf, false, true},
  };
  constexpr int n = int(sizeof(candidates) / sizeof(candidates[0]));
  for (int attempt = 0; attempt < 6; ++attempt) {
    const Candidate &c = candidates[rng_.range(0, n - 1)];
    if ((c.exactOnly && !fa.exact) || (c.isMath && !math))
      continue;
    if (c.isMath)
      use("math");
    // Keep exact chains exact most of the time.
    bool wantExact = c.exactOnly || (fa.exact && rng_.chance(0.8));
    switch (c.code) {
    case OpCode::NegF:
    case OpCode::AbsF:
    case OpCode::Floor:
    case OpCode::Ceil: record(b_.unary(c.code, a)); return true;
    case OpCode::CmpF: {
      Value *b = operandOfType(t, true);
      if (!facts(b).isExactFloat())
        continue;
      record(b_.cmpf(kExactFloatPredicates[rng_.range(0, 13)], a, b));
      return true;
    }
    case OpCode::RemF: {
      Value *b = operandOfType(t, true);
      if (!facts(b).isExactFloat())
        continue;
      Value *d = positive(b, 1);
      if (!facts(d).isExactFloat())
        continue;
      record(b_.binary(OpCode::RemF, a, d));
      return true;
    }
    case OpCode::Select: {
      Value *cond = pickValue([&](Value *v) { return v->type() == t.withElement(Type::i1()); });
      if (!cond)
        cond = pickValue([&](Value *v) { return v->type() == Type::i1(); });
      if (!cond)
        continue;
      Value *b = operandOfType(t, wantExact);
      if (!acceptable(t, join(fa, facts(b))))
        continue;
      record(b_.select(cond, a, b));
      return true;
    }
    case OpCode::Fma: {
      Value *b = operandOfType(t, wantExact), *d = operandOfType(t, wantExact);
      Facts in[] = {fa, facts(b), facts(d)};
      if (!acceptable(t, transfer(OpCode::Fma, t, in, t)))
        continue;
      record(b_.fma(a, b, d));
      return true;
    }
    case OpCode::DivF:
    case OpCode::PreciseDivF: {
      Value *b = operandOfType(t, false);
      Value *d = positive(b, rng_.chance(0.5) ? 1.0 : 2.0);
      if (rng_.chance(0.3))
        d = record(b_.unary(OpCode::NegF, d));
      Facts in[] = {fa, facts(d)};
      if (!acceptable(t, transfer(c.code, t, in, t)))
        continue;
      record(b_.binary(c.code, a, d));
      return true;
    }
    case OpCode::Sqrt:
    case OpCode::PreciseSqrt:
    case OpCode::Rsqrt:
    case OpCode::Log:
    case OpCode::Log2: {
      Value *x = positive(a, c.code == OpCode::Log || c.code == OpCode::Log2 ? 1.0 : 0.5);
      Facts in[] = {facts(x)};
      if (!acceptable(t, transfer(c.code, t, in, t)))
        continue;
      record(b_.unary(c.code, x));
      return true;
    }
    case OpCode::Exp:
    case OpCode::Exp2:
    case OpCode::Sin:
    case OpCode::Cos:
    case OpCode::Erf: {
      double bound = c.code == OpCode::Exp || c.code == OpCode::Exp2 ? 4 : 16;
      Value *x = fa.mag() > bound && c.code != OpCode::Erf ? clamp(a, bound) : a;
      Facts in[] = {facts(x)};
      if (!acceptable(t, transfer(c.code, t, in, t)))
        continue;
      record(b_.unary(c.code, x));
      return true;
    }
    default: {
      Value *b = operandOfType(t, wantExact);
      Facts in[] = {fa, facts(b)};
      if (!acceptable(t, transfer(c.code, t, in, t)))
        continue;
      record(b_.binary(c.code, a, b));
      return true;
    }
    }
  }
  return false;
}

bool Generator::genCast(Value *a) {
  Type from = a->type().element();
  const Facts &f = facts(a);
  // Bit reinterpretation between an integer and a float of one width.
  if (enabled("bitcast") && rng_.chance(0.2)) {
    if (from.isInteger() && from.bitWidth() >= 16) {
      Type to = from.bitWidth() == 16 ? (rng_.chance(0.5) ? Type::f16() : Type::bf16())
                : from.bitWidth() == 32 ? Type::f32()
                                        : Type::f64();
      if (typeEnabled(to)) {
        use("bitcast");
        record(b_.cast(OpCode::Bitcast, a, a->type().withElement(to)));
        return true;
      }
    }
    if (f.isExactFloat() && from.bitWidth() >= 16) {
      use("bitcast");
      record(b_.cast(OpCode::Bitcast, a, a->type().withElement(Type::integer(from.bitWidth()))));
      return true;
    }
  }
  // Through an f8 and back: storage-only types are reached by truncf only.
  if (from.isFloat() && enabled("f8") && rng_.chance(0.2)) {
    Type f8 = rng_.chance(0.5) ? Type::f8e4m3() : Type::f8e5m2();
    if (Value *v = castTo(a, f8)) {
      use("f8");
      if (rng_.chance(0.7))
        castTo(v, randomElement(true));
      return true;
    }
    return false;
  }
  bool toFloat = rng_.chance(0.5);
  Type to = randomElement(toFloat);
  if (to == from)
    return false;
  return castTo(a, to) != nullptr;
}

} // namespace trident::e2e
