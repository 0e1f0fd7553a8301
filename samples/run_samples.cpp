// Runs every sample kernel (samples/*.py) on the default device, then on every
// other device present, through the public runtime API, and prints for each
// device and sample whether it matches its float64 reference, its time, and its
// GB/s or TFLOP/s. Exits with 1 when any sample does not match.
//
//   run_samples [--device D] [--sample NAME] [--large | --small] [--repeat N] [--seed S] [--samples-dir DIR]
//               [--slow]
//
// Host devices get small problems (the interpreter is slow); GPUs large ones.
// Samples too slow for a CPU Vulkan driver (lavapipe) are skipped there, and say
// so, unless --slow is given.
// Inputs are fresh random values each run; the seed is printed so a run can be
// repeated with --seed. "err/tol" is the largest error divided by its tolerance
// (a match has err/tol <= 1).

#include "Samples.h"

#include <cstdio>
#include <cstring>
#include <exception>
#include <random>

using namespace samples;

namespace {

struct Entry {
  const char *name;
  Result (*run)(Context &);
  bool slowOnCpuVulkan = false; // minutes on lavapipe (docs/vulkan.md, Compile time on lavapipe)
};

const Entry kSamples[] = {
    {"vector_add", runVectorAdd},   {"fused_softmax", runFusedSoftmax}, {"matmul", runMatmul},
    {"layer_norm", runLayerNorm},   {"dropout", runDropout},            {"attention", runAttention, true},
    {"reduce_custom", runReduceCustom}, {"scan", runScan},
    {"attention_bwd", runAttentionBackward, true},
};

bool isCpuVulkan(const Device &d) { return d.name().starts_with("vulkan:") && !d.info().isGpu; }

int usage() {
  std::fprintf(stderr, "usage: run_samples [--device D] [--sample NAME] [--large | --small] [--repeat N] "
                       "[--seed S] [--samples-dir DIR] [--slow]\n");
  return 2;
}

} // namespace

int main(int argc, char **argv) {
  std::string onlyDevice, onlySample, samplesDir = TRIDENT_SAMPLES_DIR;
  int size = -1; // -1: by device class, 0: small, 1: large
  bool slow = false; // run samples too slow for CPU Vulkan drivers there too
  int repeats = -1;
  uint64_t seed = std::random_device()();
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--device" && i + 1 < argc)
      onlyDevice = argv[++i];
    else if (a == "--sample" && i + 1 < argc)
      onlySample = argv[++i];
    else if (a == "--samples-dir" && i + 1 < argc)
      samplesDir = argv[++i];
    else if (a == "--seed" && i + 1 < argc)
      seed = std::strtoull(argv[++i], nullptr, 10);
    else if (a == "--repeat" && i + 1 < argc)
      repeats = std::atoi(argv[++i]);
    else if (a == "--large")
      size = 1;
    else if (a == "--small")
      size = 0;
    else if (a == "--slow")
      slow = true;
    else
      return usage();
  }
  try {
    Runtime &rt = Runtime::get();
    std::vector<Device> devices;
    if (!onlyDevice.empty()) {
      devices.push_back(rt.device(onlyDevice));
    } else {
      devices.push_back(rt.defaultDevice());
      for (const Device &d : rt.devices())
        if (d != devices.front())
          devices.push_back(d);
    }
    bool allMatch = true;
    int ran = 0, skipped = 0;
    std::printf("random seed %llu (repeat a run with --seed)\n", static_cast<unsigned long long>(seed));
    std::printf("%-9s %-14s %-6s %10s %11s %9s %9s  %s\n", "device", "sample", "match", "err/tol", "time ms",
                "GB/s", "TFLOP/s", "note");
    for (const Device &dev : devices) {
      for (const Entry &e : kSamples) {
        if (!onlySample.empty() && onlySample != e.name)
          continue;
        Context ctx;
        ctx.device = dev;
        ctx.samplesDir = samplesDir;
        ctx.rng.seed(seed);
        ctx.large = size < 0 ? dev.info().isGpu : size == 1;
        ctx.repeats = repeats > 0 ? repeats : (ctx.large ? 20 : 1);
        Result r;
        bool overLimit = false; // the device cannot hold or run the kernel: reported, not a mismatch
        if (e.slowOnCpuVulkan && !slow && isCpuVulkan(dev)) {
          r.sample = e.name;
          r.match = false;
          r.note = "takes minutes to compile on a CPU Vulkan driver (--slow runs it)";
          overLimit = true;
        } else {
          try {
            r = e.run(ctx);
          } catch (const std::exception &ex) {
            r.sample = e.name;
            r.match = false;
            r.note = ex.what();
            for (char &c : r.note)
              if (c == '\n')
                c = ' ';
            overLimit = r.note.find(" bytes of workgroup memory") != std::string::npos ||
                        r.note.find(" bytes of shared memory") != std::string::npos;
          }
        }
        ++ran;
        skipped += overLimit;
        allMatch &= r.match || overLimit;
        double gbs = r.ms > 0 && r.bytes > 0 ? r.bytes / (r.ms * 1e6) : 0;
        double tflops = r.ms > 0 && r.flops > 0 ? r.flops / (r.ms * 1e9) : 0;
        std::printf("%-9s %-14s %-6s %10.3g %11.3f %9.2f %9.4f  %s\n", dev.name().c_str(), r.sample.c_str(),
                    r.match ? "yes" : overLimit ? "skip" : "NO", r.maxError, r.ms, gbs, tflops, r.note.c_str());
        std::fflush(stdout);
      }
    }
    if (ran == 0) {
      std::fprintf(stderr, "run_samples: no sample named '%s'\n", onlySample.c_str());
      return 2;
    }
    std::printf("%s\n", allMatch ? "all samples that ran match their float64 references"
                                 : "SOME SAMPLES DO NOT MATCH their float64 references");
    if (skipped)
      std::printf("%d sample run(s) skipped: the device cannot hold or run the kernel in reasonable time (see "
                  "the note)\n", skipped);
    return allMatch ? 0 : 1;
  } catch (const std::exception &e) {
    std::fprintf(stderr, "run_samples: %s\n", e.what());
    return 1;
  }
}
