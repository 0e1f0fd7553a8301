#include "SampleSupport.h"

#include <algorithm>
#include <cmath>

namespace samples {

std::vector<float> randomFloats(std::mt19937_64 &rng, size_t n, float lo, float hi) {
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (float &x : v)
    x = dist(rng);
  return v;
}

std::vector<uint16_t> randomHalfs(std::mt19937_64 &rng, size_t n, std::vector<double> &values, float lo, float hi) {
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<uint16_t> bits(n);
  values.resize(n);
  for (size_t i = 0; i < n; ++i) {
    bits[i] = floatToHalf(dist(rng));
    values[i] = halfToFloat(bits[i]);
  }
  return bits;
}

void compare(Result &r, const std::vector<double> &got, const std::vector<double> &ref, double atol, double rtol) {
  r.match = got.size() == ref.size();
  for (size_t i = 0; i < got.size() && i < ref.size(); ++i) {
    double err = std::abs(got[i] - ref[i]);
    double allowed = atol + rtol * std::abs(ref[i]);
    if (!(err <= allowed)) { // NaN fails too
      if (r.match)
        r.note = "first mismatch at " + std::to_string(i) + ": got " + std::to_string(got[i]) + ", expected " +
                 std::to_string(ref[i]);
      r.match = false;
    }
    double scaled = std::isnan(err) ? INFINITY : err / std::max(allowed, 1e-300);
    r.maxError = std::max(r.maxError, scaled);
  }
}

void poison(Buffer &b) { b.fillBytes(0xff); }

double timeLaunches(const Context &ctx, const std::function<void()> &launch) {
  Stream s = ctx.device.defaultStream();
  launch(); // compiles (and autotunes)
  s.synchronize();
  std::vector<double> ms;
  for (int i = 0; i < std::max(1, ctx.repeats); ++i) {
    Event start(ctx.device), stop(ctx.device);
    start.record(s);
    launch();
    stop.record(s);
    stop.synchronize();
    ms.push_back(Event::elapsedMs(start, stop));
  }
  std::sort(ms.begin(), ms.end());
  return ms[ms.size() / 2];
}

std::vector<double> toDoubles(const std::vector<float> &v) { return std::vector<double>(v.begin(), v.end()); }

std::vector<double> halfsToDoubles(const std::vector<uint16_t> &v) {
  std::vector<double> out(v.size());
  for (size_t i = 0; i < v.size(); ++i)
    out[i] = halfToFloat(v[i]);
  return out;
}

double roundToHalf(double v) { return halfToFloat(floatToHalf(float(v))); }

} // namespace samples
