// Conversions that targets lack instructions for, written as integer and f32
// arithmetic so that every backend gets them: f8e4m3 / f8e5m2 to and from wider
// floats, and rounding toward zero to f16, bf16 and f8. f8 values travel in thread
// IR as their bits (tt.bitcast to and from i8). Semantics as docs/ir.md and
// trident/support/FloatFormats.h: round to nearest even (or toward zero); overflow
// gives infinity (toward zero: the largest finite value); f8e4m3 saturates to 448;
// NaN keeps its sign.
//
//   %y = arith.truncf %x : f8e4m3          (%x : f32)
// ->
//   %bits = tt.bitcast %x : i32 ... (round with an added magic constant) ...
//   %y = tt.bitcast %code : f8e4m3
#include "LowerContext.h"

#include "trident/support/FloatFormats.h"

#include <cmath>

namespace trident::simt {

namespace {

struct Format {
  int exponentBits, mantissaBits, bias;
  uint32_t maxFiniteF32; // the largest finite value, as f32 bits
  bool hasInfinity;
  unsigned width;
};

Format formatOf(Type t) {
  switch (t.kind()) {
  case TypeKind::F8E4M3: return {4, 3, 7, 0x43e00000u, false, 8}; // 448
  case TypeKind::F8E5M2: return {5, 2, 15, 0x47600000u, true, 8}; // 57344
  case TypeKind::F16: return {5, 10, 15, 0x477fe000u, true, 16};  // 65504
  default: return {8, 7, 127, 0x7f7f0000u, true, 16};             // bf16
  }
}

bool isF8(Type t) { return t == Type::f8e4m3() || t == Type::f8e5m2(); }

// Scalar helpers at the builder's insertion point.
struct Emitter {
  Lowering &l;
  Builder &b;
  Value *i32(int64_t v) { return b.constInt(v, Type::i32()); }
  Value *bin(OpCode code, Value *x, Value *y) { return b.binary(code, x, y); }
  Value *cmp(const char *p, Value *x, Value *y) { return b.cmpi(p, x, y); }
  Value *bitcast(Value *v, Type t) { return b.cast(OpCode::Bitcast, v, t); }
};

// f32 `x` rounded to `f`, as the bits of `f` in an i32.
Value *encode(Emitter &e, Value *x, const Format &f, bool towardZero) {
  Builder &b = e.b;
  Value *bits = e.bitcast(x, Type::i32());
  Value *sign = e.bin(OpCode::AndI, e.bin(OpCode::ShRUI, bits, e.i32(31)), e.i32(1));
  Value *abs = e.bin(OpCode::AndI, bits, e.i32(0x7fffffff));
  Value *isNaN = e.cmp("ugt", abs, e.i32(0x7f800000));
  Value *exponent = e.bin(OpCode::SubI, e.bin(OpCode::ShRUI, abs, e.i32(23)), e.i32(127));
  // The exponent of one unit in the last place of the result (subnormals: fixed).
  Value *quantum = e.bin(OpCode::MaxSI, e.bin(OpCode::SubI, exponent, e.i32(f.mantissaBits)),
                         e.i32(1 - f.bias - f.mantissaBits));
  quantum = e.bin(OpCode::MinSI, quantum, e.i32(100)); // huge values overflow below anyway
  Value *rounded;
  if (towardZero) {
    // Bits below the quantum; an f32 subnormal's ulp is that of exponent -126.
    Value *ulpExponent = e.bin(OpCode::MaxSI, exponent, e.i32(-126));
    Value *clear = e.bin(OpCode::AddI, e.bin(OpCode::SubI, quantum, ulpExponent), e.i32(23));
    clear = e.bin(OpCode::MinSI, e.bin(OpCode::MaxSI, clear, e.i32(0)), e.i32(23));
    Value *mask = e.bin(OpCode::SubI, e.bin(OpCode::ShLI, e.i32(1), clear), e.i32(1));
    Value *kept = e.bin(OpCode::AndI, abs, e.bin(OpCode::XOrI, mask, e.i32(-1)));
    Value *belowQuantum = e.cmp("slt", exponent, quantum);
    rounded = b.select(belowQuantum, e.i32(0), kept);
  } else {
    // Adding 2^(quantum + 23) rounds to a multiple of 2^quantum, to nearest even.
    Value *magic =
        e.bitcast(e.bin(OpCode::ShLI, e.bin(OpCode::AddI, quantum, e.i32(150)), e.i32(23)), Type::f32());
    Value *absf = e.bitcast(abs, Type::f32());
    Value *r = b.binary(OpCode::SubF, b.binary(OpCode::AddF, absf, magic), magic);
    rounded = e.bitcast(r, Type::i32());
    // Infinity would become NaN above: it is an overflow like any other.
    rounded = b.select(e.cmp("uge", abs, e.i32(0x7f800000)), e.i32(0x7f800000), rounded);
  }
  // Overflow.
  int64_t maxCode =
      f.hasInfinity ? ((int64_t(1) << (f.exponentBits + f.mantissaBits)) - (int64_t(1) << f.mantissaBits) - 1)
                    : ((int64_t(1) << (f.exponentBits + f.mantissaBits)) - 2);
  int64_t infCode = (int64_t(1) << (f.exponentBits + f.mantissaBits)) - (int64_t(1) << f.mantissaBits);
  Value *overflow = e.cmp("ugt", rounded, e.i32(f.maxFiniteF32));
  int64_t overflowCode = (f.hasInfinity && !towardZero) ? infCode : maxCode;
  // Encode the (exactly representable) rounded value.
  Value *re = e.bin(OpCode::SubI, e.bin(OpCode::ShRUI, rounded, e.i32(23)), e.i32(127));
  Value *normal =
      e.bin(OpCode::OrI, e.bin(OpCode::ShLI, e.bin(OpCode::AddI, re, e.i32(f.bias)), e.i32(f.mantissaBits)),
            e.bin(OpCode::AndI, e.bin(OpCode::ShRUI, rounded, e.i32(23 - f.mantissaBits)),
                  e.i32((int64_t(1) << f.mantissaBits) - 1)));
  // A subnormal result is its f32 significand shifted down to the result's fixed
  // quantum, in integers: scaling by 2^(bias + mantissaBits - 1) in f32 would
  // overflow for wide-exponent formats (2^133 for bf16). The shift is exact, since
  // `rounded` is a multiple of the quantum; it is capped at 31 for zero.
  Value *f32Exponent = e.bin(OpCode::ShRUI, rounded, e.i32(23));
  Value *isF32Normal = e.cmp("sge", f32Exponent, e.i32(1));
  Value *mantissa = e.bin(OpCode::AndI, rounded, e.i32(0x7fffff));
  Value *significand = b.select(isF32Normal, e.bin(OpCode::OrI, mantissa, e.i32(0x800000)), mantissa);
  Value *shift = e.bin(OpCode::SubI, e.i32(151 - f.bias - f.mantissaBits),
                       e.bin(OpCode::MaxSI, f32Exponent, e.i32(1)));
  shift = e.bin(OpCode::MinSI, e.bin(OpCode::MaxSI, shift, e.i32(0)), e.i32(31)); // normal results: unused
  Value *subnormal = e.bin(OpCode::ShRUI, significand, shift);
  Value *code = b.select(e.cmp("sge", re, e.i32(1 - f.bias)), normal, subnormal);
  code = b.select(overflow, e.i32(overflowCode), code);
  if (f.hasInfinity) // infinity stays infinity, whatever the rounding
    code = b.select(e.cmp("eq", abs, e.i32(0x7f800000)), e.i32(infCode), code);
  // NaN: all exponent bits and the high mantissa bit (a quiet NaN; e4m3's only NaN).
  int64_t nanCode = f.hasInfinity ? infCode | (int64_t(1) << (f.mantissaBits - 1)) : maxCode + 1;
  code = b.select(isNaN, e.i32(nanCode), code);
  return e.bin(OpCode::OrI, code, e.bin(OpCode::ShLI, sign, e.i32(f.width - 1)));
}

// The bits of an f8 value (in an i32) as an f32.
Value *decodeF8(Emitter &e, Value *bits, Type from) {
  Builder &b = e.b;
  Value *sign = e.bin(OpCode::ShLI, e.bin(OpCode::AndI, bits, e.i32(0x80)), e.i32(24));
  if (from == Type::f8e5m2()) {
    // The top byte of an f16.
    Value *half =
        e.bitcast(b.cast(OpCode::TruncI, e.bin(OpCode::ShLI, bits, e.i32(8)), Type::i16()), Type::f16());
    return b.cast(OpCode::ExtF, half, Type::f32());
  }
  Value *exponent = e.bin(OpCode::AndI, e.bin(OpCode::ShRUI, bits, e.i32(3)), e.i32(15));
  Value *mantissa = e.bin(OpCode::AndI, bits, e.i32(7));
  Value *normal =
      e.bin(OpCode::OrI, e.bin(OpCode::ShLI, e.bin(OpCode::AddI, exponent, e.i32(120)), e.i32(23)),
            e.bin(OpCode::ShLI, mantissa, e.i32(20)));
  Value *subnormal = e.bitcast(b.binary(OpCode::MulF, b.cast(OpCode::UIToFP, mantissa, Type::f32()),
                                        b.constFloat(std::ldexp(1.0, -9), Type::f32())),
                               Type::i32());
  Value *magnitude = b.select(e.cmp("eq", exponent, e.i32(0)), subnormal, normal);
  magnitude = b.select(e.cmp("eq", e.bin(OpCode::AndI, bits, e.i32(0x7f)), e.i32(0x7f)), e.i32(0x7fc00000),
                       magnitude);
  return e.bitcast(e.bin(OpCode::OrI, magnitude, sign), Type::f32());
}

// Converts scalar `v` of `from` to `to` (one of them narrow, or rounding toward zero).
Value *convert(Lowering &l, Value *v, Type from, Type to, bool towardZero) {
  Emitter e{l, l.b};
  Builder &b = l.b;
  if (isF8(from)) {
    Value *bits = b.cast(OpCode::ExtUI, e.bitcast(v, Type::i8()), Type::i32());
    Value *f = decodeF8(e, bits, from);
    if (to == Type::f32())
      return f;
    return b.cast(to.bitWidth() > 32 ? OpCode::ExtF : OpCode::TruncF, f, to); // exact either way
  }
  // To a narrower format: through f32 (exact from f16/bf16; from f64 rounding twice
  // to nearest, exactly toward zero).
  Value *x = v;
  if (from == Type::f64()) {
    x = b.cast(OpCode::TruncF, v, Type::f32());
    if (towardZero) { // to nearest gave the result toward zero or the one after it
      Value *away = b.cmpf("ogt", b.unary(OpCode::AbsF, b.cast(OpCode::ExtF, x, Type::f64())),
                           b.unary(OpCode::AbsF, v));
      Value *stepped = e.bitcast(e.bin(OpCode::SubI, e.bitcast(x, Type::i32()), e.i32(1)), Type::f32());
      x = b.select(away, stepped, x);
    }
  } else if (from != Type::f32()) {
    x = b.cast(OpCode::ExtF, v, Type::f32());
  }
  if (to == Type::f32())
    return x;
  Format f = formatOf(to);
  Value *code = encode(e, x, f, towardZero);
  Type bitsType = Type::integer(f.width);
  return e.bitcast(b.cast(OpCode::TruncI, code, bitsType), to);
}

} // namespace

bool needsNarrowFloatLowering(const Op *op) {
  if (op->is(OpCode::ExtF))
    return isF8(op->operand(0)->type().element());
  if (op->is(OpCode::TruncF)) {
    bool rtz = op->attr("rounding").isString() && op->stringAttr("rounding") == "rtz";
    return isF8(op->result()->type().element()) || rtz;
  }
  return false;
}

Value *lowerNarrowFloatConversion(Lowering &l, const Op *op, Value *v) {
  bool rtz = op->attr("rounding").isString() && op->stringAttr("rounding") == "rtz";
  return convert(l, v, op->operand(0)->type().element(), op->result()->type().element(), rtz);
}

Value *widenNarrowFloat(Lowering &l, Value *v, Type to) { return convert(l, v, v->type(), to, false); }

Value *narrowFloatConstant(Lowering &l, Type type, double value) {
  FloatFormat format = type == Type::f8e4m3() ? FloatFormat::F8E4M3 : FloatFormat::F8E5M2;
  Value *bits = l.b.constInt(static_cast<int8_t>(encodeFloat(value, format)), Type::i8());
  return l.b.cast(OpCode::Bitcast, bits, type);
}

} // namespace trident::simt
