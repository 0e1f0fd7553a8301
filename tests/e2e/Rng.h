#pragma once
// A seeded random source whose sequence is the same on every platform and standard
// library (std:: distributions are not), so a seed names one kernel everywhere.

#include <cassert>
#include <cstdint>
#include <vector>

namespace trident::e2e {

class Rng {
public:
  // The seed is mixed first: splitmix64 steps its state by a constant, so states
  // seed * c + k would make seed s + 1 replay seed s's sequence one draw later (and
  // kernels of nearby seeds end alike once their draws line up).
  explicit Rng(uint64_t seed) : state_(mix(seed + 0x632be59bd9b4e019ull)) {}

  // splitmix64: 64 well-mixed bits per call.
  uint64_t next() { return mix(state_ += 0x9e3779b97f4a7c15ull); }
  // Uniform in [lo, hi] (inclusive).
  int64_t range(int64_t lo, int64_t hi) {
    assert(lo <= hi);
    uint64_t span = uint64_t(hi) - uint64_t(lo) + 1;
    return span == 0 ? int64_t(next()) : lo + int64_t(next() % span);
  }
  // True with probability `p`.
  bool chance(double p) { return unit() < p; }
  // Uniform in [0, 1).
  double unit() { return double(next() >> 11) * 0x1p-53; }
  template <class T> const T &pick(const std::vector<T> &v) {
    assert(!v.empty());
    return v[size_t(range(0, int64_t(v.size()) - 1))];
  }
  // An index drawn with the given relative weights.
  size_t weighted(const std::vector<double> &weights) {
    double total = 0;
    for (double w : weights)
      total += w;
    double x = unit() * total;
    for (size_t i = 0; i < weights.size(); ++i) {
      if (x < weights[i])
        return i;
      x -= weights[i];
    }
    return weights.size() - 1;
  }

private:
  static uint64_t mix(uint64_t z) {
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
  }
  uint64_t state_;
};

} // namespace trident::e2e
