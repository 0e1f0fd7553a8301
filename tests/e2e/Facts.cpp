#include "Facts.h"

#include <algorithm>
#include <cassert>
#include <cmath>
#include <limits>

namespace trident::e2e {

namespace {

using i128 = __int128;

// Ulps (in units of the roundoff) a result may differ by between two devices that
// round the same inputs: correctly rounded ops round differently on each side of a
// contraction at most once each; library functions are a few ulps off on each side.
constexpr double kBasicUlps = 2;
constexpr double kDivSqrtUlps = 8;
constexpr double kMathUlps = 16;

bool isInt(Type t) { return t.element().isInteger(); }

Facts clampInt(Type t, i128 lo, i128 hi) {
  if (lo < intMin(t) || hi > intMax(t))
    return fullInt(t);
  return intFacts(int64_t(lo), int64_t(hi));
}

// Facts of a value known only to be >= 0 and < 2^bits (as a signed reading).
Facts nonNegativeBelowPow2(Type t, uint64_t bound) {
  unsigned bits = 0;
  while (bits < 63 && (uint64_t(1) << bits) <= bound)
    ++bits;
  i128 hi = (i128(1) << bits) - 1;
  return clampInt(t, 0, hi);
}

bool nonNegative(const Facts &f) { return f.isInt() && f.ilo >= 0; }

Facts intArith(OpCode code, Type t, const Facts &a, const Facts &b) {
  switch (code) {
  case OpCode::AddI: return clampInt(t, i128(a.ilo) + b.ilo, i128(a.ihi) + b.ihi);
  case OpCode::SubI: return clampInt(t, i128(a.ilo) - b.ihi, i128(a.ihi) - b.ilo);
  case OpCode::MulI: {
    i128 c[] = {i128(a.ilo) * b.ilo, i128(a.ilo) * b.ihi, i128(a.ihi) * b.ilo, i128(a.ihi) * b.ihi};
    return clampInt(t, *std::min_element(c, c + 4), *std::max_element(c, c + 4));
  }
  case OpCode::DivSI: {
    if (a.ilo == intMin(t) || (b.ilo <= 0 && b.ihi >= 0))
      return fullInt(t);
    i128 m = a.imag();
    return clampInt(t, a.ilo >= 0 && b.ilo > 0 ? 0 : -m, m);
  }
  case OpCode::DivUI:
    if (nonNegative(a) && nonNegative(b))
      return intFacts(0, a.ihi);
    return fullInt(t);
  case OpCode::RemSI: {
    if (b.ilo <= 0 && b.ihi >= 0)
      return fullInt(t);
    i128 m = std::min<i128>(a.imag(), i128(b.imag()) - 1);
    return clampInt(t, a.ilo >= 0 ? 0 : -m, m);
  }
  case OpCode::RemUI:
    if (nonNegative(b) && b.ilo > 0)
      return intFacts(0, nonNegative(a) ? std::min(a.ihi, b.ihi - 1) : b.ihi - 1);
    return fullInt(t);
  case OpCode::AndI:
    if (nonNegative(a) && nonNegative(b))
      return intFacts(0, std::min(a.ihi, b.ihi));
    if (nonNegative(a))
      return intFacts(0, a.ihi);
    if (nonNegative(b))
      return intFacts(0, b.ihi);
    return fullInt(t);
  case OpCode::OrI:
  case OpCode::XOrI:
    if (nonNegative(a) && nonNegative(b))
      return nonNegativeBelowPow2(t, uint64_t(std::max(a.ihi, b.ihi)));
    return fullInt(t);
  case OpCode::ShRUI:
    if (b.ilo == b.ihi && b.ilo >= 1 && b.ilo < int64_t(t.element().bitWidth()))
      return nonNegative(a) ? intFacts(0, a.ihi >> b.ilo)
                            : clampInt(t, 0, (i128(1) << (t.element().bitWidth() - unsigned(b.ilo))) - 1);
    return nonNegative(a) && nonNegative(b) ? intFacts(0, a.ihi) : fullInt(t);
  case OpCode::ShRSI:
    if (nonNegative(b))
      return intFacts(std::min<int64_t>(a.ilo, 0), std::max<int64_t>(a.ihi, 0));
    return fullInt(t);
  case OpCode::MinSI: return intFacts(std::min(a.ilo, b.ilo), std::min(a.ihi, b.ihi));
  case OpCode::MaxSI: return intFacts(std::max(a.ilo, b.ilo), std::max(a.ihi, b.ihi));
  case OpCode::MinUI:
    if (nonNegative(a) && nonNegative(b))
      return intFacts(std::min(a.ilo, b.ilo), std::min(a.ihi, b.ihi));
    if (nonNegative(a))
      return intFacts(0, a.ihi);
    if (nonNegative(b))
      return intFacts(0, b.ihi);
    return fullInt(t);
  case OpCode::MaxUI:
    if (nonNegative(a) && nonNegative(b))
      return intFacts(std::max(a.ilo, b.ilo), std::max(a.ihi, b.ihi));
    return fullInt(t);
  default: return fullInt(t);
  }
}

Facts floatAddSub(Type t, const Facts &a, const Facts &b, bool sub) {
  Facts r = a;
  r.lo = sub ? a.lo - b.hi : a.lo + b.lo;
  r.hi = sub ? a.hi - b.lo : a.hi + b.hi;
  r.exact = a.exact && b.exact;
  r.frac = std::max(a.frac, b.frac);
  r.err = a.err + b.err;
  if (r.exact && fitsExact(t, r))
    return r;
  // A device may fuse a multiplication into the addition (skipping the product's
  // rounding, up to an ulp of the operand), and f16/bf16 sums may round twice in the
  // interpreter (through f32): allow ulps of the largest of the three.
  r.exact = false;
  double m = r.mag();
  r.lo -= 2 * unitRoundoff(t) * m, r.hi += 2 * unitRoundoff(t) * m; // the reference's own rounding
  r.err += kBasicUlps * unitRoundoff(t) * std::max({a.mag(), b.mag(), m});
  return r;
}

void mulInterval(const Facts &a, const Facts &b, double &lo, double &hi) {
  double c[] = {a.lo * b.lo, a.lo * b.hi, a.hi * b.lo, a.hi * b.hi};
  lo = *std::min_element(c, c + 4);
  hi = *std::max_element(c, c + 4);
}

Facts floatMul(Type t, const Facts &a, const Facts &b) {
  Facts r = a;
  mulInterval(a, b, r.lo, r.hi);
  r.exact = a.exact && b.exact;
  r.frac = a.frac + b.frac;
  r.err = a.err * b.mag() + b.err * a.mag() + a.err * b.err;
  // A correctly rounded product of the same operands is the same everywhere (f16 and
  // bf16 products are exact in the interpreter's f32).
  return roundTo(t, r, r.err == 0 ? 0 : kBasicUlps);
}

// The smallest magnitude a value may have, counting what devices may add (0 when the
// widened interval holds 0).
double minMagnitude(const Facts &f) {
  double lo = f.lo - f.err, hi = f.hi + f.err;
  if (lo > 0)
    return lo;
  if (hi < 0)
    return -hi;
  return 0;
}

Facts floatDiv(Type t, const Facts &a, const Facts &d, double ulps) {
  double dmin = minMagnitude(d);
  if (dmin <= 0)
    return approxFloat(-INFINITY, INFINITY, INFINITY);
  double dminRef = std::max(dmin, std::min(std::abs(d.lo), std::abs(d.hi)));
  double c[4];
  double dlo = d.lo, dhi = d.hi;
  c[0] = a.lo / dlo, c[1] = a.lo / dhi, c[2] = a.hi / dlo, c[3] = a.hi / dhi;
  Facts r = approxFloat(*std::min_element(c, c + 4), *std::max_element(c, c + 4), 0);
  r.err = a.err / dmin + a.mag() * d.err / (dmin * dminRef);
  return roundTo(t, r, ulps);
}

// A monotone function f applied to [lo, hi]: the image, and the error a Lipschitz
// bound `slope` carries over.
Facts monotone(Type t, const Facts &a, double flo, double fhi, double slope, double ulps, bool absoluteFloor) {
  Facts r = approxFloat(std::min(flo, fhi), std::max(flo, fhi), a.err * slope);
  r = roundTo(t, r, ulps);
  if (absoluteFloor)
    r.err += ulps * unitRoundoff(t);
  return r;
}

Facts floatUnary(OpCode code, Type t, const Facts &a) {
  double wlo = a.lo - a.err, whi = a.hi + a.err; // what any device may hold
  switch (code) {
  case OpCode::NegF: {
    Facts r = a;
    r.lo = -a.hi, r.hi = -a.lo;
    return r;
  }
  case OpCode::AbsF: {
    Facts r = a;
    if (a.lo >= 0)
      return r;
    if (a.hi <= 0) {
      r.lo = -a.hi, r.hi = -a.lo;
      return r;
    }
    r.lo = 0, r.hi = a.mag();
    return r;
  }
  case OpCode::Floor:
  case OpCode::Ceil: {
    if (!a.exact)
      return approxFloat(-INFINITY, INFINITY, INFINITY); // discontinuous: never on approximations
    auto f = code == OpCode::Floor ? [](double x) { return std::floor(x); } : [](double x) { return std::ceil(x); };
    return exactFloat(f(a.lo), f(a.hi), std::min(a.frac, 0));
  }
  case OpCode::Sqrt:
  case OpCode::PreciseSqrt:
    if (wlo <= 0)
      return approxFloat(-INFINITY, INFINITY, INFINITY);
    return monotone(t, a, std::sqrt(a.lo), std::sqrt(a.hi), 0.5 / std::sqrt(wlo),
                    code == OpCode::Sqrt ? kDivSqrtUlps : kBasicUlps, false);
  case OpCode::Rsqrt:
    if (wlo <= 0)
      return approxFloat(-INFINITY, INFINITY, INFINITY);
    return monotone(t, a, 1 / std::sqrt(a.lo), 1 / std::sqrt(a.hi), 0.5 / (wlo * std::sqrt(wlo)), kDivSqrtUlps,
                    false);
  case OpCode::Exp:
    return monotone(t, a, std::exp(a.lo), std::exp(a.hi), std::exp(whi), kMathUlps, true);
  case OpCode::Exp2:
    return monotone(t, a, std::exp2(a.lo), std::exp2(a.hi), std::exp2(whi) * std::log(2.0), kMathUlps, true);
  case OpCode::Log:
  case OpCode::Log2: {
    if (wlo <= 0)
      return approxFloat(-INFINITY, INFINITY, INFINITY);
    double scale = code == OpCode::Log ? 1 : 1 / std::log(2.0);
    return monotone(t, a, std::log(a.lo) * scale, std::log(a.hi) * scale, scale / wlo, kMathUlps, true);
  }
  case OpCode::Sin:
  case OpCode::Cos: {
    // Argument reduction loses about an ulp of the argument.
    Facts r = approxFloat(-1, 1, a.err + kMathUlps * unitRoundoff(t) * std::max(1.0, a.mag()));
    return r;
  }
  case OpCode::Erf:
    return monotone(t, a, std::erf(a.lo), std::erf(a.hi), 1.1284, kMathUlps, true);
  default: return approxFloat(-INFINITY, INFINITY, INFINITY);
  }
}

Facts floatBinary(OpCode code, Type t, const Facts &a, const Facts &b) {
  switch (code) {
  case OpCode::AddF: return floatAddSub(t, a, b, false);
  case OpCode::SubF: return floatAddSub(t, a, b, true);
  case OpCode::MulF: return floatMul(t, a, b);
  case OpCode::DivF: return floatDiv(t, a, b, kDivSqrtUlps);
  case OpCode::PreciseDivF: return floatDiv(t, a, b, kBasicUlps);
  case OpCode::MinimumF:
  case OpCode::MinNumF:
  case OpCode::MaximumF:
  case OpCode::MaxNumF: {
    bool isMin = code == OpCode::MinimumF || code == OpCode::MinNumF;
    Facts r = join(a, b);
    r.lo = isMin ? std::min(a.lo, b.lo) : std::max(a.lo, b.lo);
    r.hi = isMin ? std::min(a.hi, b.hi) : std::max(a.hi, b.hi);
    r.err = std::max(a.err, b.err);
    return r;
  }
  case OpCode::RemF: {
    if (!a.exact || !b.exact || minMagnitude(b) <= 0)
      return approxFloat(-INFINITY, INFINITY, INFINITY); // discontinuous
    double m = std::min(a.mag(), b.mag());
    return exactFloat(a.lo >= 0 ? 0 : -m, a.hi <= 0 ? 0 : m, std::max(a.frac, b.frac));
  }
  default: return approxFloat(-INFINITY, INFINITY, INFINITY);
  }
}

Facts fma(Type t, const Facts &a, const Facts &b, const Facts &c) {
  Facts p = a;
  mulInterval(a, b, p.lo, p.hi);
  p.exact = a.exact && b.exact;
  p.frac = a.frac + b.frac;
  p.err = a.err * b.mag() + b.err * a.mag() + a.err * b.err;
  Facts r = p;
  r.lo = p.lo + c.lo, r.hi = p.hi + c.hi;
  r.exact = p.exact && c.exact;
  r.frac = std::max(p.frac, c.frac);
  r.err = p.err + c.err;
  // An exact product that does not fit still rounds once only in the fused op.
  return roundTo(t, r, kBasicUlps);
}

Facts castFacts(OpCode code, Type to, const Facts &a, Type fromType) {
  switch (code) {
  case OpCode::ExtSI: return a;
  case OpCode::ExtUI:
    if (nonNegative(a))
      return a;
    return clampInt(to, 0, (i128(1) << fromType.element().bitWidth()) - 1);
  case OpCode::TruncI:
    if (fitsInt(to, a.ilo, a.ihi))
      return a;
    return fullInt(to);
  case OpCode::SIToFP:
  case OpCode::UIToFP: {
    double lo = double(a.ilo), hi = double(a.ihi);
    if (code == OpCode::UIToFP && a.ilo < 0) {
      lo = 0;
      hi = std::ldexp(1.0, int(fromType.element().bitWidth())) - 1;
    }
    // Conversions round once, the same everywhere.
    return roundTo(to, exactFloat(lo, hi, 0), 0);
  }
  case OpCode::FPToSI:
  case OpCode::FPToUI: {
    if (!a.exact)
      return fullInt(to); // the generator never converts approximations
    double lo = std::trunc(a.lo), hi = std::trunc(a.hi);
    double mn = code == OpCode::FPToUI ? 0 : double(intMin(to));
    double mx = code == OpCode::FPToUI ? std::ldexp(1.0, int(to.element().bitWidth())) - 1 : double(intMax(to));
    lo = std::clamp(lo, mn, mx), hi = std::clamp(hi, mn, mx);
    if (hi > double(intMax(to)))
      return fullInt(to); // the unsigned result reads negative when signed
    return intFacts(int64_t(lo), int64_t(hi));
  }
  case OpCode::ExtF: return a;
  case OpCode::TruncF: return roundTo(to, a, a.err == 0 ? 0 : kBasicUlps);
  default: return fullInt(to);
  }
}

} // namespace

double Facts::mag() const { return std::max(std::abs(lo), std::abs(hi)); }

uint64_t Facts::imag() const {
  auto absu = [](int64_t v) { return v < 0 ? uint64_t(0) - uint64_t(v) : uint64_t(v); };
  return std::max(absu(ilo), absu(ihi));
}

Facts intFacts(int64_t lo, int64_t hi) {
  Facts f;
  f.kind = Facts::Kind::Int;
  f.ilo = lo, f.ihi = hi;
  return f;
}

Facts fullInt(Type t) { return intFacts(intMin(t), intMax(t)); }

Facts exactFloat(double lo, double hi, int frac) {
  Facts f;
  f.kind = Facts::Kind::Float;
  f.lo = lo, f.hi = hi, f.exact = true, f.frac = frac;
  return f;
}

Facts approxFloat(double lo, double hi, double err) {
  Facts f;
  f.kind = Facts::Kind::Float;
  f.lo = lo, f.hi = hi, f.err = err;
  return f;
}

Facts bitsFacts() {
  Facts f;
  f.kind = Facts::Kind::Bits;
  return f;
}

Facts otherFacts() { return Facts{}; }

Facts join(const Facts &a, const Facts &b) {
  if (a.kind != b.kind) {
    if (a.kind != Facts::Kind::Bits && b.kind != Facts::Kind::Bits)
      return otherFacts();
    // Approximations are not the same bits on every device: nothing holds of a value
    // that may be either (it is stored unchecked, and never bitcast to an integer).
    if ((a.kind == Facts::Kind::Bits ? b : a).isApproxFloat())
      return approxFloat(-INFINITY, INFINITY, INFINITY);
    return bitsFacts();
  }
  switch (a.kind) {
  case Facts::Kind::Int: return intFacts(std::min(a.ilo, b.ilo), std::max(a.ihi, b.ihi));
  case Facts::Kind::Float: {
    Facts r = a;
    r.lo = std::min(a.lo, b.lo), r.hi = std::max(a.hi, b.hi);
    r.exact = a.exact && b.exact;
    r.frac = std::max(a.frac, b.frac);
    r.err = std::max(a.err, b.err);
    return r;
  }
  default: return a;
  }
}

unsigned precisionBits(Type t) {
  switch (t.element().kind()) {
  case TypeKind::F16: return 11;
  case TypeKind::BF16: return 8;
  case TypeKind::F32: return 24;
  case TypeKind::F64: return 53;
  case TypeKind::F8E4M3: return 4;
  case TypeKind::F8E5M2: return 3;
  default: assert(false && "not a float type"); return 0;
  }
}

double unitRoundoff(Type t) { return std::ldexp(1.0, -int(precisionBits(t))); }

double maxFinite(Type t) {
  switch (t.element().kind()) {
  case TypeKind::F16: return 65504;
  case TypeKind::BF16: return 3.3895313892515355e38;
  case TypeKind::F32: return double(std::numeric_limits<float>::max());
  case TypeKind::F64: return std::numeric_limits<double>::max();
  case TypeKind::F8E4M3: return 448;
  case TypeKind::F8E5M2: return 57344;
  default: assert(false && "not a float type"); return 0;
  }
}

double safeMagnitude(Type t) {
  switch (t.element().kind()) {
  case TypeKind::F16: return 4096;
  case TypeKind::F8E4M3: return 240;
  case TypeKind::F8E5M2: return 16384;
  default: return 1e12;
  }
}

// The exponent of the smallest normal number.
static int minNormalExponent(Type t) {
  switch (t.element().kind()) {
  case TypeKind::F16: return -14;
  case TypeKind::BF16:
  case TypeKind::F32: return -126;
  case TypeKind::F64: return -1022;
  case TypeKind::F8E4M3: return -6;
  case TypeKind::F8E5M2: return -14;
  default: return 0;
  }
}

bool fitsExact(Type t, const Facts &f) {
  if (!f.isExactFloat())
    return false;
  if (f.mag() == 0)
    return true;
  if (-f.frac < minNormalExponent(t))
    return false;
  // Every value is k * 2^-frac with |k| <= mag * 2^frac; k must fit the significand.
  return std::ldexp(f.mag(), f.frac) < std::ldexp(1.0, int(precisionBits(t))) && f.mag() <= maxFinite(t);
}

Facts roundTo(Type t, Facts f, double ulpsFactor) {
  if (f.isExactFloat() && fitsExact(t, f))
    return f;
  f.exact = false;
  double m = f.mag();
  // The reference rounds too (twice, for f16 and bf16 computed through f32, or toward
  // zero): its value moves by up to two units of roundoff.
  f.lo -= 2 * unitRoundoff(t) * m, f.hi += 2 * unitRoundoff(t) * m;
  f.err += ulpsFactor * unitRoundoff(t) * m;
  return f;
}

bool fitsInt(Type t, int64_t lo, int64_t hi) { return lo >= intMin(t) && hi <= intMax(t); }

int64_t intMin(Type t) {
  unsigned w = t.element().bitWidth();
  return w >= 64 ? std::numeric_limits<int64_t>::min() : -(int64_t(1) << (w - 1));
}

int64_t intMax(Type t) {
  unsigned w = t.element().bitWidth();
  return w >= 64 ? std::numeric_limits<int64_t>::max() : (int64_t(1) << (w - 1)) - 1;
}

Facts transfer(OpCode code, Type type, std::span<const Facts> in, Type operandType) {
  switch (code) {
  case OpCode::CmpI:
  case OpCode::CmpF: return intFacts(-1, 0);
  case OpCode::Select: return join(in[1], in[2]);
  case OpCode::Fma: return fma(type, in[0], in[1], in[2]);
  case OpCode::AbsI: {
    if (in[0].ilo == intMin(type))
      return fullInt(type);
    Facts r = intFacts(in[0].ilo >= 0 ? in[0].ilo : (in[0].ihi <= 0 ? -in[0].ihi : 0), int64_t(in[0].imag()));
    return r;
  }
  case OpCode::UMulHi: return fullInt(type);
  case OpCode::ShLI: return fullInt(type);
  case OpCode::Bitcast: {
    if (isInt(type))
      return fullInt(type);
    return bitsFacts();
  }
  default: break;
  }
  if (in.size() == 1 && opInfo(code).has(kElementwise)) {
    switch (code) {
    case OpCode::ExtSI:
    case OpCode::ExtUI:
    case OpCode::TruncI:
    case OpCode::SIToFP:
    case OpCode::UIToFP:
    case OpCode::FPToSI:
    case OpCode::FPToUI:
    case OpCode::ExtF:
    case OpCode::TruncF: return castFacts(code, type, in[0], operandType);
    default: return floatUnary(code, type, in[0]);
    }
  }
  if (in.size() == 2 && isInt(type))
    return intArith(code, type, in[0], in[1]);
  if (in.size() == 2)
    return floatBinary(code, type, in[0], in[1]);
  return otherFacts();
}

bool fitsTf32(const Facts &f) {
  if (!f.isExactFloat())
    return false;
  return f.mag() == 0 || (fitsExact(Type::f32(), f) && std::ldexp(f.mag(), f.frac) < std::ldexp(1.0, 11));
}

Facts dotFacts(Type accElement, const Facts &a, const Facts &b, const Facts &acc, int64_t k, bool tf32) {
  double kd = double(k);
  if (accElement.isInteger()) {
    // Wrapping sums are the same in any order: only the range is lost on overflow.
    if (!a.isInt() || !b.isInt() || !acc.isInt())
      return fullInt(accElement);
    i128 c[] = {i128(a.ilo) * b.ilo, i128(a.ilo) * b.ihi, i128(a.ihi) * b.ilo, i128(a.ihi) * b.ihi};
    i128 plo = *std::min_element(c, c + 4), phi = *std::max_element(c, c + 4);
    return clampInt(accElement, i128(acc.ilo) + plo * k, i128(acc.ihi) + phi * k);
  }
  if (!a.isFloat() || !b.isFloat() || !acc.isFloat())
    return approxFloat(-INFINITY, INFINITY, INFINITY);
  double plo, phi;
  mulInterval(a, b, plo, phi);
  double pmag = std::max(std::abs(plo), std::abs(phi));
  // Every partial sum, in any order and with or without the accumulator, is within m.
  double m = acc.mag() + kd * pmag;
  int frac = std::max(acc.frac, a.frac + b.frac);
  bool inputsHold = !tf32 || (fitsTf32(a) && fitsTf32(b));
  if (a.exact && b.exact && acc.exact && inputsHold && fitsExact(accElement, exactFloat(-m, m, frac)))
    return exactFloat(acc.lo + kd * plo, acc.hi + kd * phi, frac);
  Facts r = approxFloat(acc.lo + kd * plo, acc.hi + kd * phi, 0);
  // What the inputs may differ by, carried through k products.
  r.err = acc.err + kd * (a.err * b.mag() + b.err * a.mag() + a.err * b.err);
  // A device may round f32 inputs to tf32 (to nearest: half an ulp of 11 bits each); the
  // reference does not.
  if (tf32 && !inputsHold)
    r.err += kd * (a.mag() + a.err) * (b.mag() + b.err) * 1.01 * std::ldexp(1.0, -10);
  // Each side rounds up to k + 1 partial sums, each by at most an ulp of m; the
  // reference's value drifts from the exact sum by its own share of that.
  double u = unitRoundoff(accElement);
  r.lo -= (kd + 1) * u * m, r.hi += (kd + 1) * u * m;
  r.err += kBasicUlps * (kd + 1) * u * m;
  return r;
}

Facts combineFacts(Combine c, Type element, int64_t n, const Facts &in) {
  switch (c) {
  case Combine::Add: {
    if (in.isInt()) // any count from 1 (a scan's first element) to n
      return clampInt(element, std::min<i128>(in.ilo, i128(in.ilo) * n), std::max<i128>(in.ihi, i128(in.ihi) * n));
    Facts r = in;
    r.lo = std::min(in.lo, in.lo * double(n));
    r.hi = std::max(in.hi, in.hi * double(n));
    r.err = in.err * double(n);
    // Any order of n - 1 additions: each rounds at most the running magnitude.
    if (!(r.exact && fitsExact(element, r))) {
      r.exact = false;
      double w = kBasicUlps * unitRoundoff(element) * double(n) * r.mag();
      r.err += w;
      r.lo -= w, r.hi += w;
    }
    return r;
  }
  case Combine::Mul: return in.isInt() ? fullInt(element) : approxFloat(-INFINITY, INFINITY, INFINITY);
  case Combine::Max:
  case Combine::Min:
  case Combine::MaxNum:
  case Combine::MinNum:
  case Combine::Maximum:
  case Combine::Minimum:
  case Combine::MaxBySelect:
  case Combine::ArgMax:
  case Combine::ArgMin:
  case Combine::ArgIndex: return in;
  case Combine::MaxUnsigned: return nonNegative(in) ? in : fullInt(element);
  case Combine::And: return nonNegative(in) ? intFacts(0, in.ihi) : fullInt(element);
  case Combine::Or:
  case Combine::Xor: return nonNegative(in) ? nonNegativeBelowPow2(element, uint64_t(in.ihi)) : fullInt(element);
  }
  return otherFacts();
}

} // namespace trident::e2e
