#pragma once
// trident-bench's compute-bound rows: the matmul sample (autotuned, fp16 with and without
// its fused leaky ReLU, bf16 and tf32 inputs; 4096^3 and 8192^3, 512^3 and M=16 decode
// shapes), its tensor-descriptor and persistent variants (benchmarks/matmul_descriptor.py,
// benchmarks/matmul_persistent.py), benchmarks/matmul_typed.py (int8, fp8 e4m3, f64), the
// attention sample (Triton's FlashAttention-2 forward, Z=4, H=32, N=4096 and Z=1, H=32,
// N=16384, D=64 and 128, causal and not) and its backward. Each result is checked against
// a float64 reference on sampled elements before it is timed.

#include "trident/Trident.h"

#include <functional>
#include <string>
#include <vector>

namespace trident::bench {

struct DotRow {
  std::string kernel, size;
  double ms = 0, tflops = 0, coldMs = 0;
  std::string check; // "ok" or what differs
};

// n random f16 values in [-1, 1) on `dev`, and their exact values in `values`.
Buffer randomHalfMatrix(const Device &dev, size_t n, uint32_t seed, std::vector<double> &values);
// The same in bf16.
Buffer randomBFloat16Matrix(const Device &dev, size_t n, uint32_t seed, std::vector<double> &values);

// samples/attention.py's forward (Triton's launch: BLOCK_M 128, BLOCK_N 64, 3 stages) on
// `warps` warps, checked against float64 on sampled rows, then timed; with `benchDir`,
// benchmarks/attention_descriptor.py's (host tensor descriptors) instead.
DotRow attention(const Device &dev, int Z, int H, int N, int D, bool causal, int warps, int repeats,
                 const std::string &samplesDir, const std::string &benchDir = {});

// samples/attention_bwd.py after the forward (BenchAttentionBwd.cpp).
DotRow attentionBackward(const Device &dev, int Z, int H, int N, int D, bool causal, int repeats,
                         const std::string &samplesDir);

// `only`: comma-separated parts of "kernel size" names, any of which selects a row
// (empty: every row).
bool rowSelected(const std::string &only, const std::string &name);

// `samplesDir`: samples/*.py; `benchDir`: benchmarks/*.py (the typed, descriptor and
// persistent matmuls). `only`: comma-separated substrings of "kernel size" (say
// "descriptor,x16384x"); a row runs when its name contains one (empty: all rows).
// `done`, when given, is called with each row as soon as it is measured.
std::vector<DotRow> benchDots(const Device &dev, bool small, int repeats, const std::string &samplesDir,
                              const std::string &benchDir, const std::string &only = "",
                              const std::function<void(const DotRow &)> &done = {});

} // namespace trident::bench
