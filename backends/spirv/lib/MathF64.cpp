// exp, exp2, log and log2 of f64 values: GLSL.std.450 has these for f16 and f32 only.
// Integer bit operations take the place of frexp and ldexp, so the sequences need no
// driver support beyond f64 add, multiply, divide and floor, and subnormals are handled
// where a driver would flush them.
//
// exp(x) = 2^k * e^r with k = round(x / ln 2) and r = x - k ln 2 (|r| <= ln2 / 2, ln 2
// split in two so that k ln2_hi is exact), e^r from its Taylor series to r^14 (the next
// term is below 1e-17 relative), 2^k as two exact powers of two so that every k from
// subnormal to overflow is reachable. exp2(x) takes k = round(x), r = (x - k) ln 2.
//
// log(x) = e ln 2 + log m with x = m 2^e, m in [sqrt(1/2), sqrt(2)); log m = 2 atanh(s),
// s = (m - 1) / (m + 1) (|s| < 0.172), the odd series of atanh to s^21. log2(x) =
// e + log(m) / ln 2, exact for powers of two. Both are within a few ulps of libm
// (backend_vulkan_run_tests compares them with the interpreter's std::exp and std::log).
#include "MathF64.h"

#include <cmath>

namespace trident::spirv {

namespace {

// Natural logarithm of 2, split: ln2_hi has its low 32 bits zero, so k * ln2_hi is
// exact for |k| < 2^20.
constexpr double kLn2Hi = 6.93147180369123816490e-01, kLn2Lo = 1.90821492927058770002e-10;
constexpr double kLn2 = 0.6931471805599453094, kLog2E = 1.4426950408889634074;

} // namespace

uint32_t expF64(Translator &t, uint32_t x, bool base2) {
  F64 m{t};
  // Clamped so that k stays in range; beyond the clamp the result is already 0 or inf.
  double lo = base2 ? -1080.0 : -746.0, hi = base2 ? 1030.0 : 710.0;
  uint32_t xc = m.select(m.less(x, m.c(lo)), m.c(lo), m.select(m.less(m.c(hi), x), m.c(hi), x));
  uint32_t kf = t.glsl(Glsl::Floor, m.f64, {m.add(base2 ? xc : m.mul(xc, m.c(kLog2E)), m.c(0.5))});
  uint32_t r = base2 ? m.mul(m.sub(xc, kf), m.c(kLn2))
                     : m.sub(m.sub(xc, m.mul(kf, m.c(kLn2Hi))), m.mul(kf, m.c(kLn2Lo)));
  double factorial = 1;
  for (int i = 2; i <= 14; ++i)
    factorial *= i;
  uint32_t p = m.c(1.0 / factorial);
  for (int i = 13; i >= 0; --i) {
    factorial /= (i + 1);
    p = m.add(m.mul(p, r), m.c(1.0 / factorial));
  }
  uint32_t k = t.emit(Spv::ConvertFToS, m.i32, {kf});
  uint32_t k1 = t.emit(Spv::ShiftRightArithmetic, m.i32, {k, t.constant(m.i32, 1)});
  uint32_t k2 = t.emit(Spv::ISub, m.i32, {k, k1});
  uint32_t result = m.mul(m.mul(p, m.powerOfTwo(k1)), m.powerOfTwo(k2));
  return m.select(t.emit(Spv::IsNan, m.b, {x}), x, result);
}

uint32_t logF64(Translator &t, uint32_t x, bool base2) {
  F64 m{t};
  // Subnormals: scaled into the normal range first (exactly).
  uint32_t subnormal = m.less(x, m.c(0x1p-1022));
  uint32_t xs = m.select(subnormal, m.mul(x, m.c(0x1p54)), x);
  uint32_t bits = t.emit(Spv::Bitcast, m.i64, {xs});
  uint32_t field = t.emit(Spv::BitwiseAnd, m.i64, {t.emit(Spv::ShiftRightLogical, m.i64, {bits, t.constant(m.i64, 52)}),
                                                   t.constant(m.i64, 0x7ff)});
  uint32_t e = t.emit(Spv::ISub, m.i32, {t.emit(Spv::UConvert, m.i32, {field}),
                                         t.emit(Spv::Select, m.i32, {subnormal, t.constant(m.i32, 1022 + 54),
                                                                     t.constant(m.i32, 1022)})});
  // x = mant * 2^e, mant in [1/2, 1); then in [sqrt(1/2), sqrt(2)).
  uint32_t mantBits = t.emit(Spv::BitwiseOr, m.i64, {t.emit(Spv::BitwiseAnd, m.i64, {bits, t.constant(m.i64, (uint64_t(1) << 52) - 1)}),
                                                     t.constant(m.i64, uint64_t(1022) << 52)});
  uint32_t mant = t.emit(Spv::Bitcast, m.f64, {mantBits});
  uint32_t low = m.less(mant, m.c(0.70710678118654752440));
  mant = m.select(low, m.mul(mant, m.c(2.0)), mant);
  e = t.emit(Spv::Select, m.i32, {low, t.emit(Spv::ISub, m.i32, {e, t.constant(m.i32, 1)}), e});
  uint32_t f = m.sub(mant, m.c(1.0));
  uint32_t s = t.emit(Spv::FDiv, m.f64, {f, m.add(m.c(2.0), f)});
  uint32_t z = m.mul(s, s);
  uint32_t q = m.c(1.0 / 21);
  for (int d = 19; d >= 1; d -= 2)
    q = m.add(m.mul(q, z), m.c(1.0 / d));
  uint32_t logMant = m.mul(m.mul(m.c(2.0), s), q);
  uint32_t ef = t.emit(Spv::ConvertSToF, m.f64, {e});
  uint32_t result = base2 ? m.add(ef, m.mul(logMant, m.c(kLog2E)))
                          : m.add(m.mul(ef, m.c(kLn2Hi)), m.add(logMant, m.mul(ef, m.c(kLn2Lo))));
  // log(+inf) = +inf, log(0) = -inf, log(x < 0) = NaN, log(NaN) = NaN.
  uint32_t inf = m.c(INFINITY);
  result = m.select(t.emit(Spv::FOrdEqual, m.b, {x, inf}), inf, result);
  result = m.select(t.emit(Spv::FOrdEqual, m.b, {x, m.c(0.0)}), m.c(-INFINITY), result);
  result = m.select(m.less(x, m.c(0.0)), m.c(NAN), result);
  return m.select(t.emit(Spv::IsNan, m.b, {x}), x, result);
}

} // namespace trident::spirv
