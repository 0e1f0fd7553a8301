// Casts between integer and float types, bit reinterpretation and pointer
// arithmetic. Trident defines float-to-integer conversions as saturating (NaN
// gives 0), so out-of-range inputs select the bound instead of SPIR-V's
// undefined result. bf16 and f8 values are their bit patterns in u16 / u8 and
// convert through f32 with exact integer sequences.
#include "Translator.h"

#include "trident/support/FloatFormats.h"

#include <bit>
#include <cmath>
#include <cstdlib>
#include <cstring>

namespace trident::spirv {

uint32_t bf16ToF32(Translator &t, uint32_t bits) {
  uint32_t wide = t.emit(Spv::UConvert, t.u32Type(), {bits});
  uint32_t shifted = t.emit(Spv::ShiftLeftLogical, t.u32Type(), {wide, t.u32(16)});
  return t.emit(Spv::Bitcast, t.w.floatType(32), {shifted});
}

// Round to nearest even: add 0x7fff plus the lowest kept bit, then drop 16 bits;
// NaNs keep their sign and become quiet. Toward zero: drop the bits.
uint32_t f32ToBF16(Translator &t, uint32_t value, bool towardZero) {
  uint32_t u32 = t.u32Type(), b = t.boolType();
  uint32_t bits = t.emit(Spv::Bitcast, u32, {value});
  uint32_t rounded = bits;
  if (!towardZero) {
    uint32_t lsb = t.emit(Spv::BitwiseAnd, u32, {t.emit(Spv::ShiftRightLogical, u32, {bits, t.u32(16)}), t.u32(1)});
    uint32_t bias = t.emit(Spv::IAdd, u32, {lsb, t.u32(0x7fff)});
    rounded = t.emit(Spv::IAdd, u32, {bits, bias});
  }
  uint32_t high = t.emit(Spv::ShiftRightLogical, u32, {rounded, t.u32(16)});
  uint32_t quietNan = t.emit(Spv::BitwiseOr, u32, {t.emit(Spv::ShiftRightLogical, u32, {bits, t.u32(16)}), t.u32(0x40)});
  // NaN from the bits, not OpIsNan: a driver that assumes no NaNs may fold that away.
  uint32_t magnitude = t.emit(Spv::BitwiseAnd, u32, {bits, t.u32(0x7fffffff)});
  uint32_t isNan = t.emit(Spv::UGreaterThan, b, {magnitude, t.u32(0x7f800000)});
  uint32_t result = t.emit(Spv::Select, u32, {isNan, quietNan, high});
  return t.emit(Spv::UConvert, t.w.intType(16), {result});
}

namespace {

// How f32 -> f16 narrows, from TRIDENT_VULKAN_F16_NARROWING: auto (the default) and rte:
// OpFConvert under the RoundingModeRTE 16 execution mode (SPV_KHR_float_controls, core in
// SPIR-V 1.4; the device must report shaderRoundingModeRTEFloat16) with the NaNs fixed up
// (f32ToF16ByRTE) where the device reports the feature, else f32ToF16's integer
// arithmetic; exact: always the integer form; convert: the bare OpFConvert under the mode,
// no NaN fix-up (the fourth session's form, f6cf404: NaNs come out as the driver's 0x7fff,
// sign and payload lost), a measurement knob only, for layer norm's cost of the fix-up.
// The H200 (driver 580) rounded every non-NaN value of rounding_test.cpp exactly under
// the mode, and layer norm's forward ran at 2347 GB/s against the exact form's 1601.
enum class F16Narrowing { Exact, RTE, Convert };

F16Narrowing f16Narrowing(const DeviceInfo &device) {
  static const F16Narrowing wanted = [] {
    const char *v = std::getenv("TRIDENT_VULKAN_F16_NARROWING");
    if (v && !std::strcmp(v, "exact"))
      return F16Narrowing::Exact;
    return v && !std::strcmp(v, "convert") ? F16Narrowing::Convert : F16Narrowing::RTE;
  }();
  return device.features & kRoundingModeRTEFloat16 ? wanted : F16Narrowing::Exact;
}

// The f16 NaN of f32 bits `bits` (u32), as f32ToF16 (and narrowFloat) make it: the sign,
// quiet, the top ten payload bits; computed in 32-bit integers, truncated once (u16).
uint32_t f16NanOf(Translator &t, uint32_t bits) {
  const uint32_t u32 = t.u32Type();
  auto op = [&](Spv code, uint32_t x, uint32_t y) { return t.emit(code, u32, {x, y}); };
  auto c = [&](uint32_t v) { return t.u32(v); };
  uint32_t sign = op(Spv::BitwiseAnd, op(Spv::ShiftRightLogical, bits, c(16)), c(0x8000));
  uint32_t payload = op(Spv::BitwiseAnd, op(Spv::ShiftRightLogical, bits, c(13)), c(0x3ff));
  return t.emit(Spv::UConvert, t.w.intType(16), {op(Spv::BitwiseOr, op(Spv::BitwiseOr, sign, payload), c(0x7e00))});
}

// Whether f32 bits `bits` are a NaN's: on the bits, not OpIsNan, which a driver that
// assumes no NaNs may fold away.
uint32_t isNanBits(Translator &t, uint32_t bits) {
  uint32_t magnitude = t.emit(Spv::BitwiseAnd, t.u32Type(), {bits, t.u32(0x7fffffff)});
  return t.emit(Spv::UGreaterThan, t.boolType(), {magnitude, t.u32(0x7f800000)});
}

// `converted`, the driver's OpFConvert of f32 `value` to f16 (RoundingModeRTE 16 declared,
// CodeGen.cpp), with NaNs replaced by f16NanOf's: NVIDIA's driver returns 0x7fff for every
// NaN, sign lost.
uint32_t fixF16Nan(Translator &t, uint32_t value, uint32_t converted) {
  const uint32_t u16 = t.w.intType(16);
  uint32_t bits = t.emit(Spv::Bitcast, t.u32Type(), {value});
  uint32_t nan = f16NanOf(t, bits);
  uint32_t r = t.emit(Spv::Select, u16, {isNanBits(t, bits), nan, t.emit(Spv::Bitcast, u16, {converted})});
  return t.emit(Spv::Bitcast, t.valueType(Type::f16()), {r});
}

uint32_t f32ToF16ByRTE(Translator &t, uint32_t value) {
  t.require(kRoundingModeRTEFloat16);
  return fixF16Nan(t, value, t.emit(Spv::FConvert, t.valueType(Type::f16()), {value}));
}

// An arith.truncf f32 -> f16 that f32ToF16ByRTE would translate.
bool isRTENarrowing(const Translator &t, const Op *op) {
  return op && op->is(OpCode::TruncF) && op->operand(0)->type() == Type::f32() && op->result()->type() == Type::f16() &&
         !op->attr("rounding").present() && f16Narrowing(t.device) == F16Narrowing::RTE;
}

} // namespace

// A th.pack of two or more such conversions, each used only by the pack (layer norm's
// stores pack 8 a thread), shares one NaN test: the conversions are bare OpFConverts, and
// the pack checks the largest magnitude of their inputs and fixes the NaNs up in a branch
// taken only when one is a NaN (2 instructions an element on the common path, not 12).
const Op *sharedNanFixup(const Translator &t, const Op *truncf) {
  if (!isRTENarrowing(t, truncf) || truncf->result()->uses().empty())
    return nullptr;
  const Op *pack = truncf->result()->uses().front().user;
  if (!pack->is(OpCode::ThPack) || pack->numOperands() < 2)
    return nullptr;
  for (const Value *v : pack->operands()) {
    const Op *def = v->definingOp();
    if (!isRTENarrowing(t, def))
      return nullptr;
    for (const Use &u : def->result()->uses())
      if (u.user != pack)
        return nullptr;
  }
  return pack;
}

bool translateNarrowingPack(Translator &t, Op *pack) {
  const Op *first = pack->operand(0)->definingOp();
  if (!first || sharedNanFixup(t, first) != pack)
    return false;
  const uint32_t u32 = t.u32Type(), f16 = t.valueType(Type::f16());
  Ids converted, sources;
  uint32_t largest = 0;
  for (Value *v : pack->operands()) {
    converted.push_back(t.scalar(v));
    sources.push_back(t.scalar(v->definingOp()->operand(0)));
    uint32_t magnitude = t.emit(Spv::BitwiseAnd, u32, {t.emit(Spv::Bitcast, u32, {sources.back()}), t.u32(0x7fffffff)});
    largest = largest ? t.glsl(Glsl::UMax, u32, {largest, magnitude}) : magnitude;
  }
  uint32_t anyNan = t.emit(Spv::UGreaterThan, t.boolType(), {largest, t.u32(0x7f800000)});
  t.set(pack->result(), t.guarded(anyNan, std::vector<uint32_t>(converted.size(), f16), converted, [&] {
    Ids fixed;
    for (size_t i = 0; i < sources.size(); ++i)
      fixed.push_back(fixF16Nan(t, sources[i], converted[i]));
    return fixed;
  }));
  return true;
}

namespace {

// f32 -> f16, rounding to nearest even, in 23 instructions instead of narrowFloat's 44
// (attention converts its P tile, 64 elements a thread, every iteration: half of the
// instructions of its loop were these): subnormal results come from an f32 addition of
// 0.5, whose ulp is f16's least subnormal (Vulkan rounds f32 additions to nearest even;
// the sum is normal, so no flush applies; an f32 subnormal input flushed to zero gives the
// zero its f16 is anyway); normal results round on the bits as narrowFloat's do.
uint32_t f32ToF16(Translator &t, uint32_t value) {
  const uint32_t u32 = t.u32Type(), bt = t.boolType(), f32 = t.w.floatType(32);
  auto op = [&](Spv code, uint32_t x, uint32_t y) { return t.emit(code, u32, {x, y}); };
  auto c = [&](uint32_t v) { return t.u32(v); };
  const uint32_t half = 0x3f000000; // 0.5f
  uint32_t bits = t.emit(Spv::Bitcast, u32, {value});
  uint32_t a = op(Spv::BitwiseAnd, bits, c(0x7fffffff));
  uint32_t sign = op(Spv::BitwiseAnd, op(Spv::ShiftRightLogical, bits, c(16)), c(0x8000));
  uint32_t sum = t.emit(Spv::FAdd, f32, {t.emit(Spv::Bitcast, f32, {a}), t.constant(f32, half)});
  uint32_t subnormal = op(Spv::ISub, t.emit(Spv::Bitcast, u32, {sum}), c(half));
  uint32_t high = op(Spv::ShiftRightLogical, a, c(13));
  uint32_t lsb = op(Spv::BitwiseAnd, high, c(1));
  uint32_t rebiased = op(Spv::IAdd, a, c((uint32_t(15) - 127) * (1u << 23) + 0xfff));
  uint32_t normal = op(Spv::ShiftRightLogical, op(Spv::IAdd, rebiased, lsb), c(13)); // carries reach 0x7c00
  uint32_t r = t.emit(Spv::Select, u32, {t.emit(Spv::ULessThan, bt, {a, c(113u << 23)}), subnormal, normal});
  r = t.emit(Spv::Select, u32, {t.emit(Spv::UGreaterThanEqual, bt, {a, c((127u + 16) << 23)}), c(0x7c00), r});
  uint32_t nan = op(Spv::BitwiseOr, op(Spv::BitwiseAnd, high, c(0x3ff)), c(0x7e00)); // quiet, payload kept
  r = t.emit(Spv::Select, u32, {t.emit(Spv::UGreaterThan, bt, {a, c(0x7f800000)}), nan, r});
  uint32_t narrow = t.emit(Spv::UConvert, t.w.intType(16), {op(Spv::BitwiseOr, r, sign)});
  return t.emit(Spv::Bitcast, t.valueType(Type::f16()), {narrow});
}

} // namespace

// Rounds to nearest even from f32 or f64 to f16, bf16 or f32 on the bits, in integer
// arithmetic: OpFConvert rounds as the driver likes (NVIDIA's Vulkan driver was seen
// off by an ulp or more of f16 with RoundingModeRTE requested), and f64 -> f32 -> bf16
// would round twice. Normal results rebias the exponent and round the dropped bits
// (carries run into the exponent, up to the infinity); subnormal results shift the
// significand, implicit bit included, right and round; past the largest finite value
// the result is the infinity; NaNs stay NaNs of the same sign, quiet.
uint32_t narrowFloat(Translator &t, uint32_t value, Type from, Type to) {
  if (from == Type::f32() && to == Type::f16()) {
    F16Narrowing how = f16Narrowing(t.device);
    if (how == F16Narrowing::Convert) {
      t.require(kRoundingModeRTEFloat16);
      return t.emit(Spv::FConvert, t.valueType(Type::f16()), {value});
    }
    return how == F16Narrowing::RTE ? f32ToF16ByRTE(t, value) : f32ToF16(t, value);
  }
  const bool wide = from == Type::f64();
  const unsigned W = wide ? 64 : 32, M = wide ? 52 : 23;
  const uint64_t B = wide ? 1023 : 127;
  const unsigned e = to == Type::f16() ? 5 : 8, m = to == Type::f16() ? 10 : to == Type::bf16() ? 7 : 23;
  const unsigned D = 1 + e + m;
  const uint64_t b = (uint64_t(1) << (e - 1)) - 1;
  const uint32_t it = t.w.intType(W), bt = t.boolType();
  auto c = [&](uint64_t v) { return t.constant(it, v); };
  auto op = [&](Spv code, uint32_t x, uint32_t y) { return t.emit(code, it, {x, y}); };
  uint32_t bits = t.emit(Spv::Bitcast, it, {value});
  uint32_t a = op(Spv::BitwiseAnd, bits, c((uint64_t(1) << (W - 1)) - 1));
  uint32_t sign = op(Spv::BitwiseAnd, op(Spv::ShiftRightLogical, bits, c(W - D)), c(uint64_t(1) << (D - 1)));
  const unsigned drop = M - m;
  // Normal results: exponent rebiased, the dropped bits rounded (ties to the even).
  uint32_t rebiased = op(Spv::ISub, a, c((B - b) << M));
  uint32_t lsb = op(Spv::BitwiseAnd, op(Spv::ShiftRightLogical, rebiased, c(drop)), c(1));
  uint32_t normal = op(Spv::ShiftRightLogical, op(Spv::IAdd, rebiased, op(Spv::IAdd, lsb, c((uint64_t(1) << (drop - 1)) - 1))),
                       c(drop));
  // Subnormal results: the significand shifted right by K - exponent, rounded.
  const uint64_t K = B + M + 1 - b - m;
  uint32_t exponent = op(Spv::ShiftRightLogical, a, c(M));
  uint32_t significand = op(Spv::BitwiseOr, op(Spv::BitwiseAnd, a, c((uint64_t(1) << M) - 1)), c(uint64_t(1) << M));
  uint32_t shift = op(Spv::ISub, c(K), exponent);
  shift = t.emit(Spv::Select, it, {t.emit(Spv::UGreaterThan, bt, {exponent, c(K - 1)}), c(1), shift});
  shift = t.emit(Spv::Select, it, {t.emit(Spv::ULessThan, bt, {exponent, c(K - (W - 1))}), c(W - 1), shift});
  uint32_t kept = op(Spv::ShiftRightLogical, significand, shift);
  uint32_t rest = op(Spv::BitwiseAnd, significand, op(Spv::ISub, op(Spv::ShiftLeftLogical, c(1), shift), c(1)));
  uint32_t half = op(Spv::ShiftLeftLogical, c(1), op(Spv::ISub, shift, c(1)));
  uint32_t odd = t.emit(Spv::INotEqual, bt, {op(Spv::BitwiseAnd, kept, c(1)), c(0)});
  uint32_t up = t.emit(Spv::LogicalOr, bt,
                       {t.emit(Spv::UGreaterThan, bt, {rest, half}),
                        t.emit(Spv::LogicalAnd, bt, {t.emit(Spv::IEqual, bt, {rest, half}), odd})});
  uint32_t subnormal = op(Spv::IAdd, kept, t.emit(Spv::Select, it, {up, c(1), c(0)}));
  uint32_t isNormal = t.emit(Spv::UGreaterThanEqual, bt, {a, c((B - b + 1) << M)});
  uint32_t r = t.emit(Spv::Select, it, {isNormal, normal, subnormal});
  const uint64_t infinity = ((uint64_t(1) << e) - 1) << m;
  r = t.emit(Spv::Select, it, {t.emit(Spv::UGreaterThan, bt, {r, c(infinity)}), c(infinity), r});
  uint32_t payload = op(Spv::BitwiseAnd, op(Spv::ShiftRightLogical, a, c(drop)), c((uint64_t(1) << m) - 1));
  uint32_t nan = op(Spv::BitwiseOr, payload, c(infinity | (uint64_t(1) << (m - 1))));
  uint32_t isNan = t.emit(Spv::UGreaterThan, bt, {a, c(((uint64_t(1) << (W - 1 - M)) - 1) << M)});
  r = op(Spv::BitwiseOr, t.emit(Spv::Select, it, {isNan, nan, r}), sign);
  uint32_t narrow = t.emit(Spv::UConvert, t.w.intType(D), {r});
  return to == Type::bf16() ? narrow : t.emit(Spv::Bitcast, t.valueType(to), {narrow});
}

namespace {

uint32_t floatConstant(Translator &t, Type e, double v) {
  uint32_t type = t.valueType(e);
  switch (e.kind()) {
  case TypeKind::F16: return t.constant(type, encodeFloat(v, FloatFormat::F16));
  case TypeKind::F32: return t.constant(type, std::bit_cast<uint32_t>(float(v)));
  default: return t.constant(type, std::bit_cast<uint64_t>(v));
  }
}

// An f8 bit pattern (u8) to the f32 it denotes, exactly.
uint32_t f8ToF32(Translator &t, uint32_t bits, bool e4m3) {
  uint32_t u32 = t.u32Type(), f32 = t.w.floatType(32), b = t.boolType();
  uint32_t x = t.emit(Spv::UConvert, u32, {bits});
  uint32_t sign = t.emit(Spv::ShiftLeftLogical, u32, {t.emit(Spv::BitwiseAnd, u32, {x, t.u32(0x80)}), t.u32(24)});
  uint32_t mantissaBits = e4m3 ? 3 : 2, bias = e4m3 ? 7 : 15;
  uint32_t magnitude = t.emit(Spv::BitwiseAnd, u32, {x, t.u32(0x7f)});
  uint32_t exponent = t.emit(Spv::ShiftRightLogical, u32, {magnitude, t.u32(mantissaBits)});
  // Normal numbers: move the fields into place and rebias the exponent.
  uint32_t moved = t.emit(Spv::ShiftLeftLogical, u32, {magnitude, t.u32(23 - mantissaBits)});
  uint32_t normal = t.emit(Spv::IAdd, u32, {moved, t.u32((127 - bias) << 23)});
  // Subnormals: mantissa * 2^(1 - bias - mantissaBits), exact in f32.
  uint32_t mantissa = t.emit(Spv::BitwiseAnd, u32, {x, t.u32((1u << mantissaBits) - 1)});
  uint32_t scaled = t.emit(Spv::FMul, f32, {t.emit(Spv::ConvertUToF, f32, {mantissa}),
                                            t.constant(f32, std::bit_cast<uint32_t>(std::ldexp(1.0f, int(1 - bias - mantissaBits))))});
  uint32_t isSub = t.emit(Spv::IEqual, b, {exponent, t.u32(0)});
  uint32_t body = t.emit(Spv::Select, u32, {isSub, t.emit(Spv::Bitcast, u32, {scaled}), normal});
  // Specials: e4m3 has only NaN (S.1111.111); e5m2 has infinities and NaNs (exponent 31).
  uint32_t special = e4m3 ? t.emit(Spv::IEqual, b, {magnitude, t.u32(0x7f)}) : t.emit(Spv::IEqual, b, {exponent, t.u32(31)});
  uint32_t specialBits = e4m3 ? t.u32(0x7fc00000)
                              : t.emit(Spv::BitwiseOr, u32, {t.u32(0x7f800000), t.emit(Spv::ShiftLeftLogical, u32, {mantissa, t.u32(21)})});
  body = t.emit(Spv::Select, u32, {special, specialBits, body});
  return t.emit(Spv::Bitcast, f32, {t.emit(Spv::BitwiseOr, u32, {body, sign})});
}

// Saturating float -> integer of `dst` (i1..i64), as Trident defines it.
uint32_t floatToInt(Translator &t, uint32_t x, Type src, Type dst, bool isSigned) {
  unsigned width = dst.bitWidth();
  unsigned computeBits = width == 64 ? 64 : 32;
  uint32_t ct = t.w.intType(computeBits), b = t.boolType();
  uint64_t lo, hi;
  double loF, hiLimit;
  if (isSigned) {
    lo = width == 64 ? uint64_t(1) << 63 : uint64_t(-(int64_t(1) << (width - 1)));
    hi = (uint64_t(1) << (width - 1)) - 1;
    loF = -std::ldexp(1.0, int(width) - 1);
    hiLimit = std::ldexp(1.0, int(width) - 1);
  } else {
    lo = 0;
    hi = width == 64 ? ~uint64_t(0) : (uint64_t(1) << width) - 1;
    loF = 0.0;
    hiLimit = std::ldexp(1.0, int(width));
  }
  if (computeBits == 32) {
    lo &= 0xffffffffu;
    hi &= 0xffffffffu;
  }
  uint32_t r = t.emit(isSigned ? Spv::ConvertFToS : Spv::ConvertFToU, ct, {x});
  uint32_t tooHigh = t.emit(Spv::FOrdGreaterThanEqual, b, {x, floatConstant(t, src, hiLimit)});
  uint32_t tooLow = t.emit(Spv::FOrdLessThan, b, {x, floatConstant(t, src, loF)});
  r = t.emit(Spv::Select, ct, {tooHigh, t.constant(ct, hi), r});
  r = t.emit(Spv::Select, ct, {tooLow, t.constant(ct, lo), r});
  r = t.emit(Spv::Select, ct, {t.emit(Spv::IsNan, b, {x}), t.constant(ct, 0), r});
  if (width == 1)
    return t.emit(Spv::INotEqual, b, {r, t.constant(ct, 0)});
  if (width < computeBits)
    return t.emit(Spv::UConvert, t.valueType(dst), {r});
  return r;
}

bool translateIntToFloat(Translator &t, Op *op, bool isSigned) {
  Type src = op->operand(0)->type().element(), dst = op->result()->type().element();
  bool viaF32 = dst == Type::bf16();
  Type compute = viaF32 ? Type::f32() : dst;
  uint32_t ft = t.valueType(compute);
  mapComponents(t, op, [&](const std::vector<uint32_t> &a) {
    uint32_t r;
    if (src == Type::i1()) // as the integer -1 / 1 or 0, converted: +0.0 whatever the driver does with float constants
      r = t.emit(Spv::ConvertSToF, ft, {t.emit(Spv::Select, t.u32Type(), {a[0], t.u32(isSigned ? 0xffffffffu : 1u), t.u32(0)})});
    else
      r = t.emit(isSigned ? Spv::ConvertSToF : Spv::ConvertUToF, ft, {a[0]});
    return viaF32 ? f32ToBF16(t, r, false) : r;
  });
  return true;
}

bool translateFloatToInt(Translator &t, Op *op, bool isSigned) {
  Type src = op->operand(0)->type().element(), dst = op->result()->type().element();
  bool viaF32 = src == Type::bf16();
  mapComponents(t, op, [&](const std::vector<uint32_t> &a) {
    uint32_t x = viaF32 ? bf16ToF32(t, a[0]) : a[0];
    return floatToInt(t, x, viaF32 ? Type::f32() : src, dst, isSigned);
  });
  return true;
}

bool translateExtF(Translator &t, Op *op) {
  Type src = op->operand(0)->type().element(), dst = op->result()->type().element();
  mapComponents(t, op, [&](const std::vector<uint32_t> &a) {
    uint32_t x = a[0];
    Type at = src;
    if (src == Type::bf16() || src == Type::f8e4m3() || src == Type::f8e5m2()) {
      x = src == Type::bf16() ? bf16ToF32(t, x) : f8ToF32(t, x, src == Type::f8e4m3());
      at = Type::f32();
    }
    if (at == dst)
      return x;
    if (dst == Type::bf16()) // from f8 through f32: exact
      return f32ToBF16(t, x, true);
    return t.emit(Spv::FConvert, t.valueType(dst), {x});
  });
  return true;
}

bool translateTruncF(Translator &t, Op *op) {
  Type src = op->operand(0)->type().element(), dst = op->result()->type().element();
  bool towardZero = op->attr("rounding").isString() && op->stringAttr("rounding") == "rtz";
  if (dst == Type::f8e4m3() || dst == Type::f8e5m2())
    return t.error(op, "to " + dst.str() + " is not supported by the SPIR-V backend yet");
  if (towardZero && dst != Type::bf16())
    return t.error(op, "with rounding \"rtz\" to " + dst.str() + " is not supported by the SPIR-V backend yet");
  if (sharedNanFixup(t, op)) { // the th.pack fixes the NaNs up (translateNarrowingPack)
    t.require(kRoundingModeRTEFloat16);
    t.set(op->result(), {t.emit(Spv::FConvert, t.valueType(dst), {t.scalar(op->operand(0))})});
    return true;
  }
  mapComponents(t, op, [&](const std::vector<uint32_t> &a) {
    if (dst == Type::bf16() && (src == Type::f32() || towardZero)) {
      uint32_t x = src == Type::f32() ? a[0] : t.emit(Spv::FConvert, t.w.floatType(32), {a[0]});
      return f32ToBF16(t, x, towardZero);
    }
    if (src == Type::f16()) // f16 -> bf16 is the only truncation from f16: through f32, exactly
      return f32ToBF16(t, t.emit(Spv::FConvert, t.w.floatType(32), {a[0]}), false);
    return narrowFloat(t, a[0], src, dst);
  });
  return true;
}

bool translateIntResize(Translator &t, Op *op) {
  Type src = op->operand(0)->type().element(), dst = op->result()->type().element();
  uint32_t type = t.valueType(dst), b = t.boolType();
  OpCode code = op->code();
  // A sign extension of a value proven non-negative is a zero extension, and is emitted
  // as one: Mesa's lavapipe (22.3.6) folds `0 <= sext(x) < c` wrongly for some x built
  // from lane ids (the comparisons of a masked descriptor load came out false on every
  // lane; random kernels at --dot-weight 8 read zeros). OpUConvert it handles.
  if (code == OpCode::ExtSI && src != Type::i1()) {
    std::optional<IntRange> range = t.ranges().of(op->operand(0));
    if (range && range->nonNegative())
      code = OpCode::ExtUI;
  }
  mapComponents(t, op, [&](const std::vector<uint32_t> &a) {
    if (code == OpCode::TruncI) {
      if (dst == Type::i1()) {
        uint32_t st = t.valueType(src);
        uint32_t low = t.emit(Spv::BitwiseAnd, st, {a[0], t.constant(st, 1)});
        return t.emit(Spv::INotEqual, b, {low, t.constant(st, 0)});
      }
      return t.emit(Spv::UConvert, type, {a[0]});
    }
    bool isSigned = code == OpCode::ExtSI;
    if (src == Type::i1()) {
      uint64_t ones = dst.bitWidth() == 64 ? ~uint64_t(0) : (uint64_t(1) << dst.bitWidth()) - 1;
      if (dst.bitWidth() < 32 && wideNarrowSelects()) { // the select on words (Translator.h)
        uint32_t u32 = t.u32Type();
        uint32_t word = t.emit(Spv::Select, u32, {a[0], t.constant(u32, isSigned ? ones : 1), t.constant(u32, 0)});
        return t.emit(Spv::UConvert, type, {word});
      }
      return t.emit(Spv::Select, type, {a[0], t.constant(type, isSigned ? ones : 1), t.constant(type, 0)});
    }
    return t.emit(isSigned ? Spv::SConvert : Spv::UConvert, type, {a[0]});
  });
  return true;
}

bool translateBitcast(Translator &t, Op *op) {
  Type src = op->operand(0)->type(), dst = op->result()->type();
  if ((src.element().isPtr() && src.element().addressSpace() != 0) ||
      (dst.element().isPtr() && dst.element().addressSpace() != 0))
    return t.error(op, "on shared-memory pointers cannot be translated");
  uint32_t from = t.valueType(src), to = t.valueType(dst);
  if (from == to) { // pointers, and bf16 / f8 bits as integers
    t.set(op->result(), t.get(op->operand(0)));
    return true;
  }
  mapComponents(t, op, [&](const std::vector<uint32_t> &a) { return t.emit(Spv::Bitcast, to, {a[0]}); });
  return true;
}

// `base + offset * bytes` in 64 bits. An offset proven non-negative is zero-extended.
uint32_t scaledAddress(Translator &t, uint32_t base, uint32_t offset, Type offsetType, bool nonNegative,
                       unsigned bytes) {
  uint32_t u64 = t.u64Type();
  if (offsetType == Type::i1())
    offset = t.emit(Spv::Select, u64, {offset, t.u64(~uint64_t(0)), t.u64(0)});
  else if (offsetType.bitWidth() < 64)
    offset = t.emit(nonNegative ? Spv::UConvert : Spv::SConvert, u64, {offset});
  if (std::optional<uint64_t> k = t.constantValue(offset); k && *k == 0)
    return base;
  uint32_t scaled = offset;
  if (bytes > 1)
    scaled = std::has_single_bit(bytes) ? t.emit(Spv::ShiftLeftLogical, u64, {offset, t.u64(std::countr_zero(bytes))})
                                        : t.emit(Spv::IMul, u64, {offset, t.u64(bytes)});
  return t.emit(Spv::IAdd, u64, {base, scaled});
}

// A scalar offset `x + c1 + c2 ...` with x >= 0 and no addition that wraps becomes
// `(base + x * bytes) + (c1 + c2 ...) * bytes`: every element of a thread shares
// the first part and the driver folds the constant into the load or store
// (IndexRange.h says why the driver cannot do it alone). IndexRanges::of(v) exists
// only when v's additions cannot wrap, so sext(x + c) = zext(x) + c.
bool addPtrWithConstantOffset(Translator &t, Op *op, unsigned bytes) {
  auto constantOf = [&](Value *v) -> std::optional<int64_t> {
    std::optional<IntRange> r = t.ranges().of(v);
    return r && r->lo == r->hi ? std::optional<int64_t>(r->lo) : std::nullopt;
  };
  Value *x = op->operand(1);
  int64_t constant = 0;
  for (Op *def = x->definingOp(); def && def->is(OpCode::AddI) && t.ranges().of(x); def = x->definingOp()) {
    std::optional<int64_t> c = constantOf(def->operand(1));
    Value *rest = def->operand(0);
    if (!c) {
      c = constantOf(def->operand(0));
      rest = def->operand(1);
    }
    std::optional<IntRange> restRange = t.ranges().of(rest);
    if (!c || !restRange || !restRange->nonNegative())
      break;
    constant += *c;
    x = rest;
  }
  if (x == op->operand(1))
    return false;
  uint32_t base = scaledAddress(t, t.scalar(op->operand(0)), t.scalar(x), x->type(), true, bytes);
  t.set(op->result(), {t.emit(Spv::IAdd, t.u64Type(), {base, t.u64(uint64_t(constant) * bytes)})});
  return true;
}

bool translateAddPtr(Translator &t, Op *op) {
  Type ptr = op->operand(0)->type().element();
  if (ptr.addressSpace() != 0)
    return t.error(op, "on shared-memory pointers cannot be translated");
  Type offsetType = op->operand(1)->type().element();
  unsigned bytes = Translator::memoryBytes(ptr.pointee());
  if (op->operand(0)->type().isScalar() && op->operand(1)->type().isScalar() &&
      addPtrWithConstantOffset(t, op, bytes))
    return true;
  std::optional<IntRange> range = t.ranges().of(op->operand(1));
  bool nonNegative = range && range->nonNegative();
  mapComponents(t, op, [&](const std::vector<uint32_t> &a) {
    return scaledAddress(t, a[0], a[1], offsetType, nonNegative, bytes);
  });
  return true;
}

} // namespace

bool translateCast(Translator &t, Op *op) {
  switch (op->code()) {
  case OpCode::ExtSI:
  case OpCode::ExtUI:
  case OpCode::TruncI: return translateIntResize(t, op);
  case OpCode::SIToFP: return translateIntToFloat(t, op, true);
  case OpCode::UIToFP: return translateIntToFloat(t, op, false);
  case OpCode::FPToSI: return translateFloatToInt(t, op, true);
  case OpCode::FPToUI: return translateFloatToInt(t, op, false);
  case OpCode::ExtF: return translateExtF(t, op);
  case OpCode::TruncF: return translateTruncF(t, op);
  case OpCode::Bitcast: return translateBitcast(t, op);
  case OpCode::PtrToInt:
  case OpCode::IntToPtr:
    if (op->operand(0)->type().element().isPtr() ? op->operand(0)->type().element().addressSpace() != 0
                                                  : op->result()->type().element().addressSpace() != 0)
      return t.error(op, "on shared-memory pointers cannot be translated");
    t.set(op->result(), t.get(op->operand(0))); // addresses are u64 already
    return true;
  case OpCode::AddPtr: return translateAddPtr(t, op);
  default: return t.error(op, "cannot be translated");
  }
}

} // namespace trident::spirv
