// Python operators on tensors with Triton's meaning: + - * / // % & | ^ << >>,
// comparisons, unary - + ~ not, and the min/max/logical helpers built on them.

#include "CodeGen.h"

namespace trident::frontend {

namespace {

const char *opName(BinOpKind op) { return spelling(op); }

} // namespace

Object CodeGen::binary(BinOpKind op, const Object &a, const Object &b, const Span &span) {
  if (auto folded = foldBinary(op, a, b, span))
    return *folded;
  if ((!a.isTensor() && !a.isPyNumber()) || (!b.isTensor() && !b.isPyNumber()))
    error(span, std::string("unsupported operand types for ") + opName(op) + ": " + a.describe() + " and " +
                    b.describe());
  switch (op) {
  case BinOpKind::Add: {
    auto [x, y] = binaryOperands(a, b, span, true, true);
    if (y.dtype.isPtr())
      std::swap(x, y);
    if (x.dtype.isPtr()) {
      // tt.addptr reads offsets as signed: widen unsigned ones first.
      if (y.dtype.isUnsigned && y.dtype.bits() < 64)
        y = cast(y, DType::u64(), span);
      return Object::ofTensor(b_.addPtr(x.value, y.value), x.dtype);
    }
    return Object::ofTensor(b_.binary(x.dtype.isFloat() ? OpCode::AddF : OpCode::AddI, x.value, y.value),
                            x.dtype);
  }
  case BinOpKind::Sub: {
    auto [x, y] = binaryOperands(a, b, span, true, false);
    if (x.dtype.isPtr()) {
      if (y.dtype.isUnsigned && y.dtype.bits() < 64)
        y = cast(y, DType::u64(), span);
      Tensor zero = constantInt(0, y.dtype, y.shape());
      Value *neg = b_.binary(OpCode::SubI, zero.value, y.value);
      return Object::ofTensor(b_.addPtr(x.value, neg), x.dtype);
    }
    return Object::ofTensor(b_.binary(x.dtype.isFloat() ? OpCode::SubF : OpCode::SubI, x.value, y.value),
                            x.dtype);
  }
  case BinOpKind::Mul: {
    auto [x, y] = binaryOperands(a, b, span);
    return Object::ofTensor(b_.binary(x.dtype.isFloat() ? OpCode::MulF : OpCode::MulI, x.value, y.value),
                            x.dtype);
  }
  case BinOpKind::Div: {
    auto [x, y] = binaryOperands(a, b, span, false, false, true, true);
    if (x.dtype.isFloat() && y.dtype.isInt()) {
      y = cast(y, x.dtype, span);
    } else if (x.dtype.isInt() && y.dtype.isFloat()) {
      x = cast(x, y.dtype, span);
    } else if (x.dtype.isInt() && y.dtype.isInt()) {
      x = cast(x, DType::f32(), span);
      y = cast(y, DType::f32(), span);
    } else if (x.dtype.mantissaBits() > y.dtype.mantissaBits()) {
      y = cast(y, x.dtype, span);
    } else {
      x = cast(x, y.dtype, span);
    }
    return Object::ofTensor(b_.binary(OpCode::DivF, x.value, y.value), x.dtype);
  }
  case BinOpKind::FloorDiv: {
    auto [x, y] = binaryOperands(a, b, span, false, false, true, true);
    if (!x.dtype.isInt() || !y.dtype.isInt())
      error(span, "floor division (//) is only supported on integers, got " + x.dtype.name());
    DType t = integerPromote(x.dtype, y.dtype);
    x = cast(x, t, span);
    y = cast(y, t, span);
    return Object::ofTensor(b_.binary(t.isUnsigned ? OpCode::DivUI : OpCode::DivSI, x.value, y.value), t);
  }
  case BinOpKind::Mod: {
    auto [x, y] = binaryOperands(a, b, span, false, false, true, true);
    if (x.dtype.isFloat()) {
      // Python's sign convention: x - floor(x / y) * y.
      Value *q = b_.unary(OpCode::Floor, b_.binary(OpCode::DivF, x.value, y.value));
      Value *r = b_.binary(OpCode::SubF, x.value, b_.binary(OpCode::MulF, q, y.value));
      return Object::ofTensor(r, x.dtype);
    }
    if (x.dtype.isUnsigned != y.dtype.isUnsigned)
      error(span, "cannot mod " + x.dtype.name() + " by " + y.dtype.name() +
                      " because they have different signedness; cast them to the same signedness");
    return Object::ofTensor(b_.binary(x.dtype.isUnsigned ? OpCode::RemUI : OpCode::RemSI, x.value, y.value),
                            x.dtype);
  }
  case BinOpKind::BitAnd:
  case BinOpKind::BitOr:
  case BinOpKind::BitXor:
  case BinOpKind::LShift:
  case BinOpKind::RShift: {
    // Triton picks the kind of right shift from the tensor operand's own signedness.
    bool signedShift = a.isTensor() ? a.tensor.dtype.isSigned() : b.tensor.dtype.isSigned();
    auto [x, y] = binaryOperands(a, b, span, false, false, false);
    if (!x.dtype.isInt() || !y.dtype.isInt())
      error(span, std::string("bitwise operator ") + opName(op) + " needs integer operands, got " +
                      x.dtype.name() + " and " + y.dtype.name());
    DType t = integerPromote(x.dtype, y.dtype);
    x = cast(x, t, span);
    y = cast(y, t, span);
    OpCode code = op == BinOpKind::BitAnd   ? OpCode::AndI
                  : op == BinOpKind::BitOr  ? OpCode::OrI
                  : op == BinOpKind::BitXor ? OpCode::XOrI
                  : op == BinOpKind::LShift ? OpCode::ShLI
                  : signedShift             ? OpCode::ShRSI
                                            : OpCode::ShRUI;
    return Object::ofTensor(b_.binary(code, x.value, y.value), t);
  }
  case BinOpKind::Pow: error(span, "'**' is only supported on compile-time constants");
  case BinOpKind::MatMul: error(span, "'@' is not supported, use tl.dot");
  }
  error(span, "unsupported operator");
}

Object CodeGen::compare(CmpOpKind op, const Object &a, const Object &b, const Span &span) {
  if (auto folded = foldCompare(op, a, b, span))
    return *folded;
  if ((!a.isTensor() && !a.isPyNumber()) || (!b.isTensor() && !b.isPyNumber()))
    error(span, std::string("unsupported operand types for ") + spelling(op) + ": " + a.describe() + " and " +
                    b.describe());
  auto [x, y] = binaryOperands(a, b, span);
  if (x.dtype.isFloat()) {
    const char *pred = op == CmpOpKind::Eq      ? "oeq"
                       : op == CmpOpKind::NotEq ? "une"
                       : op == CmpOpKind::Lt    ? "olt"
                       : op == CmpOpKind::LtE   ? "ole"
                       : op == CmpOpKind::Gt    ? "ogt"
                                                : "oge";
    return Object::ofTensor(b_.cmpf(pred, x.value, y.value), DType::i1());
  }
  bool u = x.dtype.isUnsigned && !x.dtype.isBool();
  const char *pred = op == CmpOpKind::Eq      ? "eq"
                     : op == CmpOpKind::NotEq ? "ne"
                     : op == CmpOpKind::Lt    ? (u ? "ult" : "slt")
                     : op == CmpOpKind::LtE   ? (u ? "ule" : "sle")
                     : op == CmpOpKind::Gt    ? (u ? "ugt" : "sgt")
                                              : (u ? "uge" : "sge");
  return Object::ofTensor(b_.cmpi(pred, x.value, y.value), DType::i1());
}

Object CodeGen::unary(UnaryOpKind op, const Object &a, const Span &span) {
  if (auto folded = foldUnary(op, a, span))
    return *folded;
  if (!a.isTensor())
    error(span, std::string("bad operand for unary ") + spelling(op) + ": " + a.describe());
  const Tensor &t = a.tensor;
  if (t.dtype.isPtr() || t.dtype.isFp8())
    error(span, std::string("unary ") + spelling(op) + " is not supported on " + t.dtype.name());
  switch (op) {
  case UnaryOpKind::Pos: return a;
  case UnaryOpKind::Neg: {
    // Triton computes 0 - x.
    if (t.dtype.isFloat()) {
      Tensor zero = constant(Object::floating(0.0), t.dtype, t.shape(), span);
      return Object::ofTensor(b_.binary(OpCode::SubF, zero.value, t.value), t.dtype);
    }
    Tensor zero = constantInt(0, t.dtype, t.shape());
    return Object::ofTensor(b_.binary(OpCode::SubI, zero.value, t.value), t.dtype);
  }
  case UnaryOpKind::Invert: {
    if (!t.dtype.isInt())
      error(span, "unary ~ needs an integer operand, got " + t.dtype.name());
    Tensor ones = t.dtype.isBool() ? constantInt(1, t.dtype, t.shape()) : constantInt(-1, t.dtype, t.shape());
    return Object::ofTensor(b_.binary(OpCode::XOrI, t.value, ones.value), t.dtype);
  }
  case UnaryOpKind::Not: {
    Tensor cond = toBool(t, span);
    Tensor one = constantInt(1, DType::i1(), cond.shape());
    return Object::ofTensor(b_.binary(OpCode::XOrI, cond.value, one.value), DType::i1());
  }
  }
  error(span, "unsupported unary operator");
}

Tensor CodeGen::minMax(bool isMax, const Object &a0, const Object &b0, bool propagateNan, const Span &span) {
  auto promoteBf16 = [&](const Object &o) {
    if (o.isTensor() && o.tensor.dtype.type == Type::bf16())
      return Object::ofTensor(cast(o.tensor, DType::f32(), span));
    return o;
  };
  Object a = promoteBf16(a0), b = promoteBf16(b0);
  if (a.isPyNumber() && b.isPyNumber())
    a = Object::ofTensor(toTensor(a, span));
  auto [x, y] = binaryOperands(a, b, span);
  OpCode code;
  if (x.dtype.isFloat())
    code = propagateNan ? (isMax ? OpCode::MaximumF : OpCode::MinimumF)
                        : (isMax ? OpCode::MaxNumF : OpCode::MinNumF);
  else if (x.dtype.isUnsigned || x.dtype.isBool())
    code = isMax ? OpCode::MaxUI : OpCode::MinUI;
  else
    code = isMax ? OpCode::MaxSI : OpCode::MinSI;
  return Tensor{b_.binary(code, x.value, y.value), x.dtype};
}

Tensor CodeGen::logical(bool isAnd, const Tensor &a, const Tensor &b, const Span &span) {
  auto [x, y] = broadcastPair(toBool(a, span), toBool(b, span), span);
  return Tensor{b_.binary(isAnd ? OpCode::AndI : OpCode::OrI, x.value, y.value), DType::i1()};
}

} // namespace trident::frontend
