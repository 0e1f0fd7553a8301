// Elementwise ops: integer and float arithmetic, comparisons, select, casts, math
// functions and pointer arithmetic. Operands of one element broadcast, which lets
// reduce/scan combiners run on whole slices at once.
//
// Integers wrap to their width. Floats compute in their type: f64 in double, f32 in
// float, f16/bf16/f8 in float and rounded to the type (to nearest even) after each op.

#include "InterpImpl.h"
#include "trident/ir/ArithOps.h"
#include "trident/ir/MathOps.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace trident::interp {

namespace {

// ---- float kernels -----------------------------------------------------------

// Runs `f` on the elements of `ins` in `elem`'s compute type and rounds to `elem`.
template <size_t N, class F>
void floatMap(Type elem, const std::array<const RtValue *, N> &ins, RtValue &out, F f) {
  std::array<size_t, N> stride;
  for (size_t k = 0; k < N; ++k)
    stride[k] = strideOf(*ins[k]);
  auto arg = [&](size_t k, size_t i) { return slotToDouble(ins[k]->data[i * stride[k]]); };
  const size_t n = out.size();
  switch (elem.kind()) {
  case TypeKind::F64:
    for (size_t i = 0; i < n; ++i) {
      if constexpr (N == 1)
        out.data[i] = doubleToSlot(f(arg(0, i)));
      else if constexpr (N == 2)
        out.data[i] = doubleToSlot(f(arg(0, i), arg(1, i)));
      else
        out.data[i] = doubleToSlot(f(arg(0, i), arg(1, i), arg(2, i)));
    }
    return;
  case TypeKind::F32:
    for (size_t i = 0; i < n; ++i) {
      float r;
      if constexpr (N == 1)
        r = f(float(arg(0, i)));
      else if constexpr (N == 2)
        r = f(float(arg(0, i)), float(arg(1, i)));
      else
        r = f(float(arg(0, i)), float(arg(1, i)), float(arg(2, i)));
      out.data[i] = doubleToSlot(r);
    }
    return;
  default: {
    FloatFormat format = narrowFormat(elem.kind());
    for (size_t i = 0; i < n; ++i) {
      float r;
      if constexpr (N == 1)
        r = f(float(arg(0, i)));
      else if constexpr (N == 2)
        r = f(float(arg(0, i)), float(arg(1, i)));
      else
        r = f(float(arg(0, i)), float(arg(1, i)), float(arg(2, i)));
      out.data[i] = doubleToSlot(roundToFormat(r, format));
    }
    return;
  }
  }
}

// fma in a narrow float format (f16, bf16, fp8), rounded once as the hardware's fma.rn
// does: x * y is exact in double (at most 2 x 11 significant bits), the sum is rounded
// to odd (TwoSum's error decides the last bit), and rounding that to the format, at least
// two bits narrower, is the correctly rounded result. (In float, 4446 - 2^-20 in f16 became
// the tie 4446 and then 4448, where the answer is 4444.)
double narrowFma(double x, double y, double z, FloatFormat format) {
  double p = x * y, s = p + z;
  if (std::isfinite(s)) {
    double bp = s - z, error = (p - bp) + (z - (s - bp));
    if (error != 0 && !(std::bit_cast<uint64_t>(s) & 1))
      s = std::nextafter(s, error > 0 ? INFINITY : -INFINITY);
  }
  return roundToFormat(s, format);
}

void narrowFmaMap(Type elem, const std::array<const RtValue *, 3> &ins, RtValue &out) {
  FloatFormat format = narrowFormat(elem.kind());
  auto arg = [&](size_t k, size_t i) { return slotToDouble(ins[k]->data[i * strideOf(*ins[k])]); };
  for (size_t i = 0; i < out.size(); ++i)
    out.data[i] = doubleToSlot(narrowFma(arg(0, i), arg(1, i), arg(2, i), format));
}

// minimumf/maximumf: NaN wins; -0 orders below +0.
template <class T> T minimum(T x, T y) {
  if (std::isnan(x) || std::isnan(y))
    return x + y;
  if (x == y)
    return std::signbit(x) ? x : y;
  return x < y ? x : y;
}
template <class T> T maximum(T x, T y) {
  if (std::isnan(x) || std::isnan(y))
    return x + y;
  if (x == y)
    return std::signbit(x) ? y : x;
  return x > y ? x : y;
}
// minnumf/maxnumf: a NaN operand loses to a number.
template <class T> T minNum(T x, T y) { return std::isnan(x) ? y : std::isnan(y) ? x : minimum(x, y); }
template <class T> T maxNum(T x, T y) { return std::isnan(x) ? y : std::isnan(y) ? x : maximum(x, y); }

bool unsupported(Exec &ex, const Op *op) {
  return ex.fail(op, "'" + std::string(op->name()) + "' is not supported by the interpreter");
}

// ---- integer → float with one rounding ---------------------------------------

double integerToFloat(Type dst, bool isSigned, uint64_t v) {
  if (dst.kind() == TypeKind::F64)
    return isSigned ? static_cast<double>(static_cast<int64_t>(v)) : static_cast<double>(v);
  if (dst.kind() == TypeKind::F32)
    return isSigned ? static_cast<float>(static_cast<int64_t>(v)) : static_cast<float>(v);
  bool negative = isSigned && static_cast<int64_t>(v) < 0;
  uint64_t magnitude = negative ? uint64_t(0) - v : v;
  // Narrow to 53 bits, keeping a sticky bit: the double is then exact for rounding
  // purposes, since the target has far fewer than 51 mantissa bits.
  int shift = 0;
  while ((magnitude >> shift) >= (uint64_t(1) << 53))
    ++shift;
  uint64_t kept = magnitude >> shift;
  if (shift && (magnitude & ((uint64_t(1) << shift) - 1)))
    kept |= 1;
  double d = std::ldexp(static_cast<double>(kept), shift);
  return roundToFormat(negative ? -d : d, narrowFormat(dst.kind()));
}

// Float → integer: toward zero, saturating to the range, NaN gives 0 (PTX cvt.rzi).
uint64_t floatToInteger(double d, unsigned width, bool isSigned) {
  if (std::isnan(d))
    return 0;
  double t = std::trunc(d);
  if (isSigned) {
    double limit = std::ldexp(1.0, static_cast<int>(width) - 1);
    int64_t lo = width >= 64 ? INT64_MIN : -(int64_t(1) << (width - 1));
    int64_t hi = width >= 64 ? INT64_MAX : static_cast<int64_t>((uint64_t(1) << (width - 1)) - 1);
    int64_t r = t >= limit ? hi : t < -limit ? lo : static_cast<int64_t>(t);
    return static_cast<uint64_t>(r) & widthMask(width);
  }
  if (t <= 0)
    return 0;
  if (t >= std::ldexp(1.0, static_cast<int>(width)))
    return widthMask(width);
  return static_cast<uint64_t>(t);
}

// ---- the op families ---------------------------------------------------------

struct Prepared {
  std::array<const RtValue *, 3> in{};
  RtValue out;
};

// Gathers the operands of an elementwise op and sizes its result.
bool prepare(Exec &ex, const Op *op, Prepared &p) {
  size_t n;
  std::vector<int64_t> shape;
  for (unsigned i = 0; i < op->numOperands() && i < 3; ++i)
    p.in[i] = &ex.get(op->operand(i));
  if (!elementwiseExtent({p.in[0], p.in[1], p.in[2]}, n, shape))
    return ex.fail(op, "'" + std::string(op->name()) + "' operands have different shapes");
  p.out = RtValue{op->result()->type().element(), std::move(shape), std::vector<uint64_t>(n)};
  return true;
}

bool integerBinary(Exec &ex, const Op *op, Prepared &p) {
  const RtValue &a = *p.in[0], &b = *p.in[1];
  const unsigned w = p.out.elem.bitWidth();
  const uint64_t m = widthMask(w);
  const size_t sa = strideOf(a), sb = strideOf(b), n = p.out.size();
  bool divideByZero = false;
  auto run = [&](auto f) {
    for (size_t i = 0; i < n; ++i)
      p.out.data[i] = f(a.data[i * sa], b.data[i * sb]) & m;
  };
  auto sx = [w](uint64_t v) { return signExtend(v, w); };
  switch (op->code()) {
  case OpCode::AddI: run([](uint64_t x, uint64_t y) { return x + y; }); break;
  case OpCode::SubI: run([](uint64_t x, uint64_t y) { return x - y; }); break;
  case OpCode::MulI: run([](uint64_t x, uint64_t y) { return x * y; }); break;
  case OpCode::DivSI:
    run([&](uint64_t x, uint64_t y) -> uint64_t {
      if ((y & m) == 0)
        return divideByZero = true, 0;
      if (sx(y) == -1) // MIN / -1 wraps to MIN instead of trapping
        return uint64_t(0) - x;
      return static_cast<uint64_t>(sx(x) / sx(y));
    });
    break;
  case OpCode::DivUI:
    run([&](uint64_t x, uint64_t y) -> uint64_t { return y == 0 ? (divideByZero = true, 0) : x / y; });
    break;
  case OpCode::RemSI:
    run([&](uint64_t x, uint64_t y) -> uint64_t {
      if ((y & m) == 0)
        return divideByZero = true, 0;
      if (sx(y) == -1)
        return 0;
      return static_cast<uint64_t>(sx(x) % sx(y));
    });
    break;
  case OpCode::RemUI:
    run([&](uint64_t x, uint64_t y) -> uint64_t { return y == 0 ? (divideByZero = true, 0) : x % y; });
    break;
  case OpCode::AndI: run([](uint64_t x, uint64_t y) { return x & y; }); break;
  case OpCode::OrI: run([](uint64_t x, uint64_t y) { return x | y; }); break;
  case OpCode::XOrI: run([](uint64_t x, uint64_t y) { return x ^ y; }); break;
  // Shift amounts are unsigned; shifting by the width or more gives 0 (shrsi: the sign).
  case OpCode::ShLI: run([w](uint64_t x, uint64_t y) { return y >= w ? 0 : x << y; }); break;
  case OpCode::ShRUI: run([w](uint64_t x, uint64_t y) { return y >= w ? 0 : x >> y; }); break;
  case OpCode::ShRSI:
    run([&](uint64_t x, uint64_t y) { return static_cast<uint64_t>(sx(x) >> (y >= w ? 63 : y)); });
    break;
  case OpCode::MinSI: run([&](uint64_t x, uint64_t y) { return sx(x) <= sx(y) ? x : y; }); break;
  case OpCode::MaxSI: run([&](uint64_t x, uint64_t y) { return sx(x) >= sx(y) ? x : y; }); break;
  case OpCode::MinUI: run([](uint64_t x, uint64_t y) { return std::min(x, y); }); break;
  case OpCode::MaxUI: run([](uint64_t x, uint64_t y) { return std::max(x, y); }); break;
  case OpCode::UMulHi:
    run([w](uint64_t x, uint64_t y) {
      unsigned __int128 product = static_cast<unsigned __int128>(x) * y;
      return static_cast<uint64_t>(product >> w);
    });
    break;
  default: return unsupported(ex, op);
  }
  if (divideByZero)
    return ex.fail(op, "integer division by zero in '" + std::string(op->name()) + "'");
  return true;
}

bool floatArith(Exec &ex, const Op *op, Prepared &p) {
  Type elem = p.out.elem;
  std::array<const RtValue *, 1> one{p.in[0]};
  std::array<const RtValue *, 2> two{p.in[0], p.in[1]};
  std::array<const RtValue *, 3> three{p.in[0], p.in[1], p.in[2]};
  if (op->code() == OpCode::Fma && elem.kind() != TypeKind::F32 && elem.kind() != TypeKind::F64) {
    narrowFmaMap(elem, three, p.out);
    return true;
  }
  // The math ops: MathOps.def's scalar functions.
  if (visitMathScalar(op->code(), [&](auto arity, auto f) {
        if constexpr (arity == 1)
          floatMap(elem, one, p.out, f);
        else if constexpr (arity == 2)
          floatMap(elem, two, p.out, f);
        else
          floatMap(elem, three, p.out, f);
      }))
    return true;
  switch (op->code()) {
  case OpCode::AddF: floatMap(elem, two, p.out, [](auto x, auto y) { return x + y; }); break;
  case OpCode::SubF: floatMap(elem, two, p.out, [](auto x, auto y) { return x - y; }); break;
  case OpCode::MulF: floatMap(elem, two, p.out, [](auto x, auto y) { return x * y; }); break;
  case OpCode::DivF:
  case OpCode::PreciseDivF: floatMap(elem, two, p.out, [](auto x, auto y) { return x / y; }); break;
  case OpCode::RemF: floatMap(elem, two, p.out, [](auto x, auto y) { return std::fmod(x, y); }); break;
  case OpCode::MinimumF: floatMap(elem, two, p.out, [](auto x, auto y) { return minimum(x, y); }); break;
  case OpCode::MaximumF: floatMap(elem, two, p.out, [](auto x, auto y) { return maximum(x, y); }); break;
  case OpCode::MinNumF: floatMap(elem, two, p.out, [](auto x, auto y) { return minNum(x, y); }); break;
  case OpCode::MaxNumF: floatMap(elem, two, p.out, [](auto x, auto y) { return maxNum(x, y); }); break;
  case OpCode::NegF: floatMap(elem, one, p.out, [](auto x) { return -x; }); break;
  default: return unsupported(ex, op);
  }
  return true;
}

bool compare(Exec &ex, const Op *op, Prepared &p) {
  const RtValue &a = *p.in[0], &b = *p.in[1];
  const Attribute &attr = op->attr("predicate");
  const std::string pred = attr.isString() ? attr.getString() : std::string();
  const size_t sa = strideOf(a), sb = strideOf(b), n = p.out.size();
  auto run = [&](auto f) {
    for (size_t i = 0; i < n; ++i)
      p.out.data[i] = f(a.data[i * sa], b.data[i * sb]) ? 1 : 0;
  };
  if (op->is(OpCode::CmpI)) {
    unsigned w = a.elem.bitWidth();
    auto sx = [w](uint64_t v) { return signExtend(v, w); };
    if (pred == "eq")
      run([](uint64_t x, uint64_t y) { return x == y; });
    else if (pred == "ne")
      run([](uint64_t x, uint64_t y) { return x != y; });
    else if (pred == "slt")
      run([&](uint64_t x, uint64_t y) { return sx(x) < sx(y); });
    else if (pred == "sle")
      run([&](uint64_t x, uint64_t y) { return sx(x) <= sx(y); });
    else if (pred == "sgt")
      run([&](uint64_t x, uint64_t y) { return sx(x) > sx(y); });
    else if (pred == "sge")
      run([&](uint64_t x, uint64_t y) { return sx(x) >= sx(y); });
    else if (pred == "ult")
      run([](uint64_t x, uint64_t y) { return x < y; });
    else if (pred == "ule")
      run([](uint64_t x, uint64_t y) { return x <= y; });
    else if (pred == "ugt")
      run([](uint64_t x, uint64_t y) { return x > y; });
    else if (pred == "uge")
      run([](uint64_t x, uint64_t y) { return x >= y; });
    else
      return ex.fail(op, "'arith.cmpi' predicate \"" + pred + "\" is not supported");
    return true;
  }
  auto runF = [&](auto f) {
    run([&](uint64_t x, uint64_t y) {
      double dx = slotToDouble(x), dy = slotToDouble(y);
      bool unordered = std::isnan(dx) || std::isnan(dy);
      return f(dx, dy, unordered);
    });
  };
  if (pred == "oeq")
    runF([](double x, double y, bool u) { return !u && x == y; });
  else if (pred == "one")
    runF([](double x, double y, bool u) { return !u && x != y; });
  else if (pred == "olt")
    runF([](double x, double y, bool u) { return !u && x < y; });
  else if (pred == "ole")
    runF([](double x, double y, bool u) { return !u && x <= y; });
  else if (pred == "ogt")
    runF([](double x, double y, bool u) { return !u && x > y; });
  else if (pred == "oge")
    runF([](double x, double y, bool u) { return !u && x >= y; });
  else if (pred == "ord")
    runF([](double, double, bool u) { return !u; });
  else if (pred == "ueq")
    runF([](double x, double y, bool u) { return u || x == y; });
  else if (pred == "une")
    runF([](double x, double y, bool u) { return u || x != y; });
  else if (pred == "ult")
    runF([](double x, double y, bool u) { return u || x < y; });
  else if (pred == "ule")
    runF([](double x, double y, bool u) { return u || x <= y; });
  else if (pred == "ugt")
    runF([](double x, double y, bool u) { return u || x > y; });
  else if (pred == "uge")
    runF([](double x, double y, bool u) { return u || x >= y; });
  else if (pred == "uno")
    runF([](double, double, bool u) { return u; });
  else
    return ex.fail(op, "'arith.cmpf' predicate \"" + pred + "\" is not supported");
  return true;
}

// Casts, select, pointer ops and integer abs: one result slot from one input slot each.
bool convert(Exec &ex, const Op *op, Prepared &p) {
  const RtValue &a = *p.in[0];
  Type src = a.elem, dst = p.out.elem;
  const unsigned ws = src.bitWidth(), wd = dst.bitWidth();
  const size_t sa = strideOf(a), n = p.out.size();
  auto run = [&](auto f) {
    for (size_t i = 0; i < n; ++i)
      p.out.data[i] = f(a.data[i * sa]);
  };
  switch (op->code()) {
  case OpCode::ExtSI:
    run([&](uint64_t x) { return static_cast<uint64_t>(signExtend(x, ws)) & widthMask(wd); });
    break;
  case OpCode::ExtUI:
  case OpCode::TruncI:
  case OpCode::PtrToInt:
  case OpCode::IntToPtr: run([&](uint64_t x) { return x & widthMask(wd); }); break;
  case OpCode::SIToFP:
    run([&](uint64_t x) {
      return doubleToSlot(integerToFloat(dst, true, static_cast<uint64_t>(signExtend(x, ws))));
    });
    break;
  case OpCode::UIToFP: run([&](uint64_t x) { return doubleToSlot(integerToFloat(dst, false, x)); }); break;
  case OpCode::FPToSI: run([&](uint64_t x) { return floatToInteger(slotToDouble(x), wd, true); }); break;
  case OpCode::FPToUI: run([&](uint64_t x) { return floatToInteger(slotToDouble(x), wd, false); }); break;
  case OpCode::ExtF: run([](uint64_t x) { return x; }); break; // widening is exact
  case OpCode::TruncF: {
    const Attribute &r = op->attr("rounding");
    FloatRounding rounding =
        r.isString() && r.getString() == "rtz" ? FloatRounding::TowardZero : FloatRounding::NearestEven;
    run([&](uint64_t x) { return doubleToSlot(roundToType(dst, slotToDouble(x), rounding)); });
    break;
  }
  case OpCode::Bitcast: {
    if (byteSize(src) != byteSize(dst))
      return ex.fail(op, "'tt.bitcast' from " + src.str() + " to " + dst.str() + " changes the width");
    run([&](uint64_t x) { return rawToSlot(dst, slotToRaw(src, x)); });
    break;
  }
  case OpCode::AbsI:
    run([&](uint64_t x) {
      int64_t v = signExtend(x, ws);
      return (v < 0 ? uint64_t(0) - x : x) & widthMask(ws);
    });
    break;
  case OpCode::AddPtr: {
    const RtValue &offset = *p.in[1];
    const size_t so = strideOf(offset);
    const unsigned wo = offset.elem.bitWidth();
    const uint64_t scale = byteSize(src.pointee());
    for (size_t i = 0; i < n; ++i)
      p.out.data[i] = a.data[i * sa] + static_cast<uint64_t>(signExtend(offset.data[i * so], wo)) * scale;
    break;
  }
  case OpCode::Select: {
    const RtValue &x = *p.in[1], &y = *p.in[2];
    const size_t sx = strideOf(x), sy = strideOf(y);
    for (size_t i = 0; i < n; ++i)
      p.out.data[i] = (a.data[i * sa] & 1) ? x.data[i * sx] : y.data[i * sy];
    break;
  }
  default: return unsupported(ex, op);
  }
  return true;
}

} // namespace

bool execArith(Exec &ex, const Op *op) {
  if (op->numResults() != 1 || op->numOperands() == 0 || op->numOperands() > 3)
    return unsupported(ex, op);
  Prepared p;
  if (!prepare(ex, op, p))
    return false;
  bool ok;
  const ArithOpInfo *arith = arithOpInfo(op->code());
  switch (op->code()) {
  case OpCode::CmpI:
  case OpCode::CmpF: ok = compare(ex, op, p); break;
  case OpCode::ExtSI:
  case OpCode::ExtUI:
  case OpCode::TruncI:
  case OpCode::SIToFP:
  case OpCode::UIToFP:
  case OpCode::FPToSI:
  case OpCode::FPToUI:
  case OpCode::ExtF:
  case OpCode::TruncF:
  case OpCode::Bitcast:
  case OpCode::PtrToInt:
  case OpCode::IntToPtr:
  case OpCode::AbsI:
  case OpCode::AddPtr:
  case OpCode::Select: ok = convert(ex, op, p); break;
  default:
    if (arith && arith->elements == ArithElements::Integer)
      ok = integerBinary(ex, op, p);
    else if (!p.out.elem.isFloat())
      return unsupported(ex, op);
    else
      ok = floatArith(ex, op, p);
  }
  if (!ok)
    return false;
  ex.set(op->result(), std::move(p.out));
  return true;
}

} // namespace trident::interp
