// Scalar arithmetic, comparisons, casts, math functions and pointer arithmetic.
#include "Translator.h"

#include "trident/ir/MathOps.h"

#include <llvm/IR/Constants.h>
#include <llvm/IR/Intrinsics.h>

namespace trident::llvmgen {

namespace {

llvm::CmpInst::Predicate intPredicate(const std::string &p) {
  using P = llvm::CmpInst::Predicate;
  if (p == "eq")
    return P::ICMP_EQ;
  if (p == "ne")
    return P::ICMP_NE;
  if (p == "slt")
    return P::ICMP_SLT;
  if (p == "sle")
    return P::ICMP_SLE;
  if (p == "sgt")
    return P::ICMP_SGT;
  if (p == "sge")
    return P::ICMP_SGE;
  if (p == "ult")
    return P::ICMP_ULT;
  if (p == "ule")
    return P::ICMP_ULE;
  if (p == "ugt")
    return P::ICMP_UGT;
  if (p == "uge")
    return P::ICMP_UGE;
  return P::BAD_ICMP_PREDICATE;
}

llvm::CmpInst::Predicate floatPredicate(const std::string &p) {
  using P = llvm::CmpInst::Predicate;
  if (p == "oeq")
    return P::FCMP_OEQ;
  if (p == "one")
    return P::FCMP_ONE;
  if (p == "olt")
    return P::FCMP_OLT;
  if (p == "ole")
    return P::FCMP_OLE;
  if (p == "ogt")
    return P::FCMP_OGT;
  if (p == "oge")
    return P::FCMP_OGE;
  if (p == "ord")
    return P::FCMP_ORD;
  if (p == "ueq")
    return P::FCMP_UEQ;
  if (p == "une")
    return P::FCMP_UNE;
  if (p == "ult")
    return P::FCMP_ULT;
  if (p == "ule")
    return P::FCMP_ULE;
  if (p == "ugt")
    return P::FCMP_UGT;
  if (p == "uge")
    return P::FCMP_UGE;
  if (p == "uno")
    return P::FCMP_UNO;
  return P::BAD_FCMP_PREDICATE;
}

bool isNarrowFloat(Type t) { return t == Type::f8e4m3() || t == Type::f8e5m2(); }

// Shifts by the bit width or more are defined in Trident (docs/ir.md): 0 for shl and
// shrui, the sign everywhere for shrsi. LLVM's shifts are poison there, so the amount
// is checked; LLVM drops the check where it knows the amount's range (`s & 31`).
llvm::Value *definedShift(llvm::IRBuilder<> &b, OpCode code, llvm::Value *x, llvm::Value *s) {
  llvm::Value *width = llvm::ConstantInt::get(s->getType(), s->getType()->getScalarSizeInBits());
  llvm::Value *inRange = b.CreateICmpULT(s, width);
  if (code == OpCode::ShRSI) {
    llvm::Value *last = llvm::ConstantInt::get(s->getType(), s->getType()->getScalarSizeInBits() - 1);
    return b.CreateAShr(x, b.CreateSelect(inRange, s, last));
  }
  llvm::Value *shifted = code == OpCode::ShLI ? b.CreateShl(x, s) : b.CreateLShr(x, s);
  return b.CreateSelect(inRange, shifted, llvm::Constant::getNullValue(x->getType()));
}

// ArithOps.def's llvm column: an instruction or an intrinsic on the two operands, or the
// op's own case in translateArith.
struct ArithLlvm {
  enum Kind : uint8_t { Own, BinOp, Intrinsic } kind;
  unsigned id; // llvm::Instruction::BinaryOps or llvm::Intrinsic::ID
};

ArithLlvm arithLlvm(OpCode code) {
#define binop(X) ArithLlvm{ArithLlvm::BinOp, llvm::Instruction::X}
#define intrinsic(X) ArithLlvm{ArithLlvm::Intrinsic, llvm::Intrinsic::X}
#define own ArithLlvm{ArithLlvm::Own, 0}
  switch (code) {
#define TRIDENT_ARITH_OP(Id, Name, Arity, Elements, Traits, Llvm, ...) case OpCode::Id: return Llvm;
#include "trident/ir/ArithOps.def"
#undef TRIDENT_ARITH_OP
  default: return own;
  }
#undef binop
#undef intrinsic
#undef own
}

} // namespace

bool Translator::translateArith(Op *op) {
  auto x = [&](unsigned i) { return value(op->operand(i)); };
  Type resultType = op->numResults() ? op->result()->type() : Type();
  if (ArithLlvm arith = arithLlvm(op->code()); arith.kind != ArithLlvm::Own) {
    define(op->result(), arith.kind == ArithLlvm::BinOp
                             ? b.CreateBinOp(llvm::Instruction::BinaryOps(arith.id), x(0), x(1))
                             : b.CreateBinaryIntrinsic(llvm::Intrinsic::ID(arith.id), x(0), x(1)));
    return true;
  }
  llvm::Value *r = nullptr;
  switch (op->code()) {
  case OpCode::Constant: {
    const Attribute &v = op->attr("value");
    llvm::Type *t = type(resultType);
    if (v.isBool())
      r = llvm::ConstantInt::get(t, v.getBool() ? 1 : 0);
    else if (v.isInt())
      r = llvm::ConstantInt::get(t, static_cast<uint64_t>(v.getInt()), true);
    else if (isNarrowFloat(resultType))
      return error(op, "arith.constant of " + resultType.str() + " is not supported by the LLVM backend yet");
    else
      r = llvm::ConstantFP::get(t, v.getFloat());
    break;
  }
  case OpCode::ShLI:
  case OpCode::ShRSI:
  case OpCode::ShRUI: r = definedShift(b, op->code(), x(0), x(1)); break;
  case OpCode::UMulHi: {
    unsigned bits = resultType.bitWidth();
    llvm::Type *wide = b.getIntNTy(2 * bits);
    llvm::Value *p = b.CreateMul(b.CreateZExt(x(0), wide), b.CreateZExt(x(1), wide));
    r = b.CreateTrunc(b.CreateLShr(p, bits), type(resultType));
    break;
  }
  case OpCode::DivF:
    r = hooks.approximateDivide(b, x(0), x(1));
    if (!r)
      r = b.CreateFDiv(x(0), x(1));
    break;
  case OpCode::NegF: r = b.CreateFNeg(x(0)); break;
  case OpCode::CmpI: {
    llvm::CmpInst::Predicate p = intPredicate(op->stringAttr("predicate"));
    if (p == llvm::CmpInst::BAD_ICMP_PREDICATE)
      return error(op, "arith.cmpi has an unknown predicate '" + op->stringAttr("predicate") + "'");
    r = b.CreateICmp(p, x(0), x(1));
    break;
  }
  case OpCode::CmpF: {
    llvm::CmpInst::Predicate p = floatPredicate(op->stringAttr("predicate"));
    if (p == llvm::CmpInst::BAD_FCMP_PREDICATE)
      return error(op, "arith.cmpf has an unknown predicate '" + op->stringAttr("predicate") + "'");
    r = b.CreateFCmp(p, x(0), x(1));
    break;
  }
  case OpCode::Select: r = b.CreateSelect(x(0), x(1), x(2)); break;
  case OpCode::AddPtr: r = b.CreateGEP(type(resultType.pointee()), x(0), x(1)); break;
  default:
    if (op->has(kElementwise) && op->numOperands() == 1 && op->name().starts_with("arith."))
      return translateCast(op);
    switch (op->code()) {
    case OpCode::PtrToInt:
    case OpCode::IntToPtr:
    case OpCode::Bitcast: return translateCast(op);
    default: break;
    }
    if (mathOpInfo(op->code()))
      return translateMath(op);
    return error(op, std::string(op->name()) + " is not supported by the LLVM backend");
  }
  define(op->result(), r);
  return true;
}

bool Translator::translateCast(Op *op) {
  Type from = op->operand(0)->type(), to = op->result()->type();
  llvm::Value *v = value(op->operand(0));
  llvm::Type *t = type(to);
  // f8 values are their bits (i8); the SIMT lowering expands every conversion of them.
  if ((isNarrowFloat(from) || isNarrowFloat(to)) && !op->is(OpCode::Bitcast))
    return error(op, std::string(op->name()) + " from " + from.str() + " to " + to.str() +
                         " must be expanded by the SIMT lowering");
  llvm::Value *r = nullptr;
  switch (op->code()) {
  case OpCode::ExtSI: r = b.CreateSExt(v, t); break;
  case OpCode::ExtUI: r = b.CreateZExt(v, t); break;
  case OpCode::TruncI: r = b.CreateTrunc(v, t); break;
  case OpCode::SIToFP: // of an i1: a select after the optimizer (Optimize.h), as NVPTX needs
    r = b.CreateSIToFP(v, t);
    break;
  case OpCode::UIToFP: r = b.CreateUIToFP(v, t); break;
  // Trident defines out-of-range conversions as saturating (docs/ir.md).
  case OpCode::FPToSI: r = b.CreateIntrinsic(llvm::Intrinsic::fptosi_sat, {t, v->getType()}, {v}); break;
  case OpCode::FPToUI: r = b.CreateIntrinsic(llvm::Intrinsic::fptoui_sat, {t, v->getType()}, {v}); break;
  case OpCode::ExtF: r = b.CreateFPExt(v, t); break;
  case OpCode::TruncF:
    if (op->attr("rounding").isString() && op->stringAttr("rounding") == "rtz")
      return error(op, "arith.truncf with rounding \"rtz\" must be expanded by the SIMT lowering");
    r = b.CreateFPTrunc(v, t);
    break;
  case OpCode::PtrToInt: r = b.CreatePtrToInt(v, t); break;
  case OpCode::IntToPtr: r = b.CreateIntToPtr(v, t); break;
  case OpCode::Bitcast: r = b.CreateBitCast(v, t); break;
  default: return error(op, std::string(op->name()) + " is not supported by the LLVM backend");
  }
  define(op->result(), r);
  return true;
}

namespace {

// MathOps.def's llvm column.
llvm::Intrinsic::ID mathIntrinsic(OpCode code) {
  switch (code) {
#define TRIDENT_MATH_OP(Id, Name, Arity, Elements, Scalar, Llvm, ...)                             \
  case OpCode::Id: return llvm::Intrinsic::Llvm;
#include "trident/ir/MathOps.def"
#undef TRIDENT_MATH_OP
  default: return llvm::Intrinsic::not_intrinsic;
  }
}

} // namespace

// The math ops (MathOps.def): the target's function (hooks: libdevice, ocml, the C
// library) where it has one, else the op's LLVM intrinsic.
bool Translator::translateMath(Op *op) {
  Type t = op->result()->type();
  if (op->is(OpCode::AbsI)) {
    define(op->result(), b.CreateBinaryIntrinsic(llvm::Intrinsic::abs, value(op->operand(0)), b.getFalse()));
    return true;
  }
  // Half-precision math runs in f32, as Triton does.
  bool narrow = t == Type::f16() || t == Type::bf16();
  std::vector<llvm::Value *> args;
  for (Value *v : op->operands())
    args.push_back(narrow ? b.CreateFPExt(value(v), b.getFloatTy()) : value(v));
  llvm::Value *r = hooks.mathFunction(b, op->code(), args);
  if (!r) {
    llvm::Intrinsic::ID id = mathIntrinsic(op->code());
    if (id != llvm::Intrinsic::not_intrinsic)
      r = b.CreateIntrinsic(id, {args[0]->getType()}, args);
    else if (op->is(OpCode::Rsqrt))
      r = b.CreateFDiv(llvm::ConstantFP::get(args[0]->getType(), 1.0),
                       b.CreateUnaryIntrinsic(llvm::Intrinsic::sqrt, args[0]));
    else
      return error(op, std::string(op->name()) + " is not supported by the LLVM backend for this target");
  }
  if (narrow)
    r = b.CreateFPTrunc(r, type(t));
  define(op->result(), r);
  return true;
}

} // namespace trident::llvmgen
