#pragma once
// What the random-kernel generator knows about the numbers each value holds, so that
// every kernel it makes has results a device must reproduce:
//
//   - integers are always deterministic (wrapping is defined); an interval of their
//     signed reading is kept when known, to make exact floats out of them;
//   - an *exact* float holds multiples of 2^-frac small enough that no op on it ever
//     rounds: every correct device computes the very same bits, so comparisons, floor,
//     fptosi and bitcasts may follow;
//   - an *approximate* float lies in [lo, hi] and devices may differ from the
//     interpreter by up to `err` (rounding order, contraction, math libraries);
//     only ops that are continuous may follow, and outputs are compared with that
//     tolerance;
//   - *bits* are arbitrary bit patterns in a float type (bitcasts of integers): they
//     may only be moved, selected, stored and bitcast back.
//
// The transfer functions below compute the facts of an op's result from its
// operands'. They are pure, so the generator can ask before it builds an op.

#include "trident/ir/IR.h"

#include <cstdint>
#include <span>

namespace trident::e2e {

struct Facts {
  enum class Kind : uint8_t { Int, Float, Bits, Other };
  Kind kind = Kind::Other;
  // Int: the signed reading lies in [ilo, ihi].
  int64_t ilo = 0, ihi = 0;
  // Float: the reference value lies in [lo, hi]; exact values are multiples of 2^-frac.
  double lo = 0, hi = 0;
  bool exact = false;
  int frac = 0;
  double err = 0;

  bool isInt() const { return kind == Kind::Int; }
  bool isFloat() const { return kind == Kind::Float; }
  bool isExactFloat() const { return kind == Kind::Float && exact; }
  bool isApproxFloat() const { return kind == Kind::Float && !exact; }
  double mag() const;
  // Integers: the largest magnitude of the signed reading.
  uint64_t imag() const;
};

// ---- constructors ----
Facts intFacts(int64_t lo, int64_t hi);
Facts fullInt(Type t);              // every value of t's element type
Facts exactFloat(double lo, double hi, int frac);
Facts approxFloat(double lo, double hi, double err);
Facts bitsFacts();
Facts otherFacts();                 // pointers
// The least facts that hold for a value that is either `a` or `b`.
Facts join(const Facts &a, const Facts &b);

// ---- float formats ----
unsigned precisionBits(Type t); // significand bits with the implicit one: f32 -> 24
double unitRoundoff(Type t);    // 2^-precision
double maxFinite(Type t);
// The largest magnitude the generator lets an approximate value of `t` reach.
double safeMagnitude(Type t);
// Exact facts fit `t` when no value needs rounding in it and none is subnormal.
bool fitsExact(Type t, const Facts &f);
// The facts of f after rounding to `t` (exact when it fits, else approximate).
Facts roundTo(Type t, Facts f, double ulpsFactor);
// An integer interval that the element type of `t` can hold.
bool fitsInt(Type t, int64_t lo, int64_t hi);
int64_t intMin(Type t);
int64_t intMax(Type t);

// ---- transfer functions: facts of the result of `code` (result type `type`) ----
// Elementwise arithmetic, comparisons, select and casts; `operandType` is the type of
// the first operand (casts need it).
Facts transfer(OpCode code, Type type, std::span<const Facts> in, Type operandType);

// tt.dot: the facts of acc + sum_k a_ik * b_kj for `k` products of elements of facts `a`
// and `b` into an accumulator of `accElement` with facts `acc`, summed in any order (the
// reference adds one product at a time, matrix units a group at once). `tf32`: f32
// inputs may be rounded to tf32 (11 significant bits) first. Exact when every input
// is exact (and holds in tf32) and every partial sum fits the accumulator exactly.
Facts dotFacts(Type accElement, const Facts &a, const Facts &b, const Facts &acc, int64_t k, bool tf32);
// Exact facts whose values all hold in tf32 (f32 with 10 explicit mantissa bits).
bool fitsTf32(const Facts &f);

// Which combiner a tt.reduce / tt.scan uses, per operand.
enum class Combine : uint8_t {
  Add, Mul, Max, Min, MaxUnsigned, Xor, Or, And,
  MaxNum, MinNum, Maximum, Minimum, // floats
  MaxBySelect,                      // cmp + select, integers or exact floats
  ArgMax, ArgMin,                   // (value, index) pairs: the value operand...
  ArgIndex,                         // ...and the index operand right after it
};
// Facts of the result of combining `n` elements of facts `in` with `c` (any prefix of
// them, for scans). For ArgMax/ArgMin `in` is the value's facts and the result is too.
Facts combineFacts(Combine c, Type element, int64_t n, const Facts &in);

} // namespace trident::e2e
