// Constants, integer and float arithmetic, comparisons and selection. Where
// SPIR-V leaves a case undefined that Trident defines (shifts by the width or
// more, INT_MIN / -1, NaN and signed zeros in min/max), the exact answer is
// selected explicitly; guards vanish when an operand is a known constant.
#include "Translator.h"

#include "trident/ir/ArithOps.h"
#include "trident/support/FloatFormats.h"

#include <bit>
#include <cstdlib>
#include <cstring>

namespace trident::spirv {

namespace {

uint64_t allOnes(unsigned bits) { return bits >= 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1; }

bool translateConstant(Translator &t, Op *op) {
  Type type = op->result()->type();
  Type e = type.element();
  uint32_t st = t.valueType(e);
  const Attribute &value = op->attr("value");
  uint64_t bits = 0;
  if (e == Type::i1()) {
    bits = value.isBool() ? value.getBool() : (value.isInt() && value.getInt() != 0);
  } else if (e.isInteger()) {
    if (!value.isInt())
      return t.error(op, "needs an integer 'value'");
    bits = uint64_t(value.getInt()) & allOnes(e.bitWidth());
  } else if (e.isFloat()) {
    double v = value.isFloat() ? value.getFloat() : value.isInt() ? double(value.getInt()) : 0.0;
    switch (e.kind()) {
    case TypeKind::F16: bits = encodeFloat(v, FloatFormat::F16); break;
    case TypeKind::BF16: bits = encodeFloat(v, FloatFormat::BF16); break;
    case TypeKind::F8E4M3: bits = encodeFloat(v, FloatFormat::F8E4M3); break;
    case TypeKind::F8E5M2: bits = encodeFloat(v, FloatFormat::F8E5M2); break;
    case TypeKind::F32: bits = std::bit_cast<uint32_t>(float(v)); break;
    default: bits = std::bit_cast<uint64_t>(v); break;
    }
  } else {
    return t.error(op, "of type " + type.str() + " cannot be translated");
  }
  uint32_t id = t.constant(st, bits);
  t.set(op->result(), Ids(type.isVector() ? size_t(type.numElements()) : 1, id));
  return true;
}

// ---- integers ----

// ArithOps.def's spirv and spirvBool columns: the instruction of a plain binary op, the
// comparison a min or max selects by, and the logical instruction of an integer op on i1.
struct ArithSpirv {
  enum Kind : uint8_t { Own, Binary, Pick } kind;
  Spv spv;
  std::optional<Spv> onBool;
};

ArithSpirv arithSpirv(OpCode code) {
#define own ArithSpirv::Own, Spv{}
#define binary(X) ArithSpirv::Binary, Spv::X
#define pick(X) ArithSpirv::Pick, Spv::X
#define logical(X) std::optional<Spv>(Spv::X)
#define none std::nullopt
  switch (code) {
#define TRIDENT_ARITH_OP(Id, Name, Arity, Elements, Traits, Llvm, Spirv, SpirvBool)               \
  case OpCode::Id: return ArithSpirv{Spirv, SpirvBool};
#include "trident/ir/ArithOps.def"
#undef TRIDENT_ARITH_OP
  default: return ArithSpirv{ArithSpirv::Own, Spv{}, std::nullopt};
  }
#undef own
#undef binary
#undef pick
#undef logical
#undef none
}

// Integer ops on i1 (bools): the ones with a logical equivalent.
bool translateBoolArith(Translator &t, Op *op) {
  std::optional<Spv> spv = arithSpirv(op->code()).onBool;
  if (!spv)
    return t.error(op, "on i1 cannot be translated");
  uint32_t b = t.boolType();
  mapComponents(t, op, [&](const std::vector<uint32_t> &a) { return t.emit(*spv, b, {a[0], a[1]}); });
  return true;
}

// `a` op `b` for a shift: Trident defines amounts >= width (0, or all sign bits).
uint32_t shift(Translator &t, OpCode code, uint32_t type, unsigned width, uint32_t a, uint32_t b) {
  Spv spv = code == OpCode::ShLI ? Spv::ShiftLeftLogical
           : code == OpCode::ShRUI ? Spv::ShiftRightLogical
                                   : Spv::ShiftRightArithmetic;
  std::optional<uint64_t> k = t.constantValue(b);
  if (k && *k < width)
    return t.emit(spv, type, {a, b});
  uint32_t inRange = t.emit(Spv::ULessThan, t.boolType(), {b, t.constant(type, width)});
  if (code == OpCode::ShRSI) {
    uint32_t amount = t.emit(Spv::Select, type, {inRange, b, t.constant(type, width - 1)});
    return t.emit(spv, type, {a, amount});
  }
  uint32_t shifted = t.emit(spv, type, {a, b});
  return t.emit(Spv::Select, type, {inRange, shifted, t.constant(type, 0)});
}

// Signed division and remainder. The remainder is computed on magnitudes with OpUMod
// and takes the dividend's sign: drivers disagree on OpSRem with negative operands
// (NVIDIA's answers like OpSMod). Magnitudes also make INT_MIN % -1 = 0 without a
// special case. The signs are masks (x >> (width - 1), arithmetic: 0 or -1) and a
// magnitude is (x ^ s) - s, with no comparison or select: lavapipe (Mesa 22.3.6) took
// `smax(x, c) < 0` as false for a negative constant c and so dropped both negations
// (seeds 4227 and 9519: remsi(maxsi(x, INT_MIN + 1), y | 1) gave x mod |y| for negative
// x). A constant divisor's magnitude is folded here (`pid % GROUP` and the like).
// Division keeps OpSDiv (exact everywhere seen), with b == -1 answered without dividing
// (INT_MIN / -1 wraps).
uint32_t signedDivide(Translator &t, bool remainder, uint32_t type, unsigned width, uint32_t a, uint32_t b) {
  if (remainder) {
    uint32_t signShift = t.constant(type, width - 1);
    auto signOf = [&](uint32_t x) { return t.emit(Spv::ShiftRightArithmetic, type, {x, signShift}); };
    auto flip = [&](uint32_t x, uint32_t sign) { // x if sign is 0, -x if it is -1
      return t.emit(Spv::ISub, type, {t.emit(Spv::BitwiseXor, type, {x, sign}), sign});
    };
    uint32_t bMagnitude;
    if (std::optional<uint64_t> k = t.constantValue(b)) {
      uint64_t v = *k & allOnes(width);
      bMagnitude = t.constant(type, v >> (width - 1) ? (0 - v) & allOnes(width) : v);
    } else {
      bMagnitude = flip(b, signOf(b));
    }
    uint32_t aSign = signOf(a);
    uint32_t r = t.emit(Spv::UMod, type, {flip(a, aSign), bMagnitude});
    return flip(r, aSign);
  }
  std::optional<uint64_t> k = t.constantValue(b);
  uint64_t minusOne = allOnes(width);
  if (k && *k != minusOne)
    return t.emit(Spv::SDiv, type, {a, b});
  uint32_t isMinusOne = t.emit(Spv::IEqual, t.boolType(), {b, t.constant(type, minusOne)});
  uint32_t safe = t.emit(Spv::Select, type, {isMinusOne, t.constant(type, 1), b});
  uint32_t q = t.emit(Spv::SDiv, type, {a, safe});
  return t.emit(Spv::Select, type, {isMinusOne, t.emit(Spv::SNegate, type, {a}), q});
}

// Whether the comparisons, min/max, divisions, remainders and right shifts of i8 and i16
// run in 32 bits (TRIDENT_VULKAN_WIDE_NARROW_CMP, on unless "off"): the operands
// OpSConvert-ed (signed ops) or OpUConvert-ed (unsigned ones, eq, ne) to 32 bits, a
// division's or shift's result OpUConvert-ed back. NVIDIA's driver 580 on the H200 takes an
// i8 that a narrowing OpUConvert made from +128 as +128 in the OpSGreaterThan after it
// (seed 2582's reduced kernel, variant abs_wide of .dev/vk2582-bisect.sh:
// maxsi(trunci(absi(extsi(-128))), 1) gave 0x80, the same max done in 32 bits gave 1):
// its narrow values live in 32-bit registers that a narrow result does not always
// re-extend, and a comparison reads the whole register. The explicit conversion to 32
// bits re-extends from the narrow sign bit. Results that only read the low bits (add,
// mul, logic, left shifts, a select's operands) stay narrow.
bool wideNarrowOps() {
  static const bool on = [] {
    const char *v = std::getenv("TRIDENT_VULKAN_WIDE_NARROW_CMP");
    return !v || std::strcmp(v, "off") != 0;
  }();
  return on;
}

// Whether integer min/max of 32 and 64 bits are GLSL.std.450 SMin/SMax/UMin/UMax
// (TRIDENT_VULKAN_GLSL_MINMAX, on unless "off") rather than a comparison and a select.
// Lavapipe (Mesa 22.3.6) computes `maxsi(extsi(a + b) to i64, c)` as the extension
// itself when done by OpSGreaterThan and OpSelect (random seeds 417 and 2938, reduced in
// tests/e2e/reduced/lavapipe_seed*.kernel); with SMax both pass.
bool glslMinMax() {
  static const bool on = [] {
    const char *v = std::getenv("TRIDENT_VULKAN_GLSL_MINMAX");
    return !v || std::strcmp(v, "off") != 0;
  }();
  return on;
}

// x, an integer of `width` (< 32) bits, in 32 bits: sign- or zero-extended (a constant folded).
uint32_t widen(Translator &t, uint32_t x, unsigned width, bool isSigned) {
  if (std::optional<uint64_t> k = t.constantValue(x)) {
    uint64_t v = *k & allOnes(width);
    if (isSigned && (v >> (width - 1)) & 1)
      v |= ~allOnes(width);
    return t.constant(t.u32Type(), v & allOnes(32));
  }
  return t.emit(isSigned ? Spv::SConvert : Spv::UConvert, t.u32Type(), {x});
}

// The integer ops of wideNarrowOps() on i8 / i16, in 32 bits. False for the others.
bool translateWideNarrow(Translator &t, Op *op, unsigned width) {
  OpCode code = op->code();
  bool isSigned;
  switch (code) {
  case OpCode::MinSI:
  case OpCode::MaxSI:
  case OpCode::DivSI:
  case OpCode::RemSI:
  case OpCode::ShRSI: isSigned = true; break;
  case OpCode::MinUI:
  case OpCode::MaxUI:
  case OpCode::DivUI:
  case OpCode::RemUI:
  case OpCode::ShRUI: isSigned = false; break;
  default: return false;
  }
  uint32_t type = t.valueType(op->operand(0)->type().element()), u32 = t.u32Type(), b = t.boolType();
  ArithSpirv arith = arithSpirv(code);
  mapComponents(t, op, [&](const std::vector<uint32_t> &a) {
    bool ySigned = isSigned && code != OpCode::ShRSI; // a shift's amount is unsigned
    uint32_t x = widen(t, a[0], width, isSigned), y = widen(t, a[1], width, ySigned);
    if (arith.kind == ArithSpirv::Pick) { // the narrow operand picked by the wide comparison
      uint32_t pick = t.emit(arith.spv, b, {x, y});
      if (wideNarrowSelects())
        return t.emit(Spv::UConvert, type, {t.emit(Spv::Select, u32, {pick, x, y})});
      return t.emit(Spv::Select, type, {pick, a[0], a[1]});
    }
    uint32_t r;
    if (code == OpCode::DivSI || code == OpCode::RemSI)
      r = signedDivide(t, code == OpCode::RemSI, u32, 32, x, y);
    else if (code == OpCode::ShRSI || code == OpCode::ShRUI)
      r = shift(t, code, u32, width, x, y); // amounts >= width: the sign (or zero) of 32 bits
    else
      r = t.emit(arith.spv, u32, {x, y});
    return t.emit(Spv::UConvert, type, {r});
  });
  return true;
}

bool translateIntArith(Translator &t, Op *op) {
  Type e = op->operand(0)->type().element();
  if (e == Type::i1())
    return translateBoolArith(t, op);
  uint32_t type = t.valueType(e), b = t.boolType();
  unsigned width = e.bitWidth();
  OpCode code = op->code();
  if (width < 32 && wideNarrowOps() && translateWideNarrow(t, op, width))
    return true;
  auto binary = [&](Spv spv) {
    mapComponents(t, op, [&](const std::vector<uint32_t> &a) { return t.emit(spv, type, {a[0], a[1]}); });
    return true;
  };
  auto pick = [&](Spv compare) {
    if (width >= 32 && glslMinMax()) {
      Glsl inst = code == OpCode::MaxSI ? Glsl::SMax : code == OpCode::MinSI ? Glsl::SMin
                : code == OpCode::MaxUI ? Glsl::UMax : Glsl::UMin;
      mapComponents(t, op, [&](const std::vector<uint32_t> &a) { return t.glsl(inst, type, {a[0], a[1]}); });
      return true;
    }
    mapComponents(t, op, [&](const std::vector<uint32_t> &a) {
      return t.emit(Spv::Select, type, {t.emit(compare, b, {a[0], a[1]}), a[0], a[1]});
    });
    return true;
  };
  ArithSpirv arith = arithSpirv(code);
  if (arith.kind == ArithSpirv::Binary)
    return binary(arith.spv);
  if (arith.kind == ArithSpirv::Pick)
    return pick(arith.spv);
  switch (code) {
  case OpCode::DivSI:
  case OpCode::RemSI:
    mapComponents(t, op, [&](const std::vector<uint32_t> &a) {
      return signedDivide(t, code == OpCode::RemSI, type, width, a[0], a[1]);
    });
    return true;
  case OpCode::ShLI:
  case OpCode::ShRSI:
  case OpCode::ShRUI:
    mapComponents(t, op, [&](const std::vector<uint32_t> &a) { return shift(t, code, type, width, a[0], a[1]); });
    return true;
  case OpCode::UMulHi:
    mapComponents(t, op, [&](const std::vector<uint32_t> &a) {
      uint32_t both = t.emit(Spv::UMulExtended, t.pairType(type), {a[0], a[1]});
      return t.emit(Spv::CompositeExtract, type, {both, 1});
    });
    return true;
  default: return t.error(op, "cannot be translated");
  }
}

// Integer comparison; i1 operands compare as their integer readings (true = -1 signed, 1 unsigned).
bool translateCmpI(Translator &t, Op *op) {
  static const std::pair<const char *, Spv> predicates[] = {
      {"eq", Spv::IEqual},          {"ne", Spv::INotEqual},         {"slt", Spv::SLessThan},
      {"sle", Spv::SLessThanEqual}, {"sgt", Spv::SGreaterThan},     {"sge", Spv::SGreaterThanEqual},
      {"ult", Spv::ULessThan},      {"ule", Spv::ULessThanEqual},   {"ugt", Spv::UGreaterThan},
      {"uge", Spv::UGreaterThanEqual}};
  const std::string &p = op->stringAttr("predicate");
  std::optional<Spv> spv;
  for (const auto &[name, o] : predicates)
    if (p == name)
      spv = o;
  if (!spv)
    return t.error(op, "has an unknown predicate '" + p + "'");
  bool isBool = op->operand(0)->type().element() == Type::i1();
  bool isSigned = p[0] == 's';
  uint32_t b = t.boolType(), u32 = t.u32Type();
  unsigned width = op->operand(0)->type().element().bitWidth();
  bool wide = !isBool && width < 32 && wideNarrowOps(); // see wideNarrowOps()
  mapComponents(t, op, [&](const std::vector<uint32_t> &a) {
    uint32_t x = a[0], y = a[1];
    if (wide) {
      x = widen(t, x, width, isSigned);
      y = widen(t, y, width, isSigned);
    }
    if (isBool) {
      if (p == "eq")
        return t.emit(Spv::LogicalEqual, b, {x, y});
      if (p == "ne")
        return t.emit(Spv::LogicalNotEqual, b, {x, y});
      uint32_t one = t.u32(isSigned ? 0xffffffffu : 1u), zero = t.u32(0);
      x = t.emit(Spv::Select, u32, {x, one, zero});
      y = t.emit(Spv::Select, u32, {y, one, zero});
    }
    return t.emit(*spv, b, {x, y});
  });
  return true;
}

// ---- floats ----

// Runs `f` on the operands as floats of the compute type (bf16 in f32) and
// converts the result back to the element type.
void floatOp(Translator &t, Op *op, bool resultIsFloat,
             const std::function<uint32_t(uint32_t type, const std::vector<uint32_t> &)> &f) {
  Type e = op->operand(0)->type().element();
  bool viaF32 = e == Type::bf16();
  uint32_t type = viaF32 ? t.w.floatType(32) : t.valueType(e);
  mapComponents(t, op, [&](const std::vector<uint32_t> &args) {
    std::vector<uint32_t> a = args;
    if (viaF32)
      for (uint32_t &x : a)
        x = bf16ToF32(t, x);
    uint32_t r = f(type, a);
    return viaF32 && resultIsFloat ? f32ToBF16(t, r, false) : r;
  });
}

// IEEE minimum/maximum (NaN propagates) and minimumNumber/maximumNumber (NaN loses),
// with -0 below +0. GLSL's NMin/NMax answer all but two cases, in one instruction:
// when both operands equal zero, the sign of the result is the AND (max) or OR (min)
// of theirs; a NaN operand of minimum/maximum makes a NaN. A driver that flushes
// subnormals in comparisons (NVIDIA) sees two subnormals as zeros here too, which
// gives that zero: the answer on the flushed operands.
uint32_t minMax(Translator &t, uint32_t type, OpCode code, uint32_t a, uint32_t b) {
  bool isMin = code == OpCode::MinimumF || code == OpCode::MinNumF;
  bool nanWins = code == OpCode::MinimumF || code == OpCode::MaximumF;
  uint32_t boolT = t.boolType();
  unsigned width = t.w.widthOf(type);
  uint32_t bitsT = t.w.intType(width);
  uint32_t r = t.glsl(isMin ? Glsl::NMin : Glsl::NMax, type, {a, b});
  uint32_t zero = t.constant(type, 0);
  uint32_t bothZero = t.emit(Spv::LogicalAnd, boolT,
                             {t.emit(Spv::FOrdEqual, boolT, {a, zero}), t.emit(Spv::FOrdEqual, boolT, {b, zero})});
  uint32_t signs = t.emit(isMin ? Spv::BitwiseOr : Spv::BitwiseAnd, bitsT,
                          {t.emit(Spv::Bitcast, bitsT, {a}), t.emit(Spv::Bitcast, bitsT, {b})});
  uint32_t signedZero =
      t.emit(Spv::BitwiseAnd, bitsT, {signs, t.constant(bitsT, uint64_t(1) << (width - 1))});
  r = t.emit(Spv::Select, type, {bothZero, t.emit(Spv::Bitcast, type, {signedZero}), r});
  if (!nanWins)
    return r;
  uint32_t either = t.emit(Spv::LogicalOr, boolT, {t.emit(Spv::IsNan, boolT, {a}), t.emit(Spv::IsNan, boolT, {b})});
  return t.emit(Spv::Select, type, {either, t.emit(Spv::FAdd, type, {a, b}), r});
}

bool translateCmpF(Translator &t, Op *op) {
  static const std::pair<const char *, Spv> predicates[] = {
      {"oeq", Spv::FOrdEqual},          {"one", Spv::FOrdNotEqual},         {"olt", Spv::FOrdLessThan},
      {"ole", Spv::FOrdLessThanEqual},  {"ogt", Spv::FOrdGreaterThan},      {"oge", Spv::FOrdGreaterThanEqual},
      {"ueq", Spv::FUnordEqual},        {"une", Spv::FUnordNotEqual},       {"ult", Spv::FUnordLessThan},
      {"ule", Spv::FUnordLessThanEqual}, {"ugt", Spv::FUnordGreaterThan},   {"uge", Spv::FUnordGreaterThanEqual}};
  const std::string &p = op->stringAttr("predicate");
  std::optional<Spv> spv;
  for (const auto &[name, o] : predicates)
    if (p == name)
      spv = o;
  if (!spv && p != "ord" && p != "uno")
    return t.error(op, "has an unknown predicate '" + p + "'");
  uint32_t b = t.boolType();
  floatOp(t, op, false, [&](uint32_t, const std::vector<uint32_t> &a) {
    if (spv)
      return t.emit(*spv, b, {a[0], a[1]});
    uint32_t nan = t.emit(Spv::LogicalOr, b, {t.emit(Spv::IsNan, b, {a[0]}), t.emit(Spv::IsNan, b, {a[1]})});
    return p == "uno" ? nan : t.emit(Spv::LogicalNot, b, {nan});
  });
  return true;
}

bool translateFloatArith(Translator &t, Op *op) {
  OpCode code = op->code();
  auto binary = [&](Spv spv) {
    floatOp(t, op, true, [&](uint32_t type, const std::vector<uint32_t> &a) { return t.emit(spv, type, {a[0], a[1]}); });
    return true;
  };
  if (ArithSpirv arith = arithSpirv(code); arith.kind == ArithSpirv::Binary)
    return binary(arith.spv);
  switch (code) {
  case OpCode::RemF: // exactly, in f32 for f16 (bf16 is already there)
    floatOp(t, op, true, [&](uint32_t type, const std::vector<uint32_t> &a) {
      if (t.w.widthOf(type) != 16)
        return exactRemainder(t, type, a[0], a[1]);
      uint32_t f32 = t.w.floatType(32);
      uint32_t r = exactRemainder(t, f32, t.emit(Spv::FConvert, f32, {a[0]}), t.emit(Spv::FConvert, f32, {a[1]}));
      return t.emit(Spv::FConvert, type, {r});
    });
    return true;
  case OpCode::NegF:
    floatOp(t, op, true, [&](uint32_t type, const std::vector<uint32_t> &a) { return t.emit(Spv::FNegate, type, {a[0]}); });
    return true;
  case OpCode::MinimumF:
  case OpCode::MaximumF:
  case OpCode::MinNumF:
  case OpCode::MaxNumF:
    floatOp(t, op, true,
            [&](uint32_t type, const std::vector<uint32_t> &a) { return minMax(t, type, code, a[0], a[1]); });
    return true;
  default: return t.error(op, "cannot be translated");
  }
}

bool translateSelect(Translator &t, Op *op) {
  Type e = op->result()->type().element();
  if (e.isPtr() && e.addressSpace() != 0)
    return t.error(op, "on shared-memory pointers cannot be translated");
  uint32_t type = t.valueType(op->result()->type());
  bool wide = e.isInteger() && e != Type::i1() && e.bitWidth() < 32 && wideNarrowSelects();
  mapComponents(t, op, [&](const std::vector<uint32_t> &a) {
    if (!wide)
      return t.emit(Spv::Select, type, {a[0], a[1], a[2]});
    uint32_t x = widen(t, a[1], e.bitWidth(), false), y = widen(t, a[2], e.bitWidth(), false);
    return t.emit(Spv::UConvert, type, {t.emit(Spv::Select, t.u32Type(), {a[0], x, y})});
  });
  return true;
}

} // namespace

bool wideNarrowSelects() {
  static const bool on = [] {
    const char *v = std::getenv("TRIDENT_VULKAN_WIDE_NARROW_SELECT");
    return v && std::strcmp(v, "on") == 0;
  }();
  return on;
}

bool translateArith(Translator &t, Op *op) {
  if (const ArithOpInfo *arith = arithOpInfo(op->code())) // tt.precise_divf: with the math ops (CodeGen.cpp)
    return arith->elements == ArithElements::Integer ? translateIntArith(t, op) : translateFloatArith(t, op);
  switch (op->code()) {
  case OpCode::Constant: return translateConstant(t, op);
  case OpCode::CmpI: return translateCmpI(t, op);
  case OpCode::CmpF: return translateCmpF(t, op);
  case OpCode::Select: return translateSelect(t, op);
  default: return t.error(op, "is not supported by the SPIR-V backend");
  }
}

} // namespace trident::spirv
