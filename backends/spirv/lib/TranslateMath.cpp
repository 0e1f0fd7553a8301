// math.* and the correctly rounded tt.precise_* ops.
//
// Each math op's GLSL.std.450 instruction, whether it has an f64 form and whether f16
// runs in f16 are MathOps.def's glsl and spirv columns. GLSL.std.450 gives exp, exp2,
// log, log2, sin, cos, sqrt, rsqrt, floor, ceil
// and fma for f16 and f32 (the last five for f64 too) with Vulkan's precision
// guarantees, which match what Triton accepts from libdevice's fast paths.
// Exact sequences replace it where Trident needs more:
//   absf     clears the sign bit (GLSL FAbs may canonicalize NaNs);
//   erf      has no GLSL instruction: a series near 0, a Chebyshev-fitted
//            erfc elsewhere (relative error ~1e-7);
//   precise  divf/sqrt of f16/bf16/f32 run in f64 and round once: f64 has more
//            than twice the bits, so the double rounding is innocuous;
//   f64      exp, exp2, log, log2, sin, cos and erf by their own sequences
//            (MathF64.cpp, MathF64Trig.cpp, MathF64Erf.cpp);
//   fma      exactly (FloatExact.cpp), since Vulkan lets GLSL Fma round twice;
//            bf16 rounds through f32 and may differ in the last bit.
#include "Translator.h"

#include "trident/ir/MathOps.h"

#include <bit>
#include <cstdlib>
#include <cstring>

namespace trident::spirv {

namespace {

uint32_t f32Const(Translator &t, float v) { return t.constant(t.w.floatType(32), std::bit_cast<uint32_t>(v)); }

// erf(x) for f32 x.
uint32_t erfF32(Translator &t, uint32_t x) {
  uint32_t f32 = t.w.floatType(32), b = t.boolType();
  auto mul = [&](uint32_t a, uint32_t c) { return t.emit(Spv::FMul, f32, {a, c}); };
  auto add = [&](uint32_t a, uint32_t c) { return t.emit(Spv::FAdd, f32, {a, c}); };
  uint32_t z = t.glsl(Glsl::FAbs, f32, {x});
  uint32_t x2 = mul(x, x);
  // |x| < 0.5: 2/sqrt(pi) * (x - x^3/3 + x^5/10 - x^7/42 + x^9/216 - x^11/1320 + x^13/9360).
  const float series[] = {1.0f / 9360, -1.0f / 1320, 1.0f / 216, -1.0f / 42, 1.0f / 10, -1.0f / 3, 1.0f};
  uint32_t p = f32Const(t, series[0]);
  for (size_t i = 1; i < std::size(series); ++i)
    p = add(mul(p, x2), f32Const(t, series[i]));
  uint32_t small = mul(mul(p, x), f32Const(t, 1.1283791670955126f));
  // Otherwise erfc(|z|) = u * exp(-z^2 + P(u)) with u = 1 / (1 + z/2) (Numerical Recipes' erfcc).
  const float coefficients[] = {0.17087277f,  -0.82215223f, 1.48851587f, -1.13520398f, 0.27886807f,
                                -0.18628806f, 0.09678418f,  0.37409196f, 1.00002368f,  -1.26551223f};
  uint32_t u = t.emit(Spv::FDiv, f32, {f32Const(t, 1.0f), add(f32Const(t, 1.0f), mul(z, f32Const(t, 0.5f)))});
  uint32_t q = f32Const(t, coefficients[0]);
  for (size_t i = 1; i < std::size(coefficients); ++i)
    q = add(mul(q, u), f32Const(t, coefficients[i]));
  uint32_t exponent = t.emit(Spv::FSub, f32, {q, mul(z, z)});
  uint32_t erfc = mul(u, t.glsl(Glsl::Exp, f32, {exponent}));
  uint32_t large = t.emit(Spv::FSub, f32, {f32Const(t, 1.0f), erfc});
  uint32_t negative = t.emit(Spv::FOrdLessThan, b, {x, f32Const(t, 0.0f)});
  large = t.emit(Spv::Select, f32, {negative, t.emit(Spv::FNegate, f32, {large}), large});
  uint32_t isSmall = t.emit(Spv::FOrdLessThan, b, {z, f32Const(t, 0.5f)});
  uint32_t r = t.emit(Spv::Select, f32, {isSmall, small, large});
  return t.emit(Spv::Select, f32, {t.emit(Spv::IsNan, b, {x}), x, r}); // erf(NaN) = NaN
}

// Whether math.absi of i8 and i16 runs in 32 bits (TRIDENT_VULKAN_WIDE_ABS, on unless
// "off"). |INT8_MIN| wraps to INT8_MIN in the IR; in its own width that is an OpSNegate
// that overflows, which SPIR-V defines (it wraps) but NVIDIA's compilers have got wrong
// before (LLVM issue 160482: the SASS ptxas made of a 16-bit negation of INT16_MIN kept
// +32768 in 32 bits for the signed comparison after it). The suspected cause of
// trident-randtest seed 2582 on the H200 (driver 580), whose reduced kernel
// (tests/e2e/reduced/vulkan_nvidia_seed2582.kernel) computes maxsi(absi(-128), 1) = 1; not
// confirmed on the device yet. In 32 bits nothing overflows, and the truncation back wraps.
bool wideNarrowAbs() {
  static const bool on = [] {
    const char *v = std::getenv("TRIDENT_VULKAN_WIDE_ABS");
    return !v || std::strcmp(v, "off") != 0;
  }();
  return on;
}

bool translateAbs(Translator &t, Op *op) {
  Type e = op->operand(0)->type().element();
  if (op->is(OpCode::AbsI)) {
    uint32_t type = t.valueType(e);
    if (e == Type::i1()) { // |-1| wraps to -1: true stays true
      t.set(op->result(), t.get(op->operand(0)));
      return true;
    }
    bool wide = e.bitWidth() < 32 && wideNarrowAbs();
    uint32_t absType = wide ? t.u32Type() : type;
    mapComponents(t, op, [&](const std::vector<uint32_t> &a) {
      if (e.bitWidth() == 64) {
        // (x ^ s) - s with s = x >> 63 (arithmetic): lavapipe (Mesa 22.3.6) got the
        // select form wrong for x = OpSConvert(0 - y), |x| coming out as x
        // (trident-randtest seed 2636; lit translate/spirv-abs-i64.tir).
        uint32_t s = t.emit(Spv::ShiftRightArithmetic, type, {a[0], t.constant(type, 63)});
        return t.emit(Spv::ISub, type, {t.emit(Spv::BitwiseXor, type, {a[0], s}), s});
      }
      uint32_t x = wide ? t.emit(Spv::SConvert, absType, {a[0]}) : a[0];
      uint32_t negative = t.emit(Spv::SLessThan, t.boolType(), {x, t.constant(absType, 0)});
      uint32_t r = t.emit(Spv::Select, absType, {negative, t.emit(Spv::SNegate, absType, {x}), x});
      return wide ? t.emit(Spv::UConvert, type, {r}) : r;
    });
    return true;
  }
  unsigned bits = e.bitWidth();
  uint32_t intType = t.w.intType(bits), type = t.valueType(e);
  uint64_t mask = (bits == 64 ? ~uint64_t(0) : (uint64_t(1) << bits) - 1) >> 1;
  mapComponents(t, op, [&](const std::vector<uint32_t> &a) {
    uint32_t x = intType == type ? a[0] : t.emit(Spv::Bitcast, intType, {a[0]});
    uint32_t r = t.emit(Spv::BitwiseAnd, intType, {x, t.constant(intType, mask)});
    return intType == type ? r : t.emit(Spv::Bitcast, type, {r});
  });
  return true;
}

// `op` computed in f64 and rounded once to its own type.
bool translatePrecise(Translator &t, Op *op) {
  Type e = op->result()->type().element();
  uint32_t f64 = t.w.floatType(64);
  bool isDiv = op->is(OpCode::PreciseDivF);
  mapComponents(t, op, [&](const std::vector<uint32_t> &a) {
    if (e == Type::f64())
      return isDiv ? t.emit(Spv::FDiv, f64, {a[0], a[1]}) : t.glsl(Glsl::Sqrt, f64, {a[0]});
    std::vector<uint32_t> wide;
    for (uint32_t x : a) {
      if (e == Type::bf16())
        x = bf16ToF32(t, x);
      wide.push_back(t.emit(Spv::FConvert, f64, {x}));
    }
    uint32_t r = isDiv ? t.emit(Spv::FDiv, f64, {wide[0], wide[1]}) : t.glsl(Glsl::Sqrt, f64, {wide[0]});
    return narrowFloat(t, r, Type::f64(), e);
  });
  return true;
}

} // namespace

bool translateMath(Translator &t, Op *op) {
  switch (op->code()) {
  case OpCode::AbsF:
  case OpCode::AbsI: return translateAbs(t, op);
  case OpCode::PreciseDivF:
  case OpCode::PreciseSqrt: return translatePrecise(t, op);
  default: break;
  }
  // The rest: MathOps.def's glsl and spirv columns.
  const MathOpInfo *math = mathOpInfo(op->code());
  bool isErf = op->is(OpCode::Erf);
  if (!math || (!math->glsl && !isErf))
    return t.error(op, "cannot be translated");
  Type e = op->result()->type().element();
  Glsl inst = Glsl(math->glsl);
  if (e == Type::f64() && !(math->spirv & kMathGlslF64)) {
    // GLSL.std.450 has no f64 form of these: Trident's own sequences (MathF64*.cpp).
    OpCode code = op->code();
    switch (code) {
    case OpCode::Exp:
    case OpCode::Exp2:
    case OpCode::Log:
    case OpCode::Log2:
    case OpCode::Sin:
    case OpCode::Cos:
    case OpCode::Erf: break;
    default: return t.error(op, "on f64 cannot be translated: GLSL.std.450 has no f64 form of it");
    }
    mapComponents(t, op, [&](const std::vector<uint32_t> &a) {
      switch (code) {
      case OpCode::Exp:
      case OpCode::Exp2: return expF64(t, a[0], code == OpCode::Exp2);
      case OpCode::Log:
      case OpCode::Log2: return logF64(t, a[0], code == OpCode::Log2);
      case OpCode::Sin:
      case OpCode::Cos: return sinCosF64(t, a[0], code == OpCode::Cos);
      default: return erfF64(t, a[0]);
      }
    });
    return true;
  }
  // bf16, and f16 functions other than the exact ones, run in f32: Vulkan's f16
  // precision for them is far below libdevice's (NVIDIA's f16 cos errs in the third digit).
  bool exactOp = math->spirv & kMathExactF16;
  bool viaF32 = e == Type::bf16() || (e == Type::f16() && !exactOp);
  uint32_t type = t.valueType(viaF32 ? Type::f32() : e);
  mapComponents(t, op, [&](const std::vector<uint32_t> &args) {
    std::vector<uint32_t> a = args;
    if (viaF32)
      for (uint32_t &x : a)
        x = e == Type::bf16() ? bf16ToF32(t, x) : t.emit(Spv::FConvert, type, {x});
    uint32_t r;
    if (isErf)
      r = erfF32(t, a[0]);
    else if (op->is(OpCode::Fma) && (t.device.features & kShaderFloat64))
      r = fusedMultiplyAdd(t, type, a[0], a[1], a[2]);
    else if (a.size() == 3)
      r = t.glsl(inst, type, {a[0], a[1], a[2]});
    else if (a.size() == 2)
      r = t.glsl(inst, type, {a[0], a[1]});
    else
      r = t.glsl(inst, type, {a[0]});
    if (!viaF32)
      return r;
    return e == Type::bf16() ? f32ToBF16(t, r, false) : narrowFloat(t, r, Type::f32(), e);
  });
  return true;
}

} // namespace trident::spirv
