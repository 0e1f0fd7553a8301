// The fp8 formats without an IR type: float8e4b15, float8e4b8 and float8e5b16 are i8
// bits in the block IR (DType::softFp8), and every conversion goes through f32 with
// the integer functions below, so that it is exact and the same on every target (the
// interpreter, NVPTX, AMDGPU, SPIR-V, the CPU): f32 -> fp8 rounds once (to nearest
// even, or toward zero with fp_downcast_rounding="rtz"); fp8 -> f32 is exact, and so
// is f32 -> f16/bf16 of the result (every value of these formats is an f16 and a bf16).
//
//   format       bias  largest finite     NaN             infinity, overflow
//   float8e4b15  15    1.75 (0x7e)        0x7f, 0xff      saturate to +-1.75
//   float8e4b8   8     240 (0x7f)         0x80 (no -0)    saturate to +-240
//   float8e5b16  16    57344 (0x7f)       0x80 (no -0)    saturate to +-57344
//
// Triton's test_conversions.py holds these formats to the same rounding below the
// largest finite value (its hardware paths differ above it: see docs/frontend.md).
#include "CodeGen.h"

namespace trident::frontend {

const char *softFp8PreludeSource() {
  return R"PRELUDE(

@triton.jit
def _soft_fp8_encode(x, MAN: tl.constexpr, BIAS: tl.constexpr, MAXCODE: tl.constexpr, FNUZ: tl.constexpr,
                     RTZ: tl.constexpr):
    # float32 x -> the fp8 code (uint8), rounded once.
    bits = x.to(tl.uint32, bitcast=True)
    sign = bits >> 31
    a = bits & 0x7FFFFFFF
    field = (a >> 23).to(tl.int32)
    m = (a & 0x7FFFFF) | tl.where(field != 0, 0x800000, 0).to(tl.uint32)
    e = tl.maximum(field, 1) - 127
    EMIN: tl.constexpr = 1 - BIAS
    # Bits of the f32 significand below the result's last place (at least 25: all of them).
    s = tl.minimum((23 - MAN) + tl.maximum(EMIN - e, 0), 25)
    q = m >> s.to(tl.uint32)
    if not RTZ:
        rem = m - (q << s.to(tl.uint32))
        half = (1 << (s - 1)).to(tl.uint32)
        up = (rem > half) | ((rem == half) & ((q & 1) == 1))
        q = q + up.to(tl.uint32)
    # A carry out of the significand moves into the exponent field by itself.
    code = q + (tl.maximum(e - EMIN, 0) << MAN).to(tl.uint32)
    code = tl.where(code > MAXCODE, MAXCODE, code)
    is_nan = a > 0x7F800000
    if FNUZ:
        r = tl.where(code == 0, 0, code | (sign << 7))
        r = tl.where(is_nan, 0x80, r)
    else:
        r = tl.where(is_nan, 0x7F, code) | (sign << 7)
    return r.to(tl.uint8)


@triton.jit
def _soft_fp8_decode(c, MAN: tl.constexpr, BIAS: tl.constexpr, FNUZ: tl.constexpr):
    # The fp8 code c (uint8) -> its exact float32 value.
    v = c.to(tl.uint32)
    sign = v >> 7
    mag = v & 0x7F
    e = (mag >> MAN).to(tl.int32)
    f = (mag & ((1 << MAN) - 1)).to(tl.int32)
    significand = tl.where(e == 0, f, f + (1 << MAN))
    scale = ((tl.maximum(e, 1) - BIAS - MAN + 127) << 23).to(tl.float32, bitcast=True)
    y = (significand.to(tl.float32) * scale).to(tl.uint32, bitcast=True) | (sign << 31)
    if FNUZ:
        y = tl.where(v == 0x80, 0x7FC00000, y)
    else:
        y = tl.where(mag == 0x7F, 0x7FC00000 | (sign << 31), y)
    return y.to(tl.float32, bitcast=True)
)PRELUDE";
}

namespace {
struct SoftFormat {
  int mantissa, bias, maxCode;
  bool fnuz;
};
SoftFormat softFormat(SoftFp8 f) {
  switch (f) {
  case SoftFp8::E4B15: return {3, 15, 0x7e, false};
  case SoftFp8::E4B8: return {3, 8, 0x7f, true};
  default: return {2, 16, 0x7f, true};
  }
}
} // namespace

Tensor CodeGen::softFp8Cast(const Tensor &t, DType to, const Span &span, std::string_view rounding) {
  DType from = t.dtype;
  auto constant = [](int64_t v) { return Arg{Object::integer(v), Span{}, nullptr}; };
  auto flag = [](bool v) { return Arg{Object::boolean(v), Span{}, nullptr}; };
  if (from.isSoftFp8()) {
    SoftFormat f = softFormat(from.softFp8);
    CallArgs call;
    call.callee = "tensor.to";
    call.span = span;
    DType bitsType{Type::i8(), true};
    call.positional = {Arg{Object::ofTensor(Tensor{t.value, bitsType}), span, nullptr}, constant(f.mantissa),
                       constant(f.bias), flag(f.fnuz)};
    Tensor x = callPrelude("_soft_fp8_decode", call).tensor;
    return cast(x, to, span, to.isFloat() && to.bits() < 32 ? rounding : std::string_view());
  }
  if (!rounding.empty() && rounding != "rtne" && rounding != "rtz")
    error(span, "fp_downcast_rounding must be 'rtne' or 'rtz', got '" + std::string(rounding) + "'");
  // Integers and f64 reach f32 first (Triton's route for fp8 too); f16 and bf16 exactly.
  Tensor x = cast(t, DType::f32(), span);
  SoftFormat f = softFormat(to.softFp8);
  CallArgs call;
  call.callee = "tensor.to";
  call.span = span;
  call.positional = {Arg{Object::ofTensor(x), span, nullptr}, constant(f.mantissa), constant(f.bias),
                     constant(f.maxCode), flag(f.fnuz), flag(rounding == "rtz")};
  Tensor bits = callPrelude("_soft_fp8_encode", call).tensor;
  return Tensor{bits.value, to};
}

} // namespace trident::frontend
