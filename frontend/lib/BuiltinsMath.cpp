// Math on tensors: the elementwise functions of the block IR, abs, fma, fdiv,
// umulhi, minimum/maximum/clamp, and sigmoid/softmax built from them.

#include "CodeGen.h"

namespace trident::frontend {

namespace {

bool propagateNanArg(CodeGen &cg, const std::optional<Arg> &a) {
  if (!a)
    return false;
  const Object &o = a->value;
  if (o.is(Object::Kind::Enum) && (o.name == "PropagateNan.ALL" || o.name == "PropagateNan.NONE"))
    return o.name == "PropagateNan.ALL";
  if (o.is(Object::Kind::None))
    return false;
  cg.error(a->span, "propagate_nan must be tl.PropagateNan.ALL or tl.PropagateNan.NONE, got " + o.describe());
}

// A unary float function; fp16 and bf16 inputs are computed in fp32 and rounded back.
Object unaryFloat(CodeGen &cg, const CallArgs &args, OpCode code, const std::string &name) {
  auto a = args.bind(cg, {"x"});
  Tensor x = cg.tensorArg(*a[0]);
  if (!x.dtype.isFloat() || x.dtype.isFp8())
    cg.error(a[0]->span,
             "tl." + name + " expects a floating-point tensor (fp32 or fp64), got " + x.dtype.name());
  Builder &b = cg.builder();
  if (x.dtype.type == Type::f16() || x.dtype.type == Type::bf16()) {
    Tensor wide = cg.cast(x, DType::f32(), args.span);
    Tensor r{b.unary(code, wide.value), DType::f32()};
    return Object::ofTensor(cg.cast(r, x.dtype, args.span));
  }
  return Object::ofTensor(b.unary(code, x.value), x.dtype);
}

Object absolute(CodeGen &cg, const CallArgs &args) {
  auto a = args.bind(cg, {"x"});
  Tensor x = cg.tensorArg(*a[0]);
  if (x.dtype.isFloat())
    return Object::ofTensor(cg.builder().unary(OpCode::AbsF, x.value), x.dtype);
  if (x.dtype.isInt()) {
    if (x.dtype.isUnsigned || x.dtype.isBool())
      return Object::ofTensor(x);
    return Object::ofTensor(cg.builder().unary(OpCode::AbsI, x.value), x.dtype);
  }
  cg.error(a[0]->span, "tl.abs does not support " + x.dtype.name());
}

Object fdiv(CodeGen &cg, const Object &x0, const Object &y0, bool ieee, const Span &span) {
  auto [x, y] = cg.binaryOperands(x0, y0, span, false, false, false, true);
  if (!x.dtype.isFloat() || !y.dtype.isFloat())
    cg.error(span, "both operands of fdiv must be floating point, got " + x.dtype.name() + " and " +
                       y.dtype.name());
  if (x.dtype != y.dtype) {
    DType t = x.dtype.mantissaBits() >= y.dtype.mantissaBits() ? x.dtype : y.dtype;
    x = cg.cast(x, t, span);
    y = cg.cast(y, t, span);
  }
  return Object::ofTensor(cg.builder().binary(ieee ? OpCode::PreciseDivF : OpCode::DivF, x.value, y.value),
                          x.dtype);
}

} // namespace

void registerMathBuiltins(BuiltinTable &t) {
  const std::pair<const char *, OpCode> unary[] = {{"exp", OpCode::Exp},     {"exp2", OpCode::Exp2},
                                                   {"log", OpCode::Log},     {"log2", OpCode::Log2},
                                                   {"cos", OpCode::Cos},     {"sin", OpCode::Sin},
                                                   {"sqrt", OpCode::Sqrt},   {"sqrt_rn", OpCode::PreciseSqrt},
                                                   {"rsqrt", OpCode::Rsqrt}, {"floor", OpCode::Floor},
                                                   {"ceil", OpCode::Ceil},   {"erf", OpCode::Erf}};
  for (auto [name, code] : unary) {
    std::string n = name;
    OpCode c = code;
    t["tl." + n] = [n, c](CodeGen &cg, const CallArgs &args) { return unaryFloat(cg, args, c, n); };
  }
  t["tl.abs"] = absolute;
  // tl.add/sub/mul: the operators (sanitize_overflow only matters in Triton's
  // sanitizer mode, which checks for overflow without changing results).
  const std::pair<const char *, BinOpKind> ops[] = {
      {"tl.add", BinOpKind::Add}, {"tl.sub", BinOpKind::Sub}, {"tl.mul", BinOpKind::Mul}};
  for (auto [name, op] : ops) {
    BinOpKind k = op;
    t[name] = [k](CodeGen &cg, const CallArgs &args) {
      auto a = args.bind(cg, {"x", "y", "sanitize_overflow="});
      return cg.binary(k, a[0]->value, a[1]->value, args.span);
    };
  }
  t["tl.fma"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"x", "y", "z"});
    auto [x, y] = cg.binaryOperands(a[0]->value, a[1]->value, args.span);
    auto [z, x2] = cg.binaryOperands(a[2]->value, Object::ofTensor(x), args.span);
    auto [z2, y2] = cg.binaryOperands(Object::ofTensor(z), Object::ofTensor(y), args.span);
    std::tie(x2, y2) = cg.broadcastPair(x2, y2, args.span);
    std::tie(x2, z2) = cg.broadcastPair(x2, z2, args.span);
    std::tie(y2, z2) = cg.broadcastPair(y2, z2, args.span);
    if (!x2.dtype.isFloat() || !y2.dtype.isFloat() || !z2.dtype.isFloat())
      cg.error(args.span, "tl.fma expects floating-point operands, got " + x2.dtype.name());
    y2 = cg.cast(y2, x2.dtype, args.span);
    z2 = cg.cast(z2, x2.dtype, args.span);
    return Object::ofTensor(cg.builder().fma(x2.value, y2.value, z2.value), x2.dtype);
  };
  t["tl.fdiv"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"x", "y", "ieee_rounding="});
    bool ieee = a[2] && cg.boolArg(*a[2], "ieee_rounding");
    return fdiv(cg, a[0]->value, a[1]->value, ieee, args.span);
  };
  t["tl.div_rn"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"x", "y"});
    return fdiv(cg, a[0]->value, a[1]->value, true, args.span);
  };
  t["tl.umulhi"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"x", "y"});
    auto [x, y] = cg.binaryOperands(a[0]->value, a[1]->value, args.span);
    if (!x.dtype.isInt() || x.dtype.isBool() || x.dtype.bits() < 32)
      cg.error(args.span, "tl.umulhi expects 32- or 64-bit integers, got " + x.dtype.name());
    return Object::ofTensor(cg.builder().binary(OpCode::UMulHi, x.value, y.value), x.dtype);
  };
  t["tl.maximum"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"x", "y", "propagate_nan="});
    return Object::ofTensor(cg.minMax(true, a[0]->value, a[1]->value, propagateNanArg(cg, a[2]), args.span));
  };
  t["tl.minimum"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"x", "y", "propagate_nan="});
    return Object::ofTensor(cg.minMax(false, a[0]->value, a[1]->value, propagateNanArg(cg, a[2]), args.span));
  };
  t["tl.clamp"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"x", "min", "max", "propagate_nan="});
    bool nan = propagateNanArg(cg, a[3]);
    auto [lo, x] = cg.binaryOperands(a[1]->value, a[0]->value, args.span);
    auto [hi, x2] = cg.binaryOperands(a[2]->value, Object::ofTensor(x), args.span);
    std::tie(lo, x2) = cg.broadcastPair(lo, x2, args.span);
    std::tie(hi, x2) = cg.broadcastPair(hi, x2, args.span);
    std::tie(lo, hi) = cg.broadcastPair(lo, hi, args.span);
    if (!x2.dtype.isFloat() || lo.dtype != x2.dtype || hi.dtype != x2.dtype)
      cg.error(args.span, "tl.clamp only supports floating point, got " + x2.dtype.name());
    Builder &b = cg.builder();
    Value *low = b.binary(nan ? OpCode::MaximumF : OpCode::MaxNumF, x2.value, lo.value);
    return Object::ofTensor(b.binary(nan ? OpCode::MinimumF : OpCode::MinNumF, low, hi.value), x2.dtype);
  };
  t["tl.sigmoid"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"x"});
    Object neg = cg.unary(UnaryOpKind::Neg, Object::ofTensor(cg.tensorArg(*a[0])), args.span);
    CallArgs expArgs;
    expArgs.callee = "tl.exp";
    expArgs.span = args.span;
    expArgs.positional.push_back(Arg{neg, args.span, nullptr});
    Object e = cg.builtins().at("tl.exp")(cg, expArgs);
    Object den = cg.binary(BinOpKind::Add, Object::integer(1), e, args.span);
    return cg.binary(BinOpKind::Div, Object::integer(1), den, args.span);
  };
  t["tl.softmax"] = [](CodeGen &cg, const CallArgs &args) {
    auto a = args.bind(cg, {"x", "dim=", "keep_dims=", "ieee_rounding="});
    Object x = Object::ofTensor(cg.tensorArg(*a[0]));
    Arg dim =
        a[1] && !a[1]->value.is(Object::Kind::None) ? *a[1] : Arg{Object::integer(0), args.span, nullptr};
    Arg keep = a[2] ? *a[2] : Arg{Object::boolean(false), args.span, nullptr};
    bool ieee = a[3] && cg.boolArg(*a[3], "ieee_rounding");
    auto reduce = [&](const char *fn, const Object &v) {
      CallArgs r;
      r.callee = fn;
      r.span = args.span;
      r.positional = {Arg{v, args.span, nullptr}, dim};
      r.keywords.emplace_back("keep_dims", keep);
      return cg.builtins().at(fn)(cg, r);
    };
    Object z = cg.binary(BinOpKind::Sub, x, reduce("tl.max", x), args.span);
    CallArgs expArgs;
    expArgs.callee = "tl.exp";
    expArgs.span = args.span;
    expArgs.positional.push_back(Arg{z, args.span, nullptr});
    Object num = cg.builtins().at("tl.exp")(cg, expArgs);
    Object den = reduce("tl.sum", num);
    return fdiv(cg, num, den, ieee, args.span);
  };
}

} // namespace trident::frontend
