#pragma once
// Arithmetic on the powers of two of axis info, and the facts types give. Private to
// the analysis.

#include "trident/analysis/AxisInfo.h"

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

namespace trident::axis {

// The largest power of two dividing `v`, capped at kMaxDivisibility (0 gives the cap).
inline int64_t pow2Divisor(int64_t v) {
  if (v == 0)
    return AxisInfo::kMaxDivisibility;
  uint64_t u = static_cast<uint64_t>(v);
  uint64_t low = u & (~u + 1);
  return low >= static_cast<uint64_t>(AxisInfo::kMaxDivisibility) ? AxisInfo::kMaxDivisibility
                                                                  : static_cast<int64_t>(low);
}

// The largest power of two <= v, for v >= 1 (1 for smaller v).
inline int64_t floorPow2(int64_t v) {
  if (v <= 1)
    return 1;
  return static_cast<int64_t>(std::bit_floor(static_cast<uint64_t>(v)));
}

// a * b for powers of two, capped at kMaxDivisibility.
inline int64_t mulSat(int64_t a, int64_t b) {
  if (a >= AxisInfo::kMaxDivisibility / b)
    return AxisInfo::kMaxDivisibility;
  return a * b;
}

// The shape of a value of `type`; scalars read as a one-element block of rank 1.
inline std::vector<int64_t> shapeOf(Type type) {
  if (!type.isBlock() || type.rank() == 0)
    return {1};
  auto s = type.shape();
  return {s.begin(), s.end()};
}

inline unsigned rankOf(Type type) { return static_cast<unsigned>(shapeOf(type).size()); }

// Bytes of one pointee for pointers (at least 1), else 1: the unit of pointer contiguity.
inline int64_t unitBytes(Type type) {
  Type e = type.element();
  if (!e.isPtr())
    return 1;
  return std::max<int64_t>(1, e.pointee().bitWidth() / 8);
}

// `v` wrapped to the width of the integer element of `type` (i1: 0 or 1, others sign-extended).
inline int64_t wrapToWidth(int64_t v, Type type) {
  unsigned bits = type.element().bitWidth();
  if (bits >= 64)
    return v;
  uint64_t mask = (uint64_t(1) << bits) - 1;
  uint64_t u = static_cast<uint64_t>(v) & mask;
  if (bits > 1 && (u >> (bits - 1)))
    u |= ~mask;
  return static_cast<int64_t>(u);
}

// `v` read as an unsigned integer of the width of `type`.
inline uint64_t asUnsigned(int64_t v, Type type) {
  unsigned bits = type.element().bitWidth();
  if (bits >= 64)
    return static_cast<uint64_t>(v);
  return static_cast<uint64_t>(v) & ((uint64_t(1) << bits) - 1);
}

} // namespace trident::axis
