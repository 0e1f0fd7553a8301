// Axis-info rules of integer arithmetic, comparisons, select and tt.addptr.
//
// Notation: along one dimension, a "run" of a contiguous operand starts at an index
// that is a multiple of its contiguity. Most rules reason about aligned chunks of m
// indices (m a power of two): when an operand is contiguous over the chunk and its run
// start is a multiple of m, the chunk's values are v, v+1, ..., v+m-1 with m | v.

#include "AxisInfoMath.h"
#include "AxisInfoRules.h"

#include <algorithm>
#include <cassert>
#include <string>

namespace trident::axis {

namespace {

using DimVector = AxisInfo::DimVector;

bool isUnsigned(OpCode code) {
  return code == OpCode::DivUI || code == OpCode::RemUI || code == OpCode::ShRUI;
}

// The longest chunk length m over which `a` (contiguous) meets a `b` that is the same
// multiple of m on the whole chunk (1 when none). Used by division, remainder and
// comparison, whose results stay put or stay contiguous on such chunks.
// Chunks of m start inside a's runs at run start + a multiple of m, so m must also
// divide the run starts.
int64_t alignedChunk(const AxisInfo &a, const AxisInfo &b, unsigned d) {
  if (a.contiguity(d) == 1)
    return 1;
  return std::min({a.contiguity(d), a.divisibility(d), b.divisibilityAt(d, 1, 1), b.constancy(d)});
}

// A power-of-two constant's exponent, or -1.
int log2IfPow2(std::optional<int64_t> v) {
  if (!v || *v <= 0 || (*v & (*v - 1)) != 0)
    return -1;
  return std::countr_zero(static_cast<uint64_t>(*v));
}

AxisInfo inferAddSub(const Op *op, const AxisInfo &a, const AxisInfo &b) {
  bool add = op->is(OpCode::AddI);
  DimVector div, contig, constancy;
  for (unsigned d = 0; d < a.rank(); ++d) {
    int64_t c = std::min(a.contiguity(d), b.constancy(d));
    if (add)
      c = std::max(c, std::min(a.constancy(d), b.contiguity(d)));
    contig.push_back(c);
    constancy.push_back(std::min(a.constancy(d), b.constancy(d)));
    div.push_back(std::min(a.divisibilityAt(d, c, 1), b.divisibilityAt(d, c, 1)));
  }
  return AxisInfo(div, contig, constancy, std::nullopt, add && a.nonNegative() && b.nonNegative());
}

AxisInfo inferMul(const AxisInfo &a, const AxisInfo &b) {
  if (b.constantValue() == 1)
    return a;
  if (a.constantValue() == 1)
    return b;
  DimVector div, contig, constancy;
  for (unsigned d = 0; d < a.rank(); ++d) {
    contig.push_back(1);
    constancy.push_back(std::min(a.constancy(d), b.constancy(d)));
    div.push_back(mulSat(a.divisibilityAt(d, 1, 1), b.divisibilityAt(d, 1, 1)));
  }
  return AxisInfo(div, contig, constancy, std::nullopt, a.nonNegative() && b.nonNegative());
}

// Division and right shifts by a divisor that is constant on aligned chunks keep
// those chunks constant: v..v+m-1 with m | v and m | divisor share one quotient.
// Truncating signed division needs a non-negative dividend for that.
AxisInfo inferDivide(const Op *op, const AxisInfo &a, const AxisInfo &b, Type type) {
  bool shift = op->is(OpCode::ShRSI) || op->is(OpCode::ShRUI);
  std::optional<int64_t> divisor = b.constantValue();
  if (shift) {
    unsigned bits = type.element().bitWidth();
    if (divisor && *divisor >= 0 && *divisor < static_cast<int64_t>(bits) && *divisor < 62)
      divisor = int64_t(1) << *divisor;
    else
      divisor.reset();
  }
  if (divisor == 1)
    return a;
  // A shift by an unknown amount divides by an unknown power of two.
  bool chunksOk =
      (shift ? divisor.has_value() : true) && (shift || isUnsigned(op->code()) || a.nonNegative());
  AxisInfo divisorInfo = divisor ? AxisInfo::constant(*divisor, type) : b;
  int k = log2IfPow2(divisor);
  DimVector div, contig, constancy;
  for (unsigned d = 0; d < a.rank(); ++d) {
    int64_t c = std::min(a.constancy(d), b.constancy(d));
    if (chunksOk)
      c = std::max(c, alignedChunk(a, divisorInfo, d));
    constancy.push_back(c);
    contig.push_back(1);
    // An exact quotient of a multiple of D by 2^k is a multiple of D / 2^k.
    int64_t da = a.divisibilityAt(d, 1, 1);
    div.push_back(k >= 0 && da > (int64_t(1) << k) ? da >> k : 1);
  }
  bool nonNegative = a.nonNegative() && (shift || b.nonNegative());
  return AxisInfo(div, contig, constancy, std::nullopt, nonNegative);
}

// x % m (and x & (2^n - 1)) keeps runs of x contiguous over chunks aligned to m.
AxisInfo inferRemainder(const Op *op, const AxisInfo &a, const AxisInfo &b, Type type) {
  std::optional<int64_t> modulus = b.constantValue();
  bool unsignedOp = op->is(OpCode::RemUI) || op->is(OpCode::AndI);
  if (modulus == 1 || (log2IfPow2(modulus) >= 0 && a.elementDivisibility(1) >= *modulus))
    return AxisInfo::constant(0, type);
  bool chunksOk = unsignedOp || a.nonNegative();
  DimVector div, contig, constancy;
  for (unsigned d = 0; d < a.rank(); ++d) {
    int64_t c = chunksOk ? alignedChunk(a, b, d) : 1;
    contig.push_back(c);
    constancy.push_back(std::min(a.constancy(d), b.constancy(d)));
    // x % m = x - q*m: a multiple of what divides both.
    div.push_back(std::min(a.divisibilityAt(d, c, 1), b.divisibilityAt(d, 1, 1)));
  }
  return AxisInfo(div, contig, constancy, std::nullopt, a.nonNegative());
}

AxisInfo inferAnd(const Op *op, const AxisInfo &a, const AxisInfo &b, Type type) {
  for (int side = 0; side < 2; ++side) {
    const AxisInfo &x = side ? b : a, &mask = side ? a : b;
    std::optional<int64_t> m = mask.constantValue();
    if (!m)
      continue;
    if (wrapToWidth(*m, type) == wrapToWidth(-1, type))
      return x;
    // x & (2^n - 1) == x mod 2^n on the bits, whatever the sign of x.
    if (*m > 0 && *m < AxisInfo::kMaxDivisibility && (*m & (*m + 1)) == 0) {
      AxisInfo modulus = AxisInfo::constant(*m + 1, type);
      AxisInfo r = inferRemainder(op, x, modulus, type);
      return AxisInfo(r.divisibility(), r.contiguity(), r.constancy(), r.constantValue(), true);
    }
  }
  DimVector div, contig, constancy;
  for (unsigned d = 0; d < a.rank(); ++d) {
    contig.push_back(1);
    constancy.push_back(std::min(a.constancy(d), b.constancy(d)));
    // The result's bits are a subset of each operand's.
    div.push_back(std::max(a.divisibilityAt(d, 1, 1), b.divisibilityAt(d, 1, 1)));
  }
  return AxisInfo(div, contig, constancy, std::nullopt, a.nonNegative() || b.nonNegative());
}

AxisInfo inferShiftLeft(const AxisInfo &a, const AxisInfo &b, Type type) {
  std::optional<int64_t> k = b.constantValue();
  if (k == 0)
    return a;
  bool known = k && *k > 0 && *k < static_cast<int64_t>(type.element().bitWidth()) && *k < 62;
  DimVector div, contig, constancy;
  for (unsigned d = 0; d < a.rank(); ++d) {
    contig.push_back(1);
    constancy.push_back(std::min(a.constancy(d), b.constancy(d)));
    int64_t da = a.divisibilityAt(d, 1, 1);
    div.push_back(known ? mulSat(da, int64_t(1) << *k) : da);
  }
  return AxisInfo(div, contig, constancy, std::nullopt, false);
}

// or, xor, min, max, umulhi: equal operands give equal results; low zero bits common to
// both operands survive or, xor, min and max.
AxisInfo inferBitwiseOrMinMax(const Op *op, const AxisInfo &a, const AxisInfo &b) {
  bool keepsDivisibility = !op->is(OpCode::UMulHi);
  DimVector div, contig, constancy;
  for (unsigned d = 0; d < a.rank(); ++d) {
    contig.push_back(1);
    constancy.push_back(std::min(a.constancy(d), b.constancy(d)));
    div.push_back(keepsDivisibility ? std::min(a.divisibilityAt(d, 1, 1), b.divisibilityAt(d, 1, 1)) : 1);
  }
  bool nonNegative = false;
  switch (op->code()) {
  case OpCode::OrI:
  case OpCode::XOrI:
  case OpCode::MinSI:
  case OpCode::MaxUI: nonNegative = a.nonNegative() && b.nonNegative(); break;
  case OpCode::MaxSI:
  case OpCode::MinUI: nonNegative = a.nonNegative() || b.nonNegative(); break;
  default: break;
  }
  return AxisInfo(div, contig, constancy, std::nullopt, nonNegative);
}

// x < B over a chunk x = v..v+m-1 with m | v and m | B flips only at a chunk start; so
// do x >= B, B <= x and B > x. x <= B flips at B+1 and gets no such chunks.
AxisInfo inferCmp(const Op *op, const AxisInfo &a, const AxisInfo &b) {
  const std::string &pred = op->attr("predicate").isString() ? op->stringAttr("predicate") : std::string();
  bool lhsRuns = pred == "slt" || pred == "ult" || pred == "sge" || pred == "uge";
  bool rhsRuns = pred == "sgt" || pred == "ugt" || pred == "sle" || pred == "ule";
  DimVector constancy;
  for (unsigned d = 0; d < a.rank(); ++d) {
    int64_t c = std::min(a.constancy(d), b.constancy(d));
    if (lhsRuns)
      c = std::max(c, alignedChunk(a, b, d));
    if (rhsRuns)
      c = std::max(c, alignedChunk(b, a, d));
    constancy.push_back(c);
  }
  return AxisInfo(DimVector(a.rank(), 1), DimVector(a.rank(), 1), constancy, std::nullopt, false);
}

std::optional<bool> foldCmp(const std::string &pred, int64_t a, int64_t b, Type type) {
  uint64_t ua = asUnsigned(a, type), ub = asUnsigned(b, type);
  if (pred == "eq")
    return a == b;
  if (pred == "ne")
    return a != b;
  if (pred == "slt")
    return a < b;
  if (pred == "sle")
    return a <= b;
  if (pred == "sgt")
    return a > b;
  if (pred == "sge")
    return a >= b;
  if (pred == "ult")
    return ua < ub;
  if (pred == "ule")
    return ua <= ub;
  if (pred == "ugt")
    return ua > ub;
  if (pred == "uge")
    return ua >= ub;
  return std::nullopt;
}

// A select whose condition is constant over a chunk takes the chunk from one operand.
AxisInfo inferSelect(const AxisInfo &cond, bool scalarCond, const AxisInfo &a, const AxisInfo &b, Type type) {
  if (cond.constantValue())
    return *cond.constantValue() ? a : b;
  std::vector<int64_t> shape = shapeOf(type);
  int64_t unit = unitBytes(type);
  DimVector div, contig, constancy;
  for (unsigned d = 0; d < a.rank(); ++d) {
    int64_t condConst = scalarCond ? shape[d] : cond.constancy(d);
    int64_t c = std::min({condConst, a.contiguity(d), b.contiguity(d)});
    contig.push_back(c);
    constancy.push_back(std::min({condConst, a.constancy(d), b.constancy(d)}));
    div.push_back(std::min(a.divisibilityAt(d, c, unit), b.divisibilityAt(d, c, unit)));
  }
  return AxisInfo(div, contig, constancy, std::nullopt, a.nonNegative() && b.nonNegative());
}

// ptr + off * unit: contiguous where one side is and the other is constant.
AxisInfo inferAddPtr(const AxisInfo &p, const AxisInfo &off, Type type) {
  int64_t unit = unitBytes(type);
  DimVector div, contig, constancy;
  for (unsigned d = 0; d < p.rank(); ++d) {
    int64_t c =
        std::max(std::min(p.contiguity(d), off.constancy(d)), std::min(p.constancy(d), off.contiguity(d)));
    contig.push_back(c);
    constancy.push_back(std::min(p.constancy(d), off.constancy(d)));
    div.push_back(std::min(p.divisibilityAt(d, c, unit), mulSat(off.divisibilityAt(d, c, 1), unit)));
  }
  return AxisInfo(div, contig, constancy);
}

} // namespace

std::optional<int64_t> foldBinary(OpCode code, int64_t a, int64_t b, Type type) {
  uint64_t ua = asUnsigned(a, type), ub = asUnsigned(b, type);
  unsigned bits = type.element().bitWidth();
  auto wrap = [&](uint64_t v) { return std::optional<int64_t>(wrapToWidth(static_cast<int64_t>(v), type)); };
  switch (code) {
  case OpCode::AddI: return wrap(static_cast<uint64_t>(a) + static_cast<uint64_t>(b));
  case OpCode::SubI: return wrap(static_cast<uint64_t>(a) - static_cast<uint64_t>(b));
  case OpCode::MulI: return wrap(static_cast<uint64_t>(a) * static_cast<uint64_t>(b));
  case OpCode::DivSI:
    if (b == 0 || (b == -1 && a == INT64_MIN))
      return std::nullopt;
    return wrap(static_cast<uint64_t>(a / b));
  case OpCode::RemSI:
    if (b == 0 || (b == -1 && a == INT64_MIN))
      return std::nullopt;
    return wrap(static_cast<uint64_t>(a % b));
  case OpCode::DivUI: return ub == 0 ? std::nullopt : wrap(ua / ub);
  case OpCode::RemUI: return ub == 0 ? std::nullopt : wrap(ua % ub);
  case OpCode::AndI: return wrap(ua & ub);
  case OpCode::OrI: return wrap(ua | ub);
  case OpCode::XOrI: return wrap(ua ^ ub);
  case OpCode::ShLI: return ub >= bits ? std::nullopt : wrap(ua << ub);
  case OpCode::ShRUI: return ub >= bits ? std::nullopt : wrap(ua >> ub);
  case OpCode::ShRSI:
    // Arithmetic shift of the sign-extended value.
    return ub >= bits ? std::nullopt : wrap(static_cast<uint64_t>(a >> ub));
  case OpCode::MinSI: return std::min(a, b);
  case OpCode::MaxSI: return std::max(a, b);
  case OpCode::MinUI: return wrap(std::min(ua, ub));
  case OpCode::MaxUI: return wrap(std::max(ua, ub));
  default: return std::nullopt;
  }
}

AxisInfo inferIntegerOp(const Op *op, std::span<const AxisInfo *const> in) {
  Type type = op->result()->type();
  if (op->is(OpCode::Select)) {
    if (in[1]->rank() != rankOf(type) || in[2]->rank() != rankOf(type) ||
        (in[0]->rank() != rankOf(type) && op->operand(0)->type().isBlock()))
      return AxisInfo::unknown(type);
    return inferSelect(*in[0], !op->operand(0)->type().isBlock(), *in[1], *in[2], type);
  }
  const AxisInfo &a = *in[0], &b = *in[1];
  if (a.rank() != b.rank() || a.rank() != rankOf(type))
    return AxisInfo::unknown(type);
  if (op->is(OpCode::AddPtr))
    return inferAddPtr(a, b, type);
  Type operandType = op->operand(0)->type();
  if (op->is(OpCode::CmpI)) {
    if (a.constantValue() && b.constantValue() && op->attr("predicate").isString())
      if (auto r = foldCmp(op->stringAttr("predicate"), *a.constantValue(), *b.constantValue(), operandType))
        return AxisInfo::constant(*r ? 1 : 0, type);
    return inferCmp(op, a, b);
  }
  if (a.constantValue() && b.constantValue())
    if (auto r = foldBinary(op->code(), *a.constantValue(), *b.constantValue(), type))
      return AxisInfo::constant(*r, type);
  switch (op->code()) {
  case OpCode::AddI:
  case OpCode::SubI: return inferAddSub(op, a, b);
  case OpCode::MulI:
    if (a.constantValue() == 0 || b.constantValue() == 0)
      return AxisInfo::constant(0, type);
    return inferMul(a, b);
  case OpCode::DivSI:
  case OpCode::DivUI:
  case OpCode::ShRSI:
  case OpCode::ShRUI: return inferDivide(op, a, b, type);
  case OpCode::RemSI:
  case OpCode::RemUI: return inferRemainder(op, a, b, type);
  case OpCode::AndI: return inferAnd(op, a, b, type);
  case OpCode::ShLI: return inferShiftLeft(a, b, type);
  default: return inferBitwiseOrMinMax(op, a, b);
  }
}

} // namespace trident::axis
