#pragma once
// Helpers for the f64 math sequences (MathF64*.cpp): f64 constants and arithmetic
// in a few words. Internal to the backend.

#include "Translator.h"

#include <bit>
#include <utility>

namespace trident::spirv {

struct F64 {
  Translator &t;
  uint32_t f64 = t.w.floatType(64), i64 = t.w.intType(64), i32 = t.w.intType(32), b = t.boolType();

  uint32_t c(double v) { return t.constant(f64, std::bit_cast<uint64_t>(v)); }
  uint32_t add(uint32_t x, uint32_t y) { return t.emit(Spv::FAdd, f64, {x, y}); }
  uint32_t sub(uint32_t x, uint32_t y) { return t.emit(Spv::FSub, f64, {x, y}); }
  uint32_t mul(uint32_t x, uint32_t y) { return t.emit(Spv::FMul, f64, {x, y}); }
  uint32_t neg(uint32_t x) { return t.emit(Spv::FNegate, f64, {x}); }
  uint32_t abs(uint32_t x) { return t.glsl(Glsl::FAbs, f64, {x}); }
  uint32_t less(uint32_t x, uint32_t y) { return t.emit(Spv::FOrdLessThan, b, {x, y}); }
  uint32_t select(uint32_t cond, uint32_t yes, uint32_t no) { return t.emit(Spv::Select, f64, {cond, yes, no}); }
  uint32_t isNan(uint32_t x) { return t.emit(Spv::IsNan, b, {x}); }
  uint32_t orElse(uint32_t p, uint32_t q) { return t.emit(Spv::LogicalOr, b, {p, q}); }

  // Arithmetic whose rounding the sequence relies on: the driver may not fuse it
  // (NoContraction), so compensation terms see the errors they compute.
  uint32_t exact(Spv op, uint32_t x, uint32_t y) {
    uint32_t r = t.emit(op, f64, {x, y});
    t.w.decorate(r, Decoration::NoContraction);
    return r;
  }
  uint32_t addE(uint32_t x, uint32_t y) { return exact(Spv::FAdd, x, y); }
  uint32_t subE(uint32_t x, uint32_t y) { return exact(Spv::FSub, x, y); }
  uint32_t mulE(uint32_t x, uint32_t y) { return exact(Spv::FMul, x, y); }
  // TwoSum: s + e == x + y exactly.
  std::pair<uint32_t, uint32_t> twoSum(uint32_t x, uint32_t y) {
    uint32_t s = addE(x, y), z = subE(s, x);
    return {s, addE(subE(x, subE(s, z)), subE(y, z))};
  }

  // p(x) by Horner's rule, `coefficients` from the highest power down.
  template <size_t N> uint32_t horner(const double (&coefficients)[N], uint32_t x) {
    uint32_t p = c(coefficients[0]);
    for (size_t i = 1; i < N; ++i)
      p = addE(mulE(p, x), c(coefficients[i]));
    return p;
  }

  // 2^k for a signed 32-bit k in [-1022, 1023], built from its bits.
  uint32_t powerOfTwo(uint32_t k) {
    uint32_t biased = t.emit(Spv::IAdd, i64, {t.emit(Spv::SConvert, i64, {k}), t.constant(i64, 1023)});
    return t.emit(Spv::Bitcast, f64, {t.emit(Spv::ShiftLeftLogical, i64, {biased, t.constant(i64, 52)})});
  }
};

} // namespace trident::spirv
