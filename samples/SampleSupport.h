#pragma once
// What the sample programs share: sizes per device class, random inputs,
// float64 comparisons, timing, and the result row each sample returns.

#include "trident/Trident.h"

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace samples {

using namespace trident;

struct Context {
  Device device;
  std::string samplesDir; // where the .py files are
  bool large = false;     // GPU-sized problems (host devices get small ones)
  int repeats = 3;        // timed launches after the first
  std::mt19937_64 rng{12345};

  std::string file(const std::string &name) const { return samplesDir + "/" + name; }
};

struct Result {
  explicit Result(std::string name = "") : sample(std::move(name)) {}
  std::string sample;
  bool match = false;
  double maxError = 0; // the largest error relative to the tolerance's scale
  double ms = 0;       // median device time of one launch (all launches of the sample)
  double bytes = 0;    // bytes moved per run, for GB/s
  double flops = 0;    // floating-point operations per run, for TFLOP/s
  std::string note;
};

// Fresh random values in [lo, hi).
std::vector<float> randomFloats(std::mt19937_64 &rng, size_t n, float lo = -1, float hi = 1);
// Random values rounded to fp16 (returned as bits and as their float values).
std::vector<uint16_t> randomHalfs(std::mt19937_64 &rng, size_t n, std::vector<double> &values, float lo = -1,
                                  float hi = 1);

// Compares a result with a float64 reference: |got - ref| <= atol + rtol * |ref|
// for every element; NaN or a poison value fails. Updates r.match and r.maxError.
void compare(Result &r, const std::vector<double> &got, const std::vector<double> &ref, double atol, double rtol);

// Fills a buffer with NaN bytes (0xff), so that elements a kernel fails to write show.
void poison(Buffer &b);

// Runs `launch` once (compiling), then `repeats` times between events; returns
// the median milliseconds of one call of `launch`.
double timeLaunches(const Context &ctx, const std::function<void()> &launch);

std::vector<double> toDoubles(const std::vector<float> &v);
std::vector<double> halfsToDoubles(const std::vector<uint16_t> &v);
double roundToHalf(double v);

} // namespace samples
