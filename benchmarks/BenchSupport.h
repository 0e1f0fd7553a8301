#pragma once
// What trident-bench's parts share: medians and device timing (fp16 conversions are
// trident::floatToHalf / halfToFloat).

#include "trident/Trident.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <vector>

namespace trident::bench {

using Clock = std::chrono::steady_clock;

inline double msSince(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

inline double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  size_t n = v.size();
  return n == 0 ? 0 : n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

// TRIDENT_BENCH_WARMUP_MS: after the warm-up launches, keep launching for this many
// milliseconds more (default 0), so that a GPU that idled while the kernel compiled
// is back at its clocks when the timing starts.
inline double warmupMs() {
  const char *v = std::getenv("TRIDENT_BENCH_WARMUP_MS");
  return v ? std::max(0.0, std::atof(v)) : 0.0;
}

// Milliseconds on the device per call of `body` (events around each `chain` calls;
// median of `repeats` after 3 warm-ups and TRIDENT_BENCH_WARMUP_MS) and the host time
// of the call itself (median, us).
template <class F> inline std::pair<double, double> timeOnDevice(const Device &dev, int repeats, int chain, F &&body) {
  Stream s = dev.defaultStream();
  for (int i = 0; i < 3; ++i)
    body();
  if (double warm = warmupMs(); warm > 0) {
    auto t0 = Clock::now();
    while (msSince(t0) < warm) {
      for (int i = 0; i < 4; ++i)
        body();
      s.synchronize();
    }
  }
  std::vector<Event> starts, ends;
  std::vector<double> hostUs;
  for (int i = 0; i < repeats; ++i) {
    starts.emplace_back(dev);
    ends.emplace_back(dev);
  }
  for (int i = 0; i < repeats; ++i) {
    starts[size_t(i)].record(s);
    auto t0 = Clock::now();
    for (int j = 0; j < chain; ++j)
      body();
    hostUs.push_back(msSince(t0) * 1e3 / chain);
    ends[size_t(i)].record(s);
  }
  s.synchronize();
  std::vector<double> ms;
  for (int i = 0; i < repeats; ++i)
    ms.push_back(Event::elapsedMs(starts[size_t(i)], ends[size_t(i)]) / chain);
  return {median(ms), median(hostUs)};
}

// Host time of the first launch of a fresh Kernel (compile, load, run), synchronized.
template <class F> inline double coldLaunchMs(const Device &dev, F &&launch) {
  auto t0 = Clock::now();
  launch();
  dev.synchronize();
  return msSince(t0);
}


} // namespace trident::bench
