#include "IndexRange.h"

#include <algorithm>
#include <bit>

namespace trident::spirv {
namespace {

// Bounds of a `width`-bit signed integer.
IntRange full(unsigned width) { return {-(int64_t(1) << (width - 1)), (int64_t(1) << (width - 1)) - 1}; }

bool fits(IntRange r, unsigned width) {
  IntRange f = full(width);
  return r.lo >= f.lo && r.hi <= f.hi;
}

// The smallest 2^k - 1 at or above `v` (v >= 0): every bit an OR of values up to v can set.
int64_t allBitsUpTo(int64_t v) { return v == 0 ? 0 : int64_t((uint64_t(1) << std::bit_width(uint64_t(v))) - 1); }

} // namespace

std::optional<IntRange> IndexRanges::of(Value *v) {
  if (auto it = memo_.find(v); it != memo_.end())
    return it->second;
  Type t = v->type();
  std::optional<IntRange> r;
  if (t.isScalar() && t.isInteger() && t.bitWidth() <= 32 && t.bitWidth() > 1 && v->definingOp())
    r = compute(v->definingOp());
  if (r && !fits(*r, t.bitWidth()))
    r.reset(); // the operation wraps somewhere in this range: nothing is known
  memo_[v] = r;
  return r;
}

std::optional<IntRange> IndexRanges::compute(Op *op) {
  auto operand = [&](unsigned i) { return of(op->operand(i)); };
  switch (op->code()) {
  case OpCode::Constant: {
    const Attribute &a = op->attr("value");
    if (!a.isInt())
      return std::nullopt;
    unsigned width = op->result()->type().bitWidth();
    uint64_t bits = uint64_t(a.getInt()) & ((uint64_t(1) << width) - 1);
    int64_t value = int64_t(bits << (64 - width)) >> (64 - width); // sign-extended
    return IntRange{value, value};
  }
  case OpCode::ThLaneId: return IntRange{0, warpSize_ - 1};
  case OpCode::ThWarpId: return IntRange{0, numThreads_ / warpSize_ - 1};
  case OpCode::ThThreadId: return IntRange{0, numThreads_ - 1};
  // Program ids are i32 grid coordinates (launches keep each below 2^31).
  case OpCode::GetProgramId: return IntRange{0, INT32_MAX};
  case OpCode::GetNumPrograms: return IntRange{1, INT32_MAX};
  default: break;
  }
  if (op->numOperands() != 2)
    return std::nullopt;
  std::optional<IntRange> a = operand(0), b = operand(1);
  if (!a || !b)
    return std::nullopt;
  switch (op->code()) {
  case OpCode::AddI: return IntRange{a->lo + b->lo, a->hi + b->hi};
  case OpCode::SubI: return IntRange{a->lo - b->hi, a->hi - b->lo};
  case OpCode::MulI:
    if (!a->nonNegative() || !b->nonNegative() || a->hi > (int64_t(1) << 31) || b->hi > (int64_t(1) << 31))
      return std::nullopt;
    return IntRange{a->lo * b->lo, a->hi * b->hi};
  case OpCode::ShLI:
    if (!a->nonNegative() || b->lo != b->hi || b->lo < 0 || b->lo > 31)
      return std::nullopt;
    return IntRange{a->lo << b->lo, a->hi << b->lo};
  case OpCode::ShRUI:
  case OpCode::ShRSI:
    if (!a->nonNegative() || b->lo != b->hi || b->lo < 0 || b->lo > 31)
      return std::nullopt;
    return IntRange{a->lo >> b->lo, a->hi >> b->lo};
  case OpCode::AndI: // with one side non-negative, the result is within [0, that side]
    if (a->nonNegative() && b->nonNegative())
      return IntRange{0, std::min(a->hi, b->hi)};
    if (a->nonNegative() || b->nonNegative())
      return IntRange{0, a->nonNegative() ? a->hi : b->hi};
    return std::nullopt;
  case OpCode::OrI:
    if (!a->nonNegative() || !b->nonNegative())
      return std::nullopt;
    return IntRange{std::max(a->lo, b->lo), allBitsUpTo(std::max(a->hi, b->hi))};
  case OpCode::RemUI:
    if (!a->nonNegative() || !b->nonNegative() || b->lo == 0)
      return std::nullopt;
    return IntRange{0, std::min(a->hi, b->hi - 1)};
  default: return std::nullopt;
  }
}

} // namespace trident::spirv
