// sin and cos of f64 values: GLSL.std.450 has them for f16 and f32 only.
//
// Range reduction: x = n pi/2 + r with n = round(x 2/pi) and |r| <= pi/4 (a little
// more through rounding), r kept as a sum hi + lo. pi/2 is split Cody-Waite style
// into three parts of 33 significant bits and a fourth of 53, so n * part is exact
// for |n| < 2^20 and x - n * part1 is exact by Sterbenz's lemma; the other parts are
// subtracted with TwoSum, so r carries about 150 bits of pi/2, enough for the
// arguments closest to a multiple of pi/2 (|r| >= 2^-61 |x| for doubles). This holds
// for |x| < 2^20 pi/2 (about 1.6e6).
//
// Beyond, Payne and Hanek's reduction, in 64-bit integers: x = M 2^e with M the
// 53-bit significand, and x 2/pi mod 4 = M V 2^-190 mod 4, where V is the 192 bits of
// 2/pi from the first one that can matter (bit e-1: earlier bits only add multiples of
// 4) on; three 64x64->128 products give it mod 2^192. The two top bits are n mod 4,
// the next 128 the fraction, which is centred, multiplied by pi/2 in fixed point and
// turned into hi + lo. 128 bits of fraction leave more than 64 significant ones even
// for the double closest to a multiple of pi/2, so every finite f64 reduces correctly.
// That path sits behind a branch, as it is rarely taken.
//
// On |r| <= pi/4 sin and cos are odd and even polynomials (fdlibm's published minimax
// coefficients, relative error below 2^-58), with lo entering through the first
// derivative; the quadrant n mod 4 picks +-sin or +-cos. Within one ulp of libm
// in a simulation; backend_vulkan_run_tests compares them with std::sin and std::cos.
#include "MathF64.h"

#include <cmath>

namespace trident::spirv {

namespace {

// pi/2 = sum of these (to about 2^-156).
constexpr double kPiOver2[] = {0x1.921fb54400000p+0, 0x1.0b4611a600000p-34, 0x1.3198a2e000000p-69,
                               0x1.b839a252049c1p-104};
constexpr double kTwoOverPi = 0x1.45f306dc9c883p-1;
// Beyond this the products n * part are no longer exact.
constexpr double kMediumBound = 0x1p20 * 1.5707963267948966;
// sin(r) = r + r^3 (S1 + r^2 S2 + ... + r^10 S6), highest power first.
constexpr double kSin[] = {1.58969099521155010221e-10, -2.50507602534068634195e-08, 2.75573137070700676789e-06,
                           -1.98412698298579493134e-04, 8.33333333332248946124e-03};
constexpr double kSin1 = -1.66666666666666324348e-01;
// cos(r) = 1 - r^2/2 + r^4 (C1 + r^2 C2 + ... + r^10 C6).
constexpr double kCosHigh[] = {-1.13596475577881948265e-11, 2.08757232129817482790e-09, -2.75573143513906633035e-07};
constexpr double kCosLow[] = {2.48015872894767294178e-05, -1.38888888888741095749e-03, 4.16666666666666019037e-02};

// Bits of 2/pi, preceded by 62 zeros: word j holds bits 64j to 64j + 63 of that string.
constexpr uint64_t kTwoOverPiBits[20] = {
    0x0000000000000001, 0x45f306dc9c882a53, 0xf84eafa3ea69bb81, 0xb6c52b3278872083, 0xfca2c757bd778ac3,
    0x6e48dc74849ba5c0, 0x0c925dd413a32439, 0xfc3bd63962534e7d, 0xd1046bea5d768909, 0xd338e04d68befc82,
    0x7323ac7306a673e9, 0x3908bf177bf25076, 0x3ff12fffbc0b301f, 0xde5e2316b414da3e, 0xda6cfd9e4f96136e,
    0x9e8c7ecd3cbfd45a, 0xea4f758fd7cbe2f6, 0x7a0e73ef14a525d4, 0xd7f6bf623f1aba10, 0xac06608df8f6d757};
// pi/2 2^63, rounded.
constexpr uint64_t kPiOver2Fixed = 0xc90fdaa22168c235;

struct Reduced {
  uint32_t quadrant; // i32, n mod 4
  uint32_t hi, lo;   // r = hi + lo, |lo| <= ulp(hi) / 2
};

// n mod 4 of an integral f64 n, as an i32 in [0, 3].
uint32_t quadrantOf(F64 &m, uint32_t n) {
  uint32_t q = m.subE(n, m.mulE(m.c(4.0), m.t.glsl(Glsl::Floor, m.f64, {m.mulE(n, m.c(0.25))})));
  return m.t.emit(Spv::ConvertFToS, m.i32, {q});
}

Reduced mediumReduction(F64 &m, uint32_t x) {
  uint32_t n = m.t.glsl(Glsl::Floor, m.f64, {m.addE(m.mulE(x, m.c(kTwoOverPi)), m.c(0.5))});
  uint32_t a = m.subE(x, m.mulE(n, m.c(kPiOver2[0])));
  auto [s1, e1] = m.twoSum(a, m.neg(m.mulE(n, m.c(kPiOver2[1]))));
  auto [s2, e2] = m.twoSum(s1, m.neg(m.mulE(n, m.c(kPiOver2[2]))));
  uint32_t lo = m.subE(m.addE(e1, e2), m.mulE(n, m.c(kPiOver2[3])));
  uint32_t hi = m.addE(s2, lo);
  return {quadrantOf(m, n), hi, m.subE(lo, m.subE(hi, s2))};
}

// For finite |x| >= 2^20 (Payne-Hanek, see the top of the file).
Reduced largeReduction(F64 &m, uint32_t x) {
  Translator &t = m.t;
  uint32_t u64 = m.i64, b = m.b;
  auto k = [&](uint64_t v) { return t.constant(u64, v); };
  auto op = [&](Spv o, uint32_t l, uint32_t r) { return t.emit(o, u64, {l, r}); };
  // {low, high} of the 128-bit product.
  auto wide = [&](uint32_t l, uint32_t r) {
    uint32_t both = t.emit(Spv::UMulExtended, t.pairType(u64), {l, r});
    return std::pair{t.emit(Spv::CompositeExtract, u64, {both, 0}), t.emit(Spv::CompositeExtract, u64, {both, 1})};
  };
  auto carry = [&](uint32_t sum, uint32_t addend) {
    return t.emit(Spv::Select, u64, {t.emit(Spv::ULessThan, b, {sum, addend}), k(1), k(0)});
  };
  uint32_t bits = op(Spv::BitwiseAnd, t.emit(Spv::Bitcast, u64, {x}), k(~uint64_t(0) >> 1));
  uint32_t field = op(Spv::ShiftRightLogical, bits, k(52));
  uint32_t significand = op(Spv::BitwiseOr, op(Spv::BitwiseAnd, bits, k((uint64_t(1) << 52) - 1)), k(uint64_t(1) << 52));
  // The window starts at bit e - 1 of 2/pi, e = field - 1075: bit e + 61 of the table.
  uint32_t start = op(Spv::ISub, field, k(1075 - 61));
  uint32_t word = op(Spv::ShiftRightLogical, start, k(6)), shift = op(Spv::BitwiseAnd, start, k(63));
  uint32_t backShift = op(Spv::BitwiseAnd, op(Spv::ISub, k(64), shift), k(63));
  uint32_t aligned = t.emit(Spv::IEqual, b, {shift, k(0)});
  constexpr int kLastWord = 16; // field 2046
  uint32_t isWord[kLastWord + 1];
  for (int j = 1; j <= kLastWord; ++j)
    isWord[j] = t.emit(Spv::IEqual, b, {word, k(j)});
  auto tableWord = [&](int offset) {
    uint32_t v = k(kTwoOverPiBits[offset]);
    for (int j = 1; j <= kLastWord; ++j)
      v = t.emit(Spv::Select, u64, {isWord[j], k(kTwoOverPiBits[j + offset]), v});
    return v;
  };
  uint32_t table[4];
  for (int i = 0; i < 4; ++i)
    table[i] = tableWord(i);
  uint32_t v[3];
  for (int i = 0; i < 3; ++i) {
    uint32_t low = t.emit(Spv::Select, u64, {aligned, k(0), op(Spv::ShiftRightLogical, table[i + 1], backShift)});
    v[i] = op(Spv::BitwiseOr, op(Spv::ShiftLeftLogical, table[i], shift), low);
  }
  // M V mod 2^192 = r0 r1 r2 (64-bit words, r0 highest).
  auto [l2, h2] = wide(significand, v[2]);
  auto [l1, h1] = wide(significand, v[1]);
  uint32_t r2 = l2, r1 = op(Spv::IAdd, l1, h2);
  uint32_t r0 = op(Spv::IAdd, op(Spv::IAdd, op(Spv::IMul, significand, v[0]), h1), carry(r1, l1));
  uint32_t quadrant = op(Spv::ShiftRightLogical, r0, k(62));
  // The fraction's top 128 bits: a b.
  uint32_t a = op(Spv::BitwiseOr, op(Spv::ShiftLeftLogical, r0, k(2)), op(Spv::ShiftRightLogical, r1, k(62)));
  uint32_t bb = op(Spv::BitwiseOr, op(Spv::ShiftLeftLogical, r1, k(2)), op(Spv::ShiftRightLogical, r2, k(62)));
  // A fraction of 1/2 or more is the next quadrant's, negative: 1 - fraction, negated later.
  uint32_t upper = t.emit(Spv::INotEqual, b, {op(Spv::ShiftRightLogical, a, k(63)), k(0)});
  quadrant = op(Spv::IAdd, quadrant, t.emit(Spv::Select, u64, {upper, k(1), k(0)}));
  uint32_t negB = op(Spv::IAdd, t.emit(Spv::Not, u64, {bb}), k(1));
  uint32_t negA = op(Spv::IAdd, t.emit(Spv::Not, u64, {a}), t.emit(Spv::Select, u64, {t.emit(Spv::IEqual, b, {negB, k(0)}), k(1), k(0)}));
  a = t.emit(Spv::Select, u64, {upper, negA, a});
  bb = t.emit(Spv::Select, u64, {upper, negB, bb});
  // |r| 2^127 = (a 2^64 + b) (pi/2 2^63) / 2^64, its top 128 bits: t0 t1.
  auto [la, ha] = wide(a, k(kPiOver2Fixed));
  uint32_t hb = wide(bb, k(kPiOver2Fixed)).second;
  uint32_t t1 = op(Spv::IAdd, la, hb), t0 = op(Spv::IAdd, ha, carry(t1, la));
  // t0 as a double plus what its rounding lost (exact: below 2^11), then t1.
  uint32_t t0f = t.emit(Spv::ConvertUToF, m.f64, {t0});
  uint32_t lost = t.emit(Spv::ConvertSToF, m.f64, {op(Spv::ISub, t0, t.emit(Spv::ConvertFToU, u64, {t0f}))});
  uint32_t hiRaw = m.mulE(t0f, m.c(0x1p-63));
  uint32_t loRaw = m.mulE(m.addE(lost, m.mulE(t.emit(Spv::ConvertUToF, m.f64, {t1}), m.c(0x1p-64))), m.c(0x1p-63));
  uint32_t hi = m.addE(hiRaw, loRaw), lo = m.subE(loRaw, m.subE(hi, hiRaw));
  // Signs: the upper half's fraction, and x's (the reduction of -x is -n, -r).
  uint32_t negative = t.emit(Spv::LogicalNotEqual, b, {upper, m.less(x, m.c(0.0))});
  hi = m.select(negative, m.neg(hi), hi);
  lo = m.select(negative, m.neg(lo), lo);
  uint32_t q = t.emit(Spv::UConvert, m.i32, {quadrant});
  q = t.emit(Spv::Select, m.i32, {m.less(x, m.c(0.0)), t.emit(Spv::SNegate, m.i32, {q}), q});
  return {q, hi, lo};
}

// sin(hi + lo) for |hi| <= pi/4.
uint32_t sinKernel(F64 &m, uint32_t hi, uint32_t lo) {
  uint32_t z = m.mulE(hi, hi), v = m.mulE(z, hi);
  uint32_t p = m.horner(kSin, z);
  // hi + v (S1 + z p) + lo (1 - z/2), summed small terms first.
  uint32_t inner = m.subE(m.mulE(z, m.subE(m.mulE(m.c(0.5), lo), m.mulE(v, p))), lo);
  return m.subE(hi, m.subE(inner, m.mulE(v, m.c(kSin1))));
}

// cos(hi + lo) for |hi| <= pi/4.
uint32_t cosKernel(F64 &m, uint32_t hi, uint32_t lo) {
  uint32_t z = m.mulE(hi, hi), z2 = m.mulE(z, z);
  uint32_t r = m.addE(m.mulE(z, m.horner(kCosLow, z)), m.mulE(m.mulE(z2, z2), m.horner(kCosHigh, z)));
  // 1 - z/2 rounded, plus what that rounding lost, plus z r - hi lo.
  uint32_t half = m.mulE(m.c(0.5), z), w = m.subE(m.c(1.0), half);
  uint32_t lost = m.subE(m.subE(m.c(1.0), w), half);
  return m.addE(w, m.addE(lost, m.subE(m.mulE(z, r), m.mulE(hi, lo))));
}

} // namespace

uint32_t sinCosF64(Translator &t, uint32_t x, bool cosine) {
  F64 m{t};
  uint32_t finite = t.emit(Spv::LogicalNot, m.b, {m.orElse(m.isNan(x), t.emit(Spv::IsInf, m.b, {x}))});
  uint32_t xs = m.select(finite, x, m.c(0.0));
  uint32_t ax = m.abs(xs);
  Reduced r = mediumReduction(m, xs);
  uint32_t large = t.emit(Spv::LogicalNot, m.b, {m.less(ax, m.c(kMediumBound))});
  Ids wide = t.guarded(large, {m.i32, m.f64, m.f64}, {t.constant(m.i32, 0), m.c(0.0), m.c(0.0)}, [&] {
    Reduced l = largeReduction(m, xs);
    return Ids{l.quadrant, l.hi, l.lo};
  });
  r.quadrant = t.emit(Spv::Select, m.i32, {large, wide[0], r.quadrant});
  r.hi = m.select(large, wide[1], r.hi);
  r.lo = m.select(large, wide[2], r.lo);
  uint32_t s = sinKernel(m, r.hi, r.lo), c = cosKernel(m, r.hi, r.lo);
  // sin: quadrants 0..3 give sin, cos, -sin, -cos of r; cos is sin one quadrant on.
  uint32_t q = r.quadrant;
  if (cosine)
    q = t.emit(Spv::IAdd, m.i32, {q, t.constant(m.i32, 1)});
  auto bit = [&](uint32_t mask) {
    return t.emit(Spv::INotEqual, m.b, {t.emit(Spv::BitwiseAnd, m.i32, {q, t.constant(m.i32, mask)}), t.constant(m.i32, 0)});
  };
  uint32_t value = m.select(bit(1), c, s);
  value = m.select(bit(2), m.neg(value), value);
  // Tiny arguments: sin x = x (keeping -0 and subnormals), cos x = 1.
  uint32_t tiny = m.less(ax, m.c(0x1p-27));
  value = m.select(tiny, cosine ? m.c(1.0) : xs, value);
  return m.select(finite, value, m.c(NAN)); // NaN and +-inf: NaN
}

} // namespace trident::spirv
