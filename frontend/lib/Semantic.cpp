// Triton's typing rules (its semantic module): literal types, promotion of
// operand types, casts, and implicit broadcasting.

#include "CodeGen.h"

#include "trident/support/FloatFormats.h"

#include <cmath>

namespace trident::frontend {

namespace {

std::string shapeStr(std::span<const int64_t> s) {
  std::string r = "[";
  for (size_t i = 0; i < s.size(); ++i)
    r += (i ? ", " : "") + std::to_string(s[i]);
  return r + "]";
}

} // namespace

Tensor CodeGen::constantInt(int64_t v, DType dtype, std::span<const int64_t> shape) {
  Type t = Type::block(shape, dtype.type);
  if (dtype.isBool())
    return Tensor{b_.constBool(v != 0, t), dtype};
  return Tensor{b_.constInt(v, t), dtype};
}

Tensor CodeGen::constant(const Object &o, DType dtype, std::span<const int64_t> shape, const Span &span) {
  Type t = Type::block(shape, dtype.type);
  if (dtype.isPtr())
    error(span, "cannot make a constant of pointer type " + dtype.name());
  if (dtype.isBool()) {
    bool v = o.kind == Object::Kind::Float ? o.floatValue != 0
             : o.kind == Object::Kind::Bool ? o.boolValue
                                            : o.intValue != 0;
    return Tensor{b_.constBool(v, t), dtype};
  }
  if (dtype.isFloat()) {
    double v = o.kind == Object::Kind::Float  ? o.floatValue
               : o.kind == Object::Kind::Bool ? double(o.boolValue)
                                              : static_cast<double>(o.intValue);
    switch (dtype.type.kind()) {
    case TypeKind::F16: v = roundToFormat(v, FloatFormat::F16); break;
    case TypeKind::BF16: v = roundToFormat(v, FloatFormat::BF16); break;
    case TypeKind::F32: v = roundToFormat(v, FloatFormat::F32); break;
    case TypeKind::F8E4M3: v = roundToFormat(v, FloatFormat::F8E4M3); break;
    case TypeKind::F8E5M2: v = roundToFormat(v, FloatFormat::F8E5M2); break;
    default: break;
    }
    return Tensor{b_.constFloat(v, t), dtype};
  }
  // Integers: Python floats truncate toward zero, as int() does.
  PyInt v;
  if (o.kind == Object::Kind::Float) {
    if (!std::isfinite(o.floatValue) || std::fabs(o.floatValue) >= 1.8446744073709552e19)
      error(span, "cannot convert " + pythonStr(o) + " to " + dtype.name());
    v = static_cast<PyInt>(o.floatValue);
  } else {
    v = o.kind == Object::Kind::Bool ? PyInt(o.boolValue) : o.intValue;
  }
  if (dtype.isBool())
    return Tensor{b_.constBool(v != 0, t), dtype};
  unsigned width = dtype.bits();
  PyInt lo = dtype.isUnsigned ? 0 : -(PyInt(1) << (width - 1));
  PyInt hi = dtype.isUnsigned ? (PyInt(1) << width) - 1 : (PyInt(1) << (width - 1)) - 1;
  if (v < lo || v > hi)
    error(span, "scalar " + pyIntStr(v) + " is out of range for type " + dtype.name());
  // Store the bits, keeping values that fit as written.
  unsigned bits = dtype.bits();
  unsigned __int128 mask = bits >= 64 ? ~static_cast<uint64_t>(0) : ((static_cast<uint64_t>(1) << bits) - 1);
  uint64_t raw = static_cast<uint64_t>(static_cast<unsigned __int128>(v) & mask);
  int64_t stored;
  if (bits < 64 && !dtype.isUnsigned) {
    // sign-extend
    uint64_t sign = static_cast<uint64_t>(1) << (bits - 1);
    stored = static_cast<int64_t>((raw ^ sign) - sign);
  } else {
    stored = static_cast<int64_t>(raw);
  }
  return Tensor{b_.constInt(stored, t), dtype};
}

Tensor CodeGen::toTensor(const Object &o, const Span &span) {
  switch (o.kind) {
  case Object::Kind::Tensor: return o.tensor;
  case Object::Kind::Bool: return constant(o, DType::i1(), {}, span);
  case Object::Kind::Int: {
    PyInt v = o.intValue;
    PyInt two31 = PyInt(1) << 31, two32 = PyInt(1) << 32, two63 = PyInt(1) << 63, two64 = PyInt(1) << 64;
    DType d;
    if (v >= -two31 && v < two31)
      d = DType::i32();
    else if (v >= two31 && v < two32)
      d = DType::u32();
    else if (v >= -two63 && v < two63)
      d = DType::i64();
    else if (v >= two63 && v < two64)
      d = DType::u64();
    else
      error(span, "integer " + pyIntStr(v) + " cannot be represented as a 64-bit tensor");
    return constant(o, d, {}, span);
  }
  case Object::Kind::Float: {
    double a = std::fabs(o.floatValue);
    bool f32 = std::isinf(a) || a == 0.0 || std::isnan(a) ||
               (a >= std::ldexp(1.0, -126) && a <= std::ldexp(2.0 - std::ldexp(1.0, -23), 127));
    return constant(o, f32 ? DType::f32() : DType::f64(), {}, span);
  }
  default: error(span, "expected a tensor or a number, got " + o.describe());
  }
}

Tensor CodeGen::bitcast(const Tensor &t, DType to, const Span &span) {
  DType from = t.dtype;
  if (from == to)
    return t;
  if (from.isPtr() && to.isPtr())
    return Tensor{b_.cast(OpCode::Bitcast, t.value, t.type().withElement(to.type)), to};
  if (from.isPtr() || to.isPtr())
    return cast(t, to, span);
  if (from.bits() != to.bits())
    error(span, "cannot bitcast data-type of size " + std::to_string(from.bits()) + " to data-type of size " +
                    std::to_string(to.bits()));
  if (from.type == to.type)
    return Tensor{t.value, to};
  return Tensor{b_.cast(OpCode::Bitcast, t.value, t.type().withElement(to.type)), to};
}

Tensor CodeGen::cast(const Tensor &t, DType to, const Span &span, std::string_view rounding) {
  DType from = t.dtype;
  Type toType = t.type().withElement(to.type);
  if (from == to)
    return t;
  if (!rounding.empty() && !(from.isFloat() && to.isFloat() && from.bits() > to.bits()))
    error(span, "fp_downcast_rounding is only valid when casting to a narrower float type");
  if (from.isSoftFp8() || to.isSoftFp8())
    return softFp8Cast(t, to, span, rounding);
  auto op = [&](OpCode code) { return Tensor{b_.cast(code, t.value, toType), to}; };
  // fp16 and bf16 go through fp32 to reach anything but fp32.
  if (!from.isFp8() && !to.isFp8() &&
      ((from.type == Type::f16() && to.type != Type::f32()) ||
       (from.type == Type::bf16() && to.type != Type::f32())))
    return cast(cast(t, DType::f32(), span), to, span, rounding);
  // fp8 is for storage only in the block IR: integers reach and leave it through f32
  // (exact: every fp8 value and every integer it can round from is an f32).
  if ((from.isInt() && to.isFp8()) || (from.isFp8() && to.isInt()))
    return cast(cast(t, DType::f32(), span), to, span, from.isInt() ? rounding : std::string_view());
  if (from.isFloat() && to.isFloat()) {
    if (from.bits() > to.bits() || (from.bits() == to.bits() && from.isFp8())) {
      if (from.bits() == to.bits()) // between the two fp8 formats: through fp16
        return cast(cast(t, DType::f16(), span), to, span, rounding);
      Tensor r = op(OpCode::TruncF);
      if (rounding == "rtz")
        r.value->definingOp()->setAttr("rounding", Attribute::string("rtz"));
      else if (!rounding.empty() && rounding != "rtne")
        error(span, "fp_downcast_rounding must be 'rtne' or 'rtz', got '" + std::string(rounding) + "'");
      return r;
    }
    if (from.bits() == to.bits()) // f16 <-> bf16
      return cast(cast(t, DType::f32(), span), to, span);
    return op(OpCode::ExtF);
  }
  if (from.isInt() && to.isInt()) {
    if (to.isBool())
      return toBool(t, span);
    if (from.bits() == to.bits())
      return Tensor{t.value, to};
    if (from.bits() > to.bits())
      return op(OpCode::TruncI);
    return op(from.isSigned() && !from.isBool() ? OpCode::ExtSI : OpCode::ExtUI);
  }
  if (from.isFloat() && to.isInt()) {
    if (to.isBool())
      return toBool(t, span);
    return op(to.isUnsigned ? OpCode::FPToUI : OpCode::FPToSI);
  }
  if (from.isInt() && to.isFloat())
    return op(from.isBool() || from.isUnsigned ? OpCode::UIToFP : OpCode::SIToFP);
  if (from.isPtr() && to.isInt()) {
    if (to.bits() == 64)
      return op(OpCode::PtrToInt);
    if (to.isBool())
      return toBool(cast(t, DType::i64(), span), span);
    error(span,
          "cannot cast " + from.name() + " to " + to.name() + ": pointers convert to int64 or int1 only");
  }
  if (from.isInt() && to.isPtr()) {
    if (from.bits() != 64)
      return cast(cast(t, DType::i64(), span), to, span);
    return op(OpCode::IntToPtr);
  }
  if (from.isPtr() && to.isPtr())
    return op(OpCode::Bitcast);
  error(span, "cannot cast " + from.name() + " to " + to.name());
}

Tensor CodeGen::toBool(const Tensor &t, const Span &span) {
  if (t.dtype.isBool())
    return t;
  if (t.dtype.isPtr())
    return toBool(cast(t, DType::i64(), span), span);
  if (t.dtype.isFloat()) {
    Tensor zero = constant(Object::floating(0.0), t.dtype, t.shape(), span);
    return Tensor{b_.cmpf("une", t.value, zero.value), DType::i1()};
  }
  Tensor zero = constantInt(0, t.dtype, t.shape());
  return Tensor{b_.cmpi("ne", t.value, zero.value), DType::i1()};
}

Tensor CodeGen::broadcastTo(const Tensor &t, std::span<const int64_t> shape, const Span &span) {
  if (!t.isBlock()) {
    if (shape.empty())
      return t;
    // A constant scalar becomes a constant block directly.
    Op *def = t.value->definingOp();
    if (def && def->is(OpCode::Constant)) {
      Op *c = b_.create(OpCode::Constant, {}, {Type::block(shape, t.type())}, def->attrs());
      return Tensor{c->result(), t.dtype};
    }
    return Tensor{b_.splat(t.value, shape), t.dtype};
  }
  std::span<const int64_t> src = t.shape();
  if (std::equal(src.begin(), src.end(), shape.begin(), shape.end()))
    return t;
  if (src.size() != shape.size())
    error(span, "cannot broadcast, rank mismatch: " + shapeStr(src) + ", " + shapeStr(shape));
  for (size_t i = 0; i < src.size(); ++i)
    if (src[i] != shape[i] && src[i] != 1)
      error(span, "cannot broadcast, the expanded size of the tensor (" + std::to_string(shape[i]) +
                      ") must match the existing size (" + std::to_string(src[i]) +
                      ") at non-singleton dimension " + std::to_string(i) + ": " + shapeStr(src) + ", " +
                      shapeStr(shape));
  return Tensor{b_.broadcast(t.value, shape), t.dtype};
}

std::pair<Tensor, Tensor> CodeGen::broadcastPair(const Tensor &a0, const Tensor &b0, const Span &span) {
  Tensor a = a0, b = b0;
  if (!a.isBlock() && !b.isBlock())
    return {a, b};
  if (a.isBlock() && !b.isBlock())
    return {a, broadcastTo(b, a.shape(), span)};
  if (!a.isBlock() && b.isBlock())
    return {broadcastTo(a, b.shape(), span), b};
  while (a.shape().size() < b.shape().size())
    a = Tensor{b_.expandDims(a.value, 0), a.dtype};
  while (b.shape().size() < a.shape().size())
    b = Tensor{b_.expandDims(b.value, 0), b.dtype};
  std::vector<int64_t> result;
  for (size_t i = 0; i < a.shape().size(); ++i) {
    int64_t x = a.shape()[i], y = b.shape()[i];
    if (x != y && x != 1 && y != 1)
      error(span, "cannot broadcast shapes " + shapeStr(a0.shape()) + " and " + shapeStr(b0.shape()) +
                      ": incompatible dimensions at index " + std::to_string(i) + ": " + std::to_string(x) +
                      " and " + std::to_string(y));
    result.push_back(std::max(x, y));
  }
  return {broadcastTo(a, result, span), broadcastTo(b, result, span)};
}

DType CodeGen::integerPromote(DType a, DType b) const {
  unsigned ra = a.bits(), rb = b.bits();
  bool ua = a.isUnsigned && !a.isBool(), ub = b.isUnsigned && !b.isBool();
  if (ua == ub)
    return ra > rb ? a : b;
  if (ua)
    return ra >= rb ? a : b;
  return rb >= ra ? b : a;
}

DType CodeGen::computationType(DType a, bool aIsPy, DType b, bool bIsPy, bool divOrMod,
                               const Span &span) const {
  // A Python number of a lower or equal kind takes the tensor's type.
  if (aIsPy != bIsPy) {
    DType scalar = aIsPy ? a : b, tensor = aIsPy ? b : a;
    if (scalar.kindRank() <= tensor.kindRank()) {
      if (divOrMod && (tensor.type == Type::f16() || tensor.type == Type::bf16()))
        return DType::f32();
      return tensor;
    }
  }
  if (a.type == Type::f64() || b.type == Type::f64())
    return DType::f64();
  if (a.type == Type::f32() || b.type == Type::f32())
    return DType::f32();
  if (a.type == Type::f16() || b.type == Type::f16())
    return divOrMod ? DType::f32() : DType::f16();
  if (a.type == Type::bf16() || b.type == Type::bf16()) {
    if (divOrMod)
      return DType::f32();
    return a.type == Type::bf16() && b.type == Type::bf16() ? DType::bf16() : DType::f32();
  }
  if (a.isFp8() && b.isFp8())
    return a == b ? a : DType::f16();
  if (a.isFp8() || b.isFp8())
    return a.isFp8() ? b : a;
  if (!a.isInt() || !b.isInt())
    error(span, "unexpected operand types " + a.name() + " and " + b.name());
  if (divOrMod && a.isUnsigned != b.isUnsigned && !a.isBool() && !b.isBool())
    error(span, "cannot use / or % on " + a.name() + " and " + b.name() +
                    " because they have different signedness; cast them to the same signedness");
  return integerPromote(a, b);
}

std::pair<Tensor, Tensor> CodeGen::binaryOperands(const Object &a, const Object &b, const Span &span,
                                                  bool allowLhsPtr, bool allowRhsPtr, bool arithmeticCheck,
                                                  bool divOrMod) {
  bool aPy = a.isPyNumber(), bPy = b.isPyNumber();
  if (!aPy && !a.isTensor())
    error(span, "unsupported operand: " + a.describe());
  if (!bPy && !b.isTensor())
    error(span, "unsupported operand: " + b.describe());
  // The literal's own type, before promotion (no IR is made for it yet).
  auto literalType = [&](const Object &o) -> DType {
    if (o.kind == Object::Kind::Bool)
      return DType::i1();
    if (o.kind == Object::Kind::Float) {
      double x = std::fabs(o.floatValue);
      bool f32 = std::isinf(x) || x == 0.0 || std::isnan(x) ||
                 (x >= std::ldexp(1.0, -126) && x <= std::ldexp(2.0 - std::ldexp(1.0, -23), 127));
      return f32 ? DType::f32() : DType::f64();
    }
    PyInt v = o.intValue;
    if (v >= -(PyInt(1) << 31) && v < (PyInt(1) << 31))
      return DType::i32();
    if (v >= 0 && v < (PyInt(1) << 32))
      return DType::u32();
    if (v >= -(PyInt(1) << 63) && v < (PyInt(1) << 63))
      return DType::i64();
    if (v >= 0 && v < (PyInt(1) << 64))
      return DType::u64();
    error(span, "integer " + pyIntStr(v) + " cannot be represented as a 64-bit tensor");
  };
  DType ta = aPy ? literalType(a) : a.tensor.dtype;
  DType tb = bPy ? literalType(b) : b.tensor.dtype;
  if (ta.isPtr() && !allowLhsPtr)
    error(span, "unsupported operand type " + ta.name() + " for this operation");
  if (tb.isPtr() && !allowRhsPtr)
    error(span, "unsupported operand type " + tb.name() + " for this operation");
  if (ta.isPtr() && tb.isPtr())
    error(span, "cannot add pointers together");
  if ((ta.isPtr() && tb.isFloat()) || (tb.isPtr() && ta.isFloat()))
    error(span,
          "cannot use a floating-point value as a pointer offset (" + ta.name() + " and " + tb.name() + ")");
  Tensor x, y;
  if (arithmeticCheck && !ta.isPtr() && !tb.isPtr()) {
    DType ret = computationType(ta, aPy, tb, bPy, divOrMod, span);
    if (ret.isFp8())
      error(span, "arithmetic on " + ret.name() +
                      " is not supported: fp8 types are for storage and tl.dot; "
                      "convert to tl.float16 or tl.float32 first");
    auto negative = [](const Object &o) {
      return (o.kind == Object::Kind::Int && o.intValue < 0) ||
             (o.kind == Object::Kind::Float && o.floatValue < 0);
    };
    if (ret.isUnsigned && ret.isInt() && ((aPy && negative(a)) || (bPy && negative(b))))
      error(span, "cannot perform a binary operation between an unsigned tensor and a negative scalar; "
                  "cast one of them explicitly");
    x = aPy ? constant(a, ret, {}, span) : cast(a.tensor, ret, span);
    y = bPy ? constant(b, ret, {}, span) : cast(b.tensor, ret, span);
  } else {
    x = aPy ? constant(a, ta, {}, span) : a.tensor;
    y = bPy ? constant(b, tb, {}, span) : b.tensor;
  }
  return broadcastPair(x, y, span);
}

Tensor CodeGen::where(const Object &condObj, const Object &xObj, const Object &yObj, const Span &span) {
  Tensor cond = toTensor(condObj, span);
  cond = cast(cond, DType::i1(), span);
  bool xPtr = xObj.isTensor() && xObj.tensor.dtype.isPtr(),
       yPtr = yObj.isTensor() && yObj.tensor.dtype.isPtr();
  Tensor x, y;
  if (xPtr || yPtr) {
    if (!xPtr || !yPtr || xObj.tensor.dtype != yObj.tensor.dtype)
      error(span, "tl.where: both values must have one pointer type, got " + xObj.describe() + " and " +
                      yObj.describe());
    std::tie(x, y) = broadcastPair(xObj.tensor, yObj.tensor, span);
  } else {
    std::tie(x, y) = binaryOperands(xObj, yObj, span);
  }
  if (cond.isBlock() || x.isBlock()) {
    std::tie(cond, x) = broadcastPair(cond, x, span);
    std::tie(x, y) = broadcastPair(x, y, span);
    std::tie(cond, x) = broadcastPair(cond, x, span);
  }
  return Tensor{b_.select(cond.value, x.value, y.value), x.dtype};
}

} // namespace trident::frontend
