#pragma once
// Seeded random block-IR kernels for differential tests: elementwise chains on f32
// and i32, casts, reductions broadcast back, scans, transposes, reshapes, loops and
// branches with loop-carried blocks, masked loads and stores, and atomics. The same
// seed always gives the same kernel.
//
// Every kernel has the signature
//   (x: ptr<f32>, y: ptr<i32>, outf: ptr<f32>, outi: ptr<i32>, counts: ptr<i32>, n: i32)
// and runs as one program: it reads the first `n` of numElements() elements of x and y,
// writes those of outf and outi, and adds to counts[0..16).

#include "trident/ir/Builder.h"

#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace trident::test {

struct RandomKernel {
  Module module;
  std::vector<int64_t> shape;
  unsigned numWarps = 4;
  int64_t numElements() const {
    int64_t e = 1;
    for (int64_t s : shape)
      e *= s;
    return e;
  }
};

class RandomKernelGenerator {
public:
  explicit RandomKernelGenerator(uint64_t seed) : gen_(seed) {}
  RandomKernel generate();

private:
  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(gen_); }
  int64_t pow2(int maxLog) { return int64_t(1) << pick(maxLog + 1); }

  Value *elementwiseF32(Value *a, Value *b);
  Value *elementwiseI32(Value *a, Value *b);
  Value *reduceBack(Value *v);
  Value *scanAlong(Value *v);
  Value *transposeTwice(Value *v);
  Value *reshapeRoundTrip(Value *v);
  Value *loop(Value *v);
  Value *branch(Value *a, Value *b);
  Value *constant(Type t, double v);
  Value *pickOf(Type element);

  std::mt19937_64 gen_;
  Builder b_;
  std::vector<int64_t> shape_;
  Value *n_ = nullptr;
  std::vector<Value *> f32_, i32_;
};

} // namespace trident::test
