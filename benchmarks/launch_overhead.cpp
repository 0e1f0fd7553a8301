// Host-side time of a warm launch of a tiny kernel: the runtime's own overhead
// (argument binding, specialization key, cache lookup, packing, the plugin
// call) plus the plugin's launch call. Measured per device; on the host plugin
// the plugin call includes running one program in the interpreter, so the
// benchmark also times the runtime's part alone (warm `warmup`, which binds
// arguments and finds the specialization but does not launch).
//
//   trident-bench-launch [--device D] [--iterations N] [--json FILE]

#include "trident/Trident.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>

using namespace trident;
using Clock = std::chrono::steady_clock;

namespace {

// One program that stores a constant into one element: as small as a kernel gets.
const char *kTinyKernel = R"(builtin.module ({
  tt.func {sym_name = "tiny"} ({
  ^(%out: ptr<f32>, %v: f32, %n: i32):
    tt.store %out, %v
    tt.return
  })
})
)";

const char *kTinySource = R"(
import triton
import triton.language as tl

@triton.jit
def tiny(out_ptr, value, n, BLOCK: tl.constexpr):
    tl.store(out_ptr, value)
)";

struct Result {
  std::string device, what;
  double medianUs, minUs;
};

template <class F> Result measure(const std::string &device, const std::string &what, int iterations, F &&body) {
  for (int i = 0; i < 100; ++i) // warm caches and branch predictors
    body();
  std::vector<double> samples;
  const int batch = 100;
  for (int r = 0; r < std::max(1, iterations / batch); ++r) {
    auto t0 = Clock::now();
    for (int i = 0; i < batch; ++i)
      body();
    samples.push_back(std::chrono::duration<double, std::micro>(Clock::now() - t0).count() / batch);
  }
  std::sort(samples.begin(), samples.end());
  return {device, what, samples[samples.size() / 2], samples.front()};
}

} // namespace

int main(int argc, char **argv) {
  std::string deviceName, jsonPath;
  int iterations = 20000;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--device") && i + 1 < argc)
      deviceName = argv[++i];
    else if (!std::strcmp(argv[i], "--iterations") && i + 1 < argc)
      iterations = std::atoi(argv[++i]);
    else if (!std::strcmp(argv[i], "--json") && i + 1 < argc)
      jsonPath = argv[++i];
    else {
      std::fprintf(stderr, "usage: trident-bench-launch [--device D] [--iterations N] [--json FILE]\n");
      return 2;
    }
  }
  try {
    Runtime &rt = Runtime::get();
    std::vector<Device> devices;
    if (!deviceName.empty())
      devices.push_back(rt.device(deviceName));
    else
      devices = rt.devices();
    std::vector<Result> results;
    for (const Device &dev : devices) {
      Buffer out(dev, 1, DType::F32);
      Stream stream = dev.defaultStream();
      Kernel ir = Kernel::fromBlockIR(kTinyKernel, "tiny");
      ir.launch(stream, Grid(1), {out, 1.0f, 4}); // compile
      results.push_back(measure(dev.name(), "warm launch, block-IR kernel (3 args)", iterations,
                                [&] { ir.launch(stream, Grid(1), {out, 1.0f, 4}); }));
      try {
        Kernel src = Kernel::fromSource(kTinySource, "tiny", "tiny.py");
        LaunchOptions opts;
        opts.constexprs = {{"BLOCK", 128}};
        src.launch(stream, Grid(1), {out, 1.0f, 4}, opts);
        results.push_back(measure(dev.name(), "warm launch, source kernel (3 args + constexpr)", iterations,
                                  [&] { src.launch(stream, Grid(1), {out, 1.0f, 4}, opts); }));
        Arg args[] = {out, 1.0f, 4};
        results.push_back(measure(dev.name(), "runtime part only (bind + key + lookup)", iterations,
                                  [&] { src.warmup(dev, args, opts); }));
      } catch (const Error &e) {
        std::fprintf(stderr, "note: source kernel skipped: %s\n", e.what());
      }
      Arg args[] = {out, 1.0f, 4};
      results.push_back(measure(dev.name(), "runtime part only, block-IR kernel", iterations,
                                [&] { ir.warmup(dev, args); }));
      stream.synchronize();
    }
    std::printf("%-10s %-50s %12s %12s\n", "device", "what", "median us", "min us");
    for (const Result &r : results)
      std::printf("%-10s %-50s %12.3f %12.3f\n", r.device.c_str(), r.what.c_str(), r.medianUs, r.minUs);
    if (!jsonPath.empty()) {
      std::ofstream j(jsonPath);
      j << "[\n";
      for (size_t i = 0; i < results.size(); ++i)
        j << "  {\"device\": \"" << results[i].device << "\", \"what\": \"" << results[i].what
          << "\", \"median_us\": " << results[i].medianUs << ", \"min_us\": " << results[i].minUs << "}"
          << (i + 1 < results.size() ? "," : "") << "\n";
      j << "]\n";
    }
  } catch (const Error &e) {
    std::fprintf(stderr, "trident-bench-launch: %s\n", e.what());
    return 1;
  }
  return 0;
}
