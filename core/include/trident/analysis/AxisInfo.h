#pragma once
// Axis info: what is known, per dimension, about the integer and pointer values of
// block IR, so that the SIMT lowering can pick coalesced, vectorized memory accesses.
//
//   ^(%0: ptr<f32> /* arg_divisibility 16 */, %1: i32 /* 16 */):
//   %2 = tt.get_program_id {axis = 0} : i32          div=[1]    contig=[1]    const=[1]
//   %3 = arith.constant {value = 1024} : i32         div=[1024] contig=[1]    const=[1]
//   %4 = arith.muli %2, %3 : i32                     div=[1024] contig=[1]    const=[1]
//   %5 = tt.make_range {end = 1024, start = 0}       div=[2^62] contig=[1024] const=[1]
//   %6 = arith.addi (splat %4), %5                   div=[1024] contig=[1024] const=[1]
//   %7 = tt.addptr (splat %0), %6                    div=[16]   contig=[1024] const=[1]
//   %8 = arith.cmpi slt, %6, (splat %1)              div=[1]    contig=[1]    const=[16]
//   vectorWidth(%7, %8) == 4: four f32 per aligned 16-byte access
//
// The facts about a value V along dimension d (a scalar reads as a one-element block of
// rank 1):
//   contiguity(d) = c    V splits along d into runs of c elements, starting at indices
//                        that are multiples of c, in which each element is the previous
//                        one plus 1 (pointers: plus one element)
//   constancy(d) = c     likewise, runs of c equal elements
//   divisibility(d) = D  the first element of every contiguity run along d is a multiple
//                        of D (pointers: its byte address); with contiguity 1 that is
//                        every element
// All three are powers of two; contiguity and constancy divide the size of d.
//
// Assumptions, as in Triton: index arithmetic does not overflow, and a pointer about
// which nothing is known is aligned to its element size (every access through it must
// be). Function arguments take their divisibility from the tt.func attribute
// `arg_divisibility` (one entry per parameter, 1 = unknown).

#include "trident/ir/IR.h"

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace trident {

class AxisInfo {
public:
  using DimVector = std::vector<int64_t>;
  // The divisibility of 0 (and the cap of every divisibility): 2^62.
  static constexpr int64_t kMaxDivisibility = int64_t(1) << 62;

  AxisInfo() = default;
  AxisInfo(DimVector divisibility, DimVector contiguity, DimVector constancy,
           std::optional<int64_t> constantValue = std::nullopt, bool nonNegative = false);
  // Nothing known about a value of type `type` (pointers: aligned to their element size).
  static AxisInfo unknown(Type type);
  // Every element of a value of type `type` equals `value`.
  static AxisInfo constant(int64_t value, Type type);

  unsigned rank() const { return static_cast<unsigned>(contiguity_.size()); }
  int64_t divisibility(unsigned dim) const { return divisibility_[dim]; }
  int64_t contiguity(unsigned dim) const { return contiguity_[dim]; }
  int64_t constancy(unsigned dim) const { return constancy_[dim]; }
  const DimVector &divisibility() const { return divisibility_; }
  const DimVector &contiguity() const { return contiguity_; }
  const DimVector &constancy() const { return constancy_; }
  // The value of every element, when known (integers only).
  std::optional<int64_t> constantValue() const { return constantValue_; }
  // True when every element is known to be >= 0 as a signed integer.
  bool nonNegative() const { return nonNegative_; }

  // Divisibility of the elements at indices along `dim` that are multiples of
  // `runLength` (a power of two); `unitBytes` is the pointee size for pointers, else 1.
  int64_t divisibilityAt(unsigned dim, int64_t runLength, int64_t unitBytes) const;
  // Divisibility of every element.
  int64_t elementDivisibility(int64_t unitBytes) const;

  // "div=[16, 1] contig=[128, 1] const=[1, 1]", plus " value=N" for a known constant.
  std::string str() const;

  bool operator==(const AxisInfo &) const = default;

private:
  DimVector divisibility_, contiguity_, constancy_;
  std::optional<int64_t> constantValue_;
  bool nonNegative_ = false;
};

// The facts true of both `a` and `b`, values of type `type` (e.g. the two yields of an scf.if).
AxisInfo meet(const AxisInfo &a, const AxisInfo &b, Type type);

// Axis info for every value of one function (or of every function of a module).
// Loop-carried values are iterated to a fixpoint; the analysis ends on any input.
class AxisInfoAnalysis {
public:
  explicit AxisInfoAnalysis(const Module &module);
  // `func` is a tt.func op.
  explicit AxisInfoAnalysis(Op *func);

  // The facts about `v`, which must belong to an analyzed function.
  const AxisInfo &get(const Value *v) const;
  // The facts about `v`, or null when `v` was not analyzed (e.g. created afterwards).
  const AxisInfo *lookup(const Value *v) const;

  // The dimensions of `v` from most to least contiguous (ties: the later dimension first).
  std::vector<unsigned> contiguityOrder(const Value *v) const;
  // How many consecutive elements of the pointer block `ptr` one aligned vector access of
  // at most `maxBytes` can cover along `dim` (-1: contiguityOrder's first), also limited by
  // the constancy of `mask` when given; 1 for scalars.
  unsigned vectorWidth(const Value *ptr, const Value *mask = nullptr, unsigned maxBytes = 16,
                       int dim = -1) const;

private:
  void analyzeFunction(Op *func);
  std::unordered_map<const Value *, AxisInfo> infos_;
};

// Every value of every function with its axis info, one per line, numbered as the
// printer numbers them: "%6 = arith.addi : block<1024xi32> div=[1024] contig=[1024] const=[1]".
std::string printAxisInfo(const Module &module);

} // namespace trident
