// The thread-IR simulator's values and scalar arithmetic (ThreadSimImpl.h): the word
// helpers every op uses, and each thread's result of the block-IR arithmetic, math and
// comparison ops that thread IR reuses on scalars.
#include "ThreadSimImpl.h"

#include "trident/ir/MathOps.h"
#include "trident/support/FloatFormats.h"

#include <bit>
#include <cmath>
#include <functional>

namespace trident::simt::test::detail {

[[noreturn]] void fail(const Op *op, const std::string &message) {
  throw SimError{std::string(op->name()) + ": " + message};
}

unsigned bitsOf(Type t) { return t.isPtr() ? 64 : t.bitWidth(); }

uint64_t mask(uint64_t w, unsigned bits) { return bits >= 64 ? w : (w & ((uint64_t(1) << bits) - 1)); }

int64_t signedOf(uint64_t w, unsigned bits) {
  if (bits >= 64)
    return static_cast<int64_t>(w);
  uint64_t m = uint64_t(1) << (bits - 1);
  w = mask(w, bits);
  return static_cast<int64_t>((w ^ m) - m);
}

namespace {

// f16 to float (exact).
float halfToFloat(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000u) << 16, exp = (h >> 10) & 0x1f, mant = h & 0x3ffu;
  if (exp == 0)
    return (sign ? -1.f : 1.f) * std::ldexp(float(mant), -24);
  if (exp == 31)
    return std::bit_cast<float>(sign | 0x7f800000u | (mant << 13));
  return std::bit_cast<float>(sign | ((exp + 112) << 23) | (mant << 13));
}

} // namespace

double floatOf(uint64_t w, Type t) {
  if (t == Type::f32())
    return std::bit_cast<float>(static_cast<uint32_t>(w));
  if (t == Type::f64())
    return std::bit_cast<double>(w);
  if (t == Type::f16())
    return halfToFloat(static_cast<uint16_t>(w));
  if (t == Type::bf16())
    return std::bit_cast<float>(static_cast<uint32_t>(w & 0xffffu) << 16);
  if (t == Type::f8e4m3())
    return decodeFloat(static_cast<uint32_t>(w & 0xffu), FloatFormat::F8E4M3);
  if (t == Type::f8e5m2())
    return decodeFloat(static_cast<uint32_t>(w & 0xffu), FloatFormat::F8E5M2);
  throw SimError{"unsupported float type " + t.str()};
}

uint64_t wordOf(double d, Type t) {
  if (t == Type::f32())
    return std::bit_cast<uint32_t>(static_cast<float>(d));
  if (t == Type::f64())
    return std::bit_cast<uint64_t>(d);
  // Rounded once from the double: through float, an f64 would round twice (as
  // arith.truncf from f64 must not; GPUs convert f64 to f16 in one step).
  if (t == Type::f16())
    return encodeFloat(d, FloatFormat::F16);
  if (t == Type::bf16())
    return encodeFloat(d, FloatFormat::BF16);
  if (t == Type::f8e4m3())
    return encodeFloat(d, FloatFormat::F8E4M3);
  if (t == Type::f8e5m2())
    return encodeFloat(d, FloatFormat::F8E5M2);
  throw SimError{"unsupported float type " + t.str()};
}

Words runScalarOp(const Op *op, const std::vector<const Words *> &operands, unsigned threads,
                std::array<uint32_t, 3> pid, std::array<uint32_t, 3> grid) {
  Type rt = op->numResults() ? op->result()->type() : Type();
  unsigned rbits = rt ? bitsOf(rt) : 0;
  Words out(threads);
  Type in = op->numOperands() ? op->operand(0)->type() : Type();
  unsigned ibits = in ? bitsOf(in) : 0;
  auto w = [&](unsigned i, unsigned t) { return (*operands[i])[t]; };
  std::function<uint64_t(unsigned)> f;
  auto fbin = [&](auto fn) { f = [&, fn](unsigned t) { return floatBinary(w(0, t), w(1, t), in, fn); }; };
  // The math ops: MathOps.def's scalar functions, in double.
  auto fx = [&](unsigned i, unsigned t) { return floatOf(w(i, t), in); };
  bool math = visitMathScalar(op->code(), [&](auto arity, auto fn) {
    if constexpr (arity == 1)
      f = [&, fn](unsigned t) { return wordOf(fn(fx(0, t)), rt); };
    else if constexpr (arity == 2)
      f = [&, fn](unsigned t) { return wordOf(fn(fx(0, t), fx(1, t)), rt); };
    else
      f = [&, fn](unsigned t) { return wordOf(fn(fx(0, t), fx(1, t), fx(2, t)), rt); };
  });
  switch (op->code()) {
  case OpCode::Constant: {
    const Attribute &a = op->attr("value");
    uint64_t c = a.isBool()  ? a.getBool()
                 : a.isInt() ? mask(static_cast<uint64_t>(a.getInt()), rbits)
                             : wordOf(a.getFloat(), rt);
    f = [c](unsigned) { return c; };
    break;
  }
  case OpCode::GetProgramId: {
    uint64_t v = pid[op->intAttr("axis")];
    f = [v](unsigned) { return v; };
    break;
  }
  case OpCode::GetNumPrograms: {
    uint64_t v = grid[op->intAttr("axis")];
    f = [v](unsigned) { return v; };
    break;
  }
  case OpCode::AddI: f = [&](unsigned t) { return w(0, t) + w(1, t); }; break;
  case OpCode::SubI: f = [&](unsigned t) { return w(0, t) - w(1, t); }; break;
  case OpCode::MulI: f = [&](unsigned t) { return w(0, t) * w(1, t); }; break;
  case OpCode::DivSI:
    f = [&](unsigned t) {
      return static_cast<uint64_t>(signedOf(w(0, t), ibits) / signedOf(w(1, t), ibits));
    };
    break;
  case OpCode::RemSI:
    f = [&](unsigned t) {
      return static_cast<uint64_t>(signedOf(w(0, t), ibits) % signedOf(w(1, t), ibits));
    };
    break;
  case OpCode::DivUI: f = [&](unsigned t) { return mask(w(0, t), ibits) / mask(w(1, t), ibits); }; break;
  case OpCode::RemUI: f = [&](unsigned t) { return mask(w(0, t), ibits) % mask(w(1, t), ibits); }; break;
  case OpCode::AndI: f = [&](unsigned t) { return w(0, t) & w(1, t); }; break;
  case OpCode::OrI: f = [&](unsigned t) { return w(0, t) | w(1, t); }; break;
  case OpCode::XOrI: f = [&](unsigned t) { return w(0, t) ^ w(1, t); }; break;
  // Shifts by the width or more are defined (docs/ir.md): 0, or the sign for shrsi.
  case OpCode::ShLI:
    f = [&](unsigned t) { return mask(w(1, t), ibits) >= ibits ? 0 : w(0, t) << mask(w(1, t), ibits); };
    break;
  case OpCode::ShRUI:
    f = [&](unsigned t) {
      return mask(w(1, t), ibits) >= ibits ? 0 : mask(w(0, t), ibits) >> mask(w(1, t), ibits);
    };
    break;
  case OpCode::ShRSI:
    f = [&](unsigned t) {
      uint64_t s = std::min<uint64_t>(mask(w(1, t), ibits), ibits - 1);
      return static_cast<uint64_t>(signedOf(w(0, t), ibits) >> s);
    };
    break;
  case OpCode::MinSI:
  case OpCode::MaxSI:
    f = [&, max = op->is(OpCode::MaxSI)](unsigned t) {
      int64_t a = signedOf(w(0, t), ibits), b = signedOf(w(1, t), ibits);
      return static_cast<uint64_t>(max ? std::max(a, b) : std::min(a, b));
    };
    break;
  case OpCode::UMulHi:
    f = [&](unsigned t) {
      unsigned __int128 p = (unsigned __int128)mask(w(0, t), ibits) * mask(w(1, t), ibits);
      return static_cast<uint64_t>(p >> ibits);
    };
    break;
  case OpCode::MinUI:
    f = [&](unsigned t) { return std::min(mask(w(0, t), ibits), mask(w(1, t), ibits)); };
    break;
  case OpCode::MaxUI:
    f = [&](unsigned t) { return std::max(mask(w(0, t), ibits), mask(w(1, t), ibits)); };
    break;
  case OpCode::AddF: fbin([](auto a, auto b) { return a + b; }); break;
  case OpCode::SubF: fbin([](auto a, auto b) { return a - b; }); break;
  case OpCode::MulF: fbin([](auto a, auto b) { return a * b; }); break;
  case OpCode::DivF:
  case OpCode::PreciseDivF: fbin([](auto a, auto b) { return a / b; }); break;
  case OpCode::RemF: fbin([](auto a, auto b) { return std::fmod(a, b); }); break;
  case OpCode::MaxNumF: fbin([](auto a, auto b) { return std::fmax(a, b); }); break;
  case OpCode::MinNumF: fbin([](auto a, auto b) { return std::fmin(a, b); }); break;
  case OpCode::MaximumF:
    fbin([](auto a, auto b) { return std::isnan(a) || std::isnan(b) ? a + b : std::fmax(a, b); });
    break;
  case OpCode::MinimumF:
    fbin([](auto a, auto b) { return std::isnan(a) || std::isnan(b) ? a + b : std::fmin(a, b); });
    break;
  case OpCode::NegF: f = [&](unsigned t) { return w(0, t) ^ (uint64_t(1) << (ibits - 1)); }; break;
  case OpCode::CmpI: {
    std::string p = op->stringAttr("predicate");
    f = [&, p](unsigned t) -> uint64_t {
      int64_t a = signedOf(w(0, t), ibits), b = signedOf(w(1, t), ibits);
      uint64_t ua = mask(w(0, t), ibits), ub = mask(w(1, t), ibits);
      if (p == "eq")
        return ua == ub;
      if (p == "ne")
        return ua != ub;
      if (p == "slt")
        return a < b;
      if (p == "sle")
        return a <= b;
      if (p == "sgt")
        return a > b;
      if (p == "sge")
        return a >= b;
      if (p == "ult")
        return ua < ub;
      if (p == "ule")
        return ua <= ub;
      if (p == "ugt")
        return ua > ub;
      return ua >= ub;
    };
    break;
  }
  case OpCode::CmpF: {
    std::string p = op->stringAttr("predicate");
    f = [&, p](unsigned t) -> uint64_t {
      double a = floatOf(w(0, t), in), b = floatOf(w(1, t), in);
      bool unordered = std::isnan(a) || std::isnan(b);
      if (p == "ord")
        return !unordered;
      if (p == "uno")
        return unordered;
      bool r = p.ends_with("eq")   ? a == b
               : p.ends_with("ne") ? a != b
               : p.ends_with("lt") ? a < b
               : p.ends_with("le") ? a <= b
               : p.ends_with("gt") ? a > b
                                   : a >= b;
      return p[0] == 'u' ? (unordered || r) : (!unordered && r);
    };
    break;
  }
  case OpCode::Select: f = [&](unsigned t) { return (w(0, t) & 1) ? w(1, t) : w(2, t); }; break;
  case OpCode::ExtSI:
    f = [&](unsigned t) { return static_cast<uint64_t>(signedOf(w(0, t), ibits)); };
    break;
  case OpCode::ExtUI:
  case OpCode::TruncI:
  case OpCode::Bitcast:
  case OpCode::PtrToInt:
  case OpCode::IntToPtr: f = [&](unsigned t) { return mask(w(0, t), ibits); }; break;
  case OpCode::SIToFP:
    f = [&](unsigned t) { return wordOf(static_cast<double>(signedOf(w(0, t), ibits)), rt); };
    break;
  case OpCode::UIToFP:
    f = [&](unsigned t) { return wordOf(static_cast<double>(mask(w(0, t), ibits)), rt); };
    break;
  case OpCode::FPToSI: // saturating, NaN to 0 (docs/ir.md)
    f = [&](unsigned t) {
      double x = std::trunc(floatOf(w(0, t), in));
      double lo = -std::ldexp(1.0, int(rbits) - 1), hi = std::ldexp(1.0, int(rbits) - 1) - 1;
      return static_cast<uint64_t>(std::isnan(x) ? 0 : static_cast<int64_t>(std::clamp(x, lo, hi)));
    };
    break;
  case OpCode::FPToUI: // saturating, NaN and negatives to 0 (docs/ir.md)
    f = [&](unsigned t) {
      double x = std::trunc(floatOf(w(0, t), in));
      double hi = std::ldexp(1.0, int(rbits)) - 1;
      return static_cast<uint64_t>(std::isnan(x) || x < 0 ? 0 : std::min(x, hi));
    };
    break;
  case OpCode::ExtF:
  case OpCode::TruncF: f = [&](unsigned t) { return wordOf(floatOf(w(0, t), in), rt); }; break;
  case OpCode::AddPtr: {
    uint64_t eb = std::max(1u, bitsOf(rt.pointee()) / 8);
    Type offType = op->operand(1)->type();
    f = [&, eb, offType](unsigned t) {
      return w(0, t) + static_cast<uint64_t>(signedOf(w(1, t), bitsOf(offType))) * eb;
    };
    break;
  }
  case OpCode::AbsI:
    f = [&](unsigned t) { return static_cast<uint64_t>(std::abs(signedOf(w(0, t), ibits))); };
    break;
  default:
    if (!math)
      fail(op, "not supported by the simulator");
  }
  for (unsigned t = 0; t < threads; ++t)
    out[t] = mask(f(t), rbits);
  return out;
}

} // namespace trident::simt::test::detail
