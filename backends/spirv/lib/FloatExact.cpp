// Exact floating-point sequences for ops whose SPIR-V instruction Vulkan lets
// drivers compute approximately (lavapipe, for one, does).
//
// fmod: binary long division on the integer significands, one bit per step
// (at most the exponent difference, 277 for f32), then the remainder normalized
// back into a float. Integer arithmetic only, so drivers that flush subnormals
// (Vulkan allows it) still get the exact answer.
//
// fma of f16/f32: a*b is exact in f64; the sum rounds once in f64, its error comes
// from TwoSum, and nudging the f64 sum to an odd last bit when it was inexact
// ("round to odd") makes the final rounding to f32 or f16 the correct one, as f64
// carries more than p + 2 bits. fma of f64: Dekker's exact product and Boldo and
// Melquiond's emulation with rounding to odd ("Emulation of FMA and correctly
// rounded sums", 2008). NoContraction keeps drivers from fusing these steps.
#include "MathF64.h"

#include <bit>

namespace trident::spirv {

uint32_t exactRemainder(Translator &t, uint32_t type, uint32_t x, uint32_t y) {
  uint32_t b = t.boolType();
  unsigned bits = t.w.widthOf(type);
  unsigned mantissaBits = bits == 64 ? 52 : 23;
  uint32_t it = t.w.intType(bits);
  auto k = [&](uint64_t v) { return t.constant(it, v); };
  auto op = [&](Spv o, uint32_t l, uint32_t r) { return t.emit(o, it, {l, r}); };
  auto test = [&](Spv o, uint32_t l, uint32_t r) { return t.emit(o, b, {l, r}); };
  uint64_t sign = uint64_t(1) << (bits - 1), implicit = uint64_t(1) << mantissaBits;
  uint64_t exponentMask = (sign - 1) & ~(implicit - 1);
  uint32_t ux = t.emit(Spv::Bitcast, it, {x}), uy = t.emit(Spv::Bitcast, it, {y});
  uint32_t sx = op(Spv::BitwiseAnd, ux, k(sign));
  uint32_t ax = op(Spv::BitwiseAnd, ux, k(sign - 1)), ay = op(Spv::BitwiseAnd, uy, k(sign - 1));
  // NaN operands, x infinite or y zero: NaN. |x| < |y| (y infinite included): x.
  uint32_t invalid = t.emit(Spv::LogicalOr, b, {t.emit(Spv::LogicalOr, b, {t.emit(Spv::IsNan, b, {x}), t.emit(Spv::IsNan, b, {y})}),
                                                t.emit(Spv::LogicalOr, b, {t.emit(Spv::IsInf, b, {x}), test(Spv::IEqual, ay, k(0))})});
  uint32_t small = test(Spv::ULessThan, ax, ay);
  // Integer significands (implicit bit included) and biased exponents (subnormals: 1).
  auto split = [&](uint32_t a, uint32_t &m, uint32_t &e) {
    uint32_t field = op(Spv::ShiftRightLogical, a, k(mantissaBits));
    uint32_t subnormal = test(Spv::IEqual, field, k(0));
    uint32_t fraction = op(Spv::BitwiseAnd, a, k(implicit - 1));
    m = t.emit(Spv::Select, it, {subnormal, fraction, op(Spv::BitwiseOr, fraction, k(implicit))});
    e = t.emit(Spv::Select, it, {subnormal, k(1), field});
  };
  // Normalized: significands in [2^M, 2^(M+1)), exponents signed (a subnormal's go below 1).
  auto normalize = [&](uint32_t m, uint32_t e) {
    return t.whileLoop({it, it}, {m, e},
        [&](const Ids &v) { return t.emit(Spv::LogicalAnd, b, {test(Spv::ULessThan, v[0], k(implicit)), test(Spv::INotEqual, v[0], k(0))}); },
        [&](const Ids &v) { return Ids{op(Spv::ShiftLeftLogical, v[0], k(1)), op(Spv::ISub, v[1], k(1))}; });
  };
  uint32_t mx0, ex0, my0, ey0;
  split(ax, mx0, ex0);
  split(ay, my0, ey0);
  Ids nx = normalize(mx0, ex0), ny = normalize(my0, ey0);
  uint32_t my = ny[0], ey = ny[1];
  uint32_t skip = t.emit(Spv::LogicalOr, b, {invalid, small});
  // Long division, one bit per step: while ex > ey: mx = (mx >= my ? mx - my : mx) << 1.
  Ids r = t.whileLoop({it, it}, nx,
      [&](const Ids &v) { return t.emit(Spv::LogicalAnd, b, {test(Spv::SGreaterThan, v[1], ey), t.emit(Spv::LogicalNot, b, {skip})}); },
      [&](const Ids &v) {
        uint32_t m = t.emit(Spv::Select, it, {test(Spv::UGreaterThanEqual, v[0], my), op(Spv::ISub, v[0], my), v[0]});
        return Ids{op(Spv::ShiftLeftLogical, m, k(1)), op(Spv::ISub, v[1], k(1))};
      });
  uint32_t rest = t.emit(Spv::Select, it, {test(Spv::UGreaterThanEqual, r[0], my), op(Spv::ISub, r[0], my), r[0]});
  // rest * 2^(ey - bias - M): normalize the significand back, down to exponent 1.
  Ids n = t.whileLoop({it, it}, {rest, ey},
      [&](const Ids &v) {
        return t.emit(Spv::LogicalAnd, b, {t.emit(Spv::LogicalAnd, b, {test(Spv::ULessThan, v[0], k(implicit)), test(Spv::SGreaterThan, v[1], k(1))}),
                                           test(Spv::INotEqual, v[0], k(0))});
      },
      [&](const Ids &v) { return Ids{op(Spv::ShiftLeftLogical, v[0], k(1)), op(Spv::ISub, v[1], k(1))}; });
  // Below exponent 1 (y was subnormal): a subnormal result; the bits shifted out are zeros.
  uint32_t below = test(Spv::SLessThan, n[1], k(1));
  uint32_t shift = t.emit(Spv::Select, it, {below, op(Spv::ISub, k(1), n[1]), k(0)});
  n = {op(Spv::ShiftRightLogical, n[0], shift), t.emit(Spv::Select, it, {below, k(1), n[1]})};
  uint32_t normal = test(Spv::UGreaterThanEqual, n[0], k(implicit));
  uint32_t normalBits = op(Spv::BitwiseOr, op(Spv::BitwiseAnd, op(Spv::ShiftLeftLogical, n[1], k(mantissaBits)), k(exponentMask)),
                           op(Spv::BitwiseAnd, n[0], k(implicit - 1)));
  uint32_t magnitude = t.emit(Spv::Select, it, {normal, normalBits, n[0]});
  uint32_t result = t.emit(Spv::Bitcast, type, {op(Spv::BitwiseOr, magnitude, sx)});
  result = t.emit(Spv::Select, type, {small, x, result});
  uint64_t nan = bits == 64 ? 0x7ff8000000000000ull : 0x7fc00000u;
  return t.emit(Spv::Select, type, {invalid, t.constant(type, nan), result});
}

namespace {

// Error-free transformations on f64 (with F64's twoSum), in arithmetic the driver
// may not fuse (F64's addE, subE, mulE).
struct Exact : F64 {
  // Dekker's product: p + e == a * b exactly (barring overflow in the splitting).
  std::pair<uint32_t, uint32_t> twoProduct(uint32_t a, uint32_t b) {
    uint32_t splitter = c(134217729.0); // 2^27 + 1
    auto split = [&](uint32_t v) {
      uint32_t scaled = mulE(splitter, v);
      uint32_t high = subE(scaled, subE(scaled, v));
      return std::make_pair(high, subE(v, high));
    };
    auto [ah, al] = split(a);
    auto [bh, bl] = split(b);
    uint32_t p = mulE(a, b);
    uint32_t e = addE(addE(addE(subE(mulE(ah, bh), p), mulE(ah, bl)), mulE(al, bh)), mulE(al, bl));
    return {p, e};
  }
  // s, made odd when e says it was rounded: then rounding it again is exact-once rounding.
  uint32_t roundToOdd(uint32_t s, uint32_t e) {
    uint32_t u64 = t.u64Type(), zero = c(0);
    uint32_t sb = t.emit(Spv::Bitcast, u64, {s});
    uint32_t inexact = t.emit(Spv::FUnordNotEqual, b, {e, zero});
    uint32_t finite = t.emit(Spv::LogicalNot, b, {t.emit(Spv::LogicalOr, b, {t.emit(Spv::IsNan, b, {s}), t.emit(Spv::IsInf, b, {s})})});
    uint32_t even = t.emit(Spv::IEqual, b, {t.emit(Spv::BitwiseAnd, u64, {sb, t.u64(1)}), t.u64(0)});
    // Toward the exact value: away from zero when e has s's sign.
    uint32_t up = t.emit(Spv::LogicalEqual, b, {t.emit(Spv::FOrdGreaterThan, b, {e, zero}), t.emit(Spv::FOrdGreaterThan, b, {s, zero})});
    uint32_t nudged = t.emit(Spv::Select, u64, {up, t.emit(Spv::IAdd, u64, {sb, t.u64(1)}), t.emit(Spv::ISub, u64, {sb, t.u64(1)})});
    uint32_t adjust = t.emit(Spv::LogicalAnd, b, {t.emit(Spv::LogicalAnd, b, {inexact, finite}), even});
    return t.emit(Spv::Bitcast, f64, {t.emit(Spv::Select, u64, {adjust, nudged, sb})});
  }
};

} // namespace

uint32_t fusedMultiplyAdd(Translator &t, uint32_t type, uint32_t a, uint32_t b, uint32_t c) {
  Exact x{{t}};
  const uint32_t f64 = x.f64;
  if (type == f64) {
    // Boldo and Melquiond: (uh + ul) = a * b; (th + tl) = c + uh; RN(th + RO(tl + ul)).
    uint32_t boolT = t.boolType();
    auto [uh, ul] = x.twoProduct(a, b);
    auto [th, tl] = x.twoSum(c, uh);
    auto [v, ve] = x.twoSum(tl, ul);
    uint32_t r = x.addE(th, x.roundToOdd(v, ve));
    // An exact zero: the sign of c + a*b when that sum is itself zero, else +0 (IEEE).
    uint32_t zero = t.constant(f64, 0);
    uint32_t rZero = t.emit(Spv::FOrdEqual, boolT, {r, zero}), thZero = t.emit(Spv::FOrdEqual, boolT, {th, zero});
    r = t.emit(Spv::Select, f64, {rZero, t.emit(Spv::Select, f64, {thZero, th, zero}), r});
    // Infinite or NaN operands, or a product out of range: the plain instruction's answer.
    uint32_t plain = t.glsl(Glsl::Fma, f64, {a, b, c});
    uint32_t bad = t.emit(Spv::LogicalOr, boolT, {t.emit(Spv::IsNan, boolT, {r}), t.emit(Spv::IsInf, boolT, {r})});
    return t.emit(Spv::Select, f64, {bad, plain, r});
  }
  auto wide = [&](uint32_t v) { return t.emit(Spv::FConvert, f64, {v}); };
  uint32_t p = x.mulE(wide(a), wide(b)); // exact: f64 holds twice the significand of f32
  auto [s, e] = x.twoSum(p, wide(c));
  return narrowFloat(t, x.roundToOdd(s, e), Type::f64(), type == t.w.floatType(16) ? Type::f16() : Type::f32());
}

} // namespace trident::spirv
