// The project's benchmark: the memory-bound samples on every GPU present, through
// the public runtime API, each against the bandwidth of a device-to-device copy
// measured on the same device in the same run, and Vulkan against CUDA where both
// are present. Per kernel and device: device time (events around each launch,
// the median of the repeats after warm-ups), GB/s, the ratio to the copy, the
// host time of a warm launch call (median), and the cold first launch (compile,
// load and one run, with the disk cache off; with TRIDENT_TIME_STAGES=1 the compile's
// stages print their times too). Every result is checked against a float64 reference on
// the host before it is timed.
//
//   trident-bench [--device D]... [--all] [--small] [--repeats N] [--warps N,...] [--programs N]
//                 [--chain N] [--kernels memory|dots|all] [--only NAMES] [--samples DIR] [--json FILE]
// --kernels: the memory-bound rows, the matmul and attention rows (BenchDots.h), or both
// (the default; dots on GPUs only). --only: the rows whose "kernel size" contains one
// of these comma-separated parts ("descriptor,persistent", "x16384x", "layer norm"; the
// device copy runs always, the bandwidth reference of the memory rows).
// --warps: the warps of softmax and layer norm (default: Triton's tutorial choice); several
// (--warps 4,8,16) give a row per count, named "softmax w4" and so on;
// --programs: softmax in that many programs, each looping over rows (default: one per row);
// --chain: N launches back to back between each pair of events, the time divided by N
// (default 1: events around each launch).
//
// Without --device: every GPU device (cuda:*, hip:*, vulkan:* on a GPU); --all adds
// the CPU devices (host interpreter, lavapipe), for testing with --small.

#include "BenchSupport.h"
#include "BenchDots.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

using namespace trident;
using namespace trident::bench;

namespace {

struct Options {
  std::vector<std::string> devices;
  bool all = false, small = false;
  int repeats = 20;
  std::vector<int> warps; // softmax and layer norm at each of these warp counts (empty: Triton's choice)
  int programs = 0; // > 0: softmax runs this many programs, each looping over rows (else one per row)
  int chain = 1;    // launches between each pair of events
  std::string kernels = "all"; // "memory", "dots" or "all" (dots on GPUs only, unless --kernels dots)
  std::string only;            // dot rows: comma-separated parts of their names (empty: all)
  std::string samplesDir = TRIDENT_SAMPLES_DIR;
  std::string jsonPath;
};

struct Row {
  std::string kernel, size, device, plugin, uuid;
  double ms = 0, gbps = 0, copyRatio = 0;
  double tflops = 0;   // dot rows: TFLOP/s (GB/s is 0)
  double launchUs = 0; // host time of a warm launch call
  double coldMs = 0;   // first launch: compile + load + run
  bool checked = false;
  std::string check;   // "ok" or what differs
  std::optional<double> vulkanOverCuda;
};

void writeJson(const std::string &path, const std::vector<Row> &rows, const Options &o);

class Bench {
public:
  Bench(const Options &o) : o_(o) {}

  void runDevice(const Device &dev) {
    std::printf("%s: %s (%s)\n", dev.name().c_str(), dev.info().name.c_str(), dev.info().target.c_str());
    std::fflush(stdout);
    const size_t n = o_.small ? (size_t(1) << 20) : (size_t(1) << 28);
    if (o_.kernels != "dots") {
      double copyGbps = copy(dev, n); // every row's reference, whatever --only says
      // --only leaves out the memory rows whose "kernel size" names none of its parts.
      auto want = [&](const std::string &name) { return rowSelected(o_.only, name); };
      if (want("vector add " + pow2(n) + " f32"))
        vectorAdd(dev, n, copyGbps);
      if (want("vector add 2^10 f32"))
        vectorAdd(dev, 1024, copyGbps); // one program: the device time of a launch itself
      // Triton's tutorials: more warps for longer softmax rows; 8 for layer norm here.
      auto warpCounts = [&](int tutorial) { return o_.warps.empty() ? std::vector<int>{tutorial} : o_.warps; };
      const int softmaxRows = o_.small ? 64 : 16384, normRows = o_.small ? 64 : 4096;
      for (int cols : {1024, 4096, 16384})
        for (int warps : warpCounts(cols >= 4096 ? 16 : cols >= 2048 ? 8 : 4))
          if (want(named("softmax", warps) + " " + std::to_string(softmaxRows) + "x" + std::to_string(cols) + " f32"))
            softmax(dev, softmaxRows, cols, warps, copyGbps);
      for (int warps : warpCounts(8))
        if (want(named("layer norm fwd", warps) + " " + std::to_string(normRows) + "x8192 f16"))
          layerNorm(dev, normRows, 8192, warps, copyGbps);
    }
    saveSoFar();
    if (o_.kernels == "dots" || (o_.kernels == "all" && dev.info().isGpu)) {
      auto done = [&](const DotRow &d) {
        Row &r = add(dev, d.kernel, d.size);
        r.ms = d.ms;
        r.tflops = d.tflops;
        r.coldMs = d.coldMs;
        r.checked = true;
        r.check = d.check;
        std::printf("  %-22s %-14s %9.4f ms %8.1f TFLOP/s  %s\n", d.kernel.c_str(), d.size.c_str(), d.ms, d.tflops,
                    d.check.c_str());
        std::fflush(stdout);
        saveSoFar();
      };
      if (benchDots(dev, o_.small, o_.repeats, o_.samplesDir, TRIDENT_BENCH_DIR, o_.only, done).empty() &&
          !o_.only.empty())
        throw std::runtime_error("no dot row matches --only " + o_.only);
    }
  }

  std::vector<Row> &rows() { return rows_; }

  // The rows so far into --json, so that a run cut short by a time limit leaves them.
  void saveSoFar() const {
    if (!o_.jsonPath.empty())
      writeJson(o_.jsonPath, rows_, o_);
  }

private:
  Row &add(const Device &dev, std::string kernel, std::string size) {
    Row r;
    r.kernel = std::move(kernel);
    r.size = std::move(size);
    r.device = dev.name();
    r.plugin = dev.plugin();
    r.uuid = dev.info().uuidString();
    rows_.push_back(r);
    return rows_.back();
  }

  static std::string pow2(size_t n) { return "2^" + std::to_string(int(std::log2(double(n)))); }
  // The row's kernel name, with its warp count when --warps lists several.
  std::string named(const char *kernel, int warps) const {
    return o_.warps.size() > 1 ? std::string(kernel) + " w" + std::to_string(warps) : kernel;
  }

  double copy(const Device &dev, size_t n) {
    Buffer a(dev, n, DType::F32), b(dev, n, DType::F32);
    a.fillBytes(0x3f);
    Stream s = dev.defaultStream();
    auto [ms, hostUs] = timeOnDevice(dev, o_.repeats, o_.chain, [&] { b.copyFromAsync(s, a); });
    Row &r = add(dev, "device copy", pow2(n) + " f32");
    r.ms = ms;
    r.gbps = 2.0 * double(n) * 4 / (ms * 1e6);
    r.copyRatio = 1;
    r.launchUs = hostUs;
    std::vector<float> back = b.toHost<float>();
    float expect;
    uint32_t bits = 0x3f3f3f3f;
    std::memcpy(&expect, &bits, 4);
    size_t bad = size_t(std::count_if(back.begin(), back.end(), [&](float v) { return v != expect; }));
    r.checked = true;
    r.check = bad ? std::to_string(bad) + " elements differ" : "ok";
    return r.gbps;
  }

  void vectorAdd(const Device &dev, size_t n, double copyGbps) {
    std::vector<float> x(n), y(n);
    for (size_t i = 0; i < n; ++i) {
      x[i] = float(i % 4093) * 0.25f - 511.0f;
      y[i] = float((i * 7) % 1021) * 0.0078125f;
    }
    Buffer bx = Buffer::fromHost(dev, std::span<const float>(x)), by = Buffer::fromHost(dev, std::span<const float>(y));
    Buffer out(dev, n, DType::F32);
    out.fillBytes(0xff);
    Kernel k = Kernel::fromFile(o_.samplesDir + "/vector_add.py", "add_kernel");
    LaunchOptions opts;
    opts.constexprs = {{"BLOCK_SIZE", 1024}};
    const int count = int(n);
    Grid grid(int64_t(cdiv(int64_t(n), 1024)));
    auto launch = [&] { k.launch(dev, grid, {bx, by, out, count}, opts); };
    Row &r = add(dev, "vector add", pow2(n) + " f32");
    r.coldMs = coldLaunchMs(dev, launch);
    std::vector<float> got = out.toHost<float>();
    size_t bad = 0;
    for (size_t i = 0; i < n; ++i)
      bad += got[i] != float(double(x[i]) + double(y[i])); // one rounding, exact
    r.checked = true;
    r.check = bad ? std::to_string(bad) + " elements differ" : "ok";
    auto [ms, hostUs] = timeOnDevice(dev, o_.repeats, o_.chain, launch);
    r.ms = ms;
    r.launchUs = hostUs;
    r.gbps = 3.0 * double(n) * 4 / (ms * 1e6);
    r.copyRatio = r.gbps / copyGbps;
  }

  void softmax(const Device &dev, int rowsN, int cols, int warps, double copyGbps) {
    const size_t total = size_t(rowsN) * size_t(cols);
    std::vector<float> x(total);
    std::mt19937 gen{uint32_t(cols)};
    std::uniform_real_distribution<float> dist(-4, 4);
    for (float &v : x)
      v = dist(gen);
    Buffer bx = Buffer::fromHost(dev, std::span<const float>(x)), out(dev, total, DType::F32);
    out.fillBytes(0xff);
    Kernel k = Kernel::fromFile(o_.samplesDir + "/fused_softmax.py", "softmax_kernel");
    LaunchOptions opts;
    opts.numWarps = warps; // one program per row, as in Triton's tutorial, unless --programs
    opts.constexprs = {{"BLOCK_SIZE", cols}, {"num_stages", 2}};
    const int programs = o_.programs > 0 ? std::min(o_.programs, rowsN) : rowsN;
    auto launch = [&] { k.launch(dev, Grid(programs), {out, bx, cols, cols, rowsN, cols}, opts); };
    Row &r = add(dev, named("softmax", warps), std::to_string(rowsN) + "x" + std::to_string(cols) + " f32");
    r.coldMs = coldLaunchMs(dev, launch);
    std::vector<float> got = out.toHost<float>();
    // float64 reference on every row (--small) or every 64th row and the last.
    std::vector<int> checkedRows;
    for (int i = 0; i < rowsN; i += o_.small ? 1 : 64)
      checkedRows.push_back(i);
    if (checkedRows.back() != rowsN - 1)
      checkedRows.push_back(rowsN - 1);
    size_t bad = 0;
    double worst = 0;
    for (int i : checkedRows) {
      const float *row = x.data() + size_t(i) * size_t(cols);
      double mx = *std::max_element(row, row + cols), sum = 0;
      for (int j = 0; j < cols; ++j)
        sum += std::exp(double(row[j]) - mx);
      for (int j = 0; j < cols; ++j) {
        double ref = std::exp(double(row[j]) - mx) / sum, g = got[size_t(i) * size_t(cols) + size_t(j)];
        double err = std::fabs(g - ref);
        worst = std::max(worst, err / (std::fabs(ref) + 1e-30));
        bad += !(err <= 1e-5 * std::fabs(ref) + 1e-9);
      }
    }
    r.checked = true;
    r.check = bad ? std::to_string(bad) + " elements differ (worst relative error " + std::to_string(worst) + ")"
                  : "ok";
    auto [ms, hostUs] = timeOnDevice(dev, o_.repeats, o_.chain, launch);
    r.ms = ms;
    r.launchUs = hostUs;
    r.gbps = 2.0 * double(total) * 4 / (ms * 1e6);
    r.copyRatio = r.gbps / copyGbps;
  }

  void layerNorm(const Device &dev, int M, int N, int warps, double copyGbps) {
    const size_t total = size_t(M) * size_t(N);
    std::vector<uint16_t> x(total), w(static_cast<size_t>(N)), b(static_cast<size_t>(N));
    std::mt19937 gen(7);
    std::uniform_real_distribution<float> dist(-2, 2), pos(0.5f, 1.5f);
    for (uint16_t &v : x)
      v = floatToHalf(dist(gen));
    for (int j = 0; j < N; ++j) {
      w[size_t(j)] = floatToHalf(pos(gen));
      b[size_t(j)] = floatToHalf(dist(gen) * 0.25f);
    }
    Buffer bx = Buffer::fromHost(dev, std::span<const uint16_t>(x), DType::F16);
    Buffer bw = Buffer::fromHost(dev, std::span<const uint16_t>(w), DType::F16);
    Buffer bb = Buffer::fromHost(dev, std::span<const uint16_t>(b), DType::F16);
    Buffer y(dev, total, DType::F16), mean(dev, size_t(M), DType::F32), rstd(dev, size_t(M), DType::F32);
    y.fillBytes(0xff);
    Kernel k = Kernel::fromFile(o_.samplesDir + "/layer_norm.py", "_layer_norm_fwd_fused");
    LaunchOptions opts;
    // Triton's tutorial: BLOCK_SIZE = min(64 KB / element size, next power of 2 >= N).
    opts.numWarps = warps;
    opts.constexprs = {{"BLOCK_SIZE", 8192}};
    const float eps = 1e-5f;
    auto launch = [&] { k.launch(dev, Grid(M), {bx, y, bw, bb, mean, rstd, N, N, eps}, opts); };
    Row &r = add(dev, named("layer norm fwd", warps), std::to_string(M) + "x" + std::to_string(N) + " f16");
    r.coldMs = coldLaunchMs(dev, launch);
    std::vector<uint16_t> got(total);
    y.copyToHost(std::span<uint16_t>(got));
    int step = o_.small ? 1 : 32;
    size_t bad = 0;
    for (int i = 0; i < M; i += step) {
      double mu = 0, var = 0;
      for (int j = 0; j < N; ++j)
        mu += halfToFloat(x[size_t(i) * size_t(N) + size_t(j)]);
      mu /= N;
      for (int j = 0; j < N; ++j) {
        double d = halfToFloat(x[size_t(i) * size_t(N) + size_t(j)]) - mu;
        var += d * d;
      }
      double rs = 1 / std::sqrt(var / N + double(eps));
      for (int j = 0; j < N; ++j) {
        double ref = (halfToFloat(x[size_t(i) * size_t(N) + size_t(j)]) - mu) * rs * halfToFloat(w[size_t(j)]) +
                     halfToFloat(b[size_t(j)]);
        double g = halfToFloat(got[size_t(i) * size_t(N) + size_t(j)]);
        bad += !(std::fabs(g - ref) <= 2e-3 * std::fabs(ref) + 2e-3); // one fp16 rounding and f32 arithmetic
      }
    }
    r.checked = true;
    r.check = bad ? std::to_string(bad) + " elements differ" : "ok";
    auto [ms, hostUs] = timeOnDevice(dev, o_.repeats, o_.chain, launch);
    r.ms = ms;
    r.launchUs = hostUs;
    r.gbps = 2.0 * double(total) * 2 / (ms * 1e6); // x read once, y written once (as Triton's tutorial counts)
    r.copyRatio = r.gbps / copyGbps;
  }

  const Options &o_;
  std::vector<Row> rows_;
};

// Vulkan GB/s (dots: TFLOP/s) over CUDA's for the same kernel and size: against the CUDA device
// with the same UUID (the same GPU), else the first CUDA device.
void compareVulkanToCuda(std::vector<Row> &rows) {
  for (Row &v : rows) {
    if (v.plugin != "vulkan")
      continue;
    const Row *best = nullptr;
    for (const Row &c : rows) {
      if (c.plugin != "cuda" || c.kernel != v.kernel || c.size != v.size)
        continue;
      if (!best || (c.uuid == v.uuid && best->uuid != v.uuid))
        best = &c;
    }
    if (best && best->gbps > 0)
      v.vulkanOverCuda = v.gbps / best->gbps;
    else if (best && best->tflops > 0 && v.tflops > 0) // dot rows: TFLOP/s over TFLOP/s
      v.vulkanOverCuda = v.tflops / best->tflops;
  }
}

std::string jsonString(const std::string &s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (static_cast<unsigned char>(c) >= 0x20)
      out += c;
  }
  return out + "\"";
}

// Written beside `path` and renamed over it, so that a run stopped while writing leaves the
// previous file whole.
void writeJson(const std::string &path, const std::vector<Row> &rows, const Options &o) {
  std::string part = path + ".part";
  std::ofstream j(part);
  j << "{\n  \"small\": " << (o.small ? "true" : "false") << ",\n  \"repeats\": " << o.repeats << ",\n  \"rows\": [\n";
  for (size_t i = 0; i < rows.size(); ++i) {
    const Row &r = rows[i];
    j << "    {\"kernel\": " << jsonString(r.kernel) << ", \"size\": " << jsonString(r.size)
      << ", \"device\": " << jsonString(r.device) << ", \"ms\": " << r.ms << ", \"gbps\": " << r.gbps
      << ", \"ratio_to_copy\": " << r.copyRatio << ", \"launch_host_us\": " << r.launchUs
      << ", \"tflops\": " << r.tflops << ", \"cold_ms\": " << r.coldMs << ", \"check\": " << jsonString(r.check);
    if (r.vulkanOverCuda)
      j << ", \"vulkan_over_cuda\": " << *r.vulkanOverCuda;
    j << "}" << (i + 1 < rows.size() ? "," : "") << "\n";
  }
  j << "  ]\n}\n";
  j.close();
  std::rename(part.c_str(), path.c_str());
}

int usage() {
  std::fprintf(stderr, "usage: trident-bench [--device D]... [--all] [--small] [--repeats N] [--warps N,...] "
                       "[--programs N] [--chain N] [--kernels memory|dots|all] [--only NAMES] [--samples DIR] "
                       "[--json FILE]\n");
  return 2;
}

} // namespace

int main(int argc, char **argv) {
  Options o;
  if (const char *dir = std::getenv("TRIDENT_SAMPLES_DIR"); dir && *dir)
    o.samplesDir = dir;
  for (int i = 1; i < argc; ++i) {
    auto value = [&]() -> const char * { return i + 1 < argc ? argv[++i] : nullptr; };
    if (!std::strcmp(argv[i], "--all"))
      o.all = true;
    else if (!std::strcmp(argv[i], "--small"))
      o.small = true;
    else if (!std::strcmp(argv[i], "--device") && i + 1 < argc)
      o.devices.push_back(value());
    else if (!std::strcmp(argv[i], "--repeats") && i + 1 < argc)
      o.repeats = std::max(1, std::atoi(value()));
    else if (!std::strcmp(argv[i], "--programs") && i + 1 < argc)
      o.programs = std::max(1, std::atoi(value()));
    else if (!std::strcmp(argv[i], "--chain") && i + 1 < argc)
      o.chain = std::max(1, std::atoi(value()));
    else if (!std::strcmp(argv[i], "--warps") && i + 1 < argc) {
      std::stringstream list(value());
      for (std::string w; std::getline(list, w, ',');)
        o.warps.push_back(std::max(1, std::atoi(w.c_str())));
    }
    else if (!std::strcmp(argv[i], "--samples") && i + 1 < argc)
      o.samplesDir = value();
    else if (!std::strcmp(argv[i], "--kernels") && i + 1 < argc)
      o.kernels = value();
    else if (!std::strcmp(argv[i], "--only") && i + 1 < argc)
      o.only = value();
    else if (!std::strcmp(argv[i], "--json") && i + 1 < argc)
      o.jsonPath = value();
    else
      return usage();
  }
  // Cold launches compile: keep the on-disk cache out of it.
  setenv("TRIDENT_CACHE", "0", 1);
  bool failed = false;
  Bench bench(o);
  try {
    Runtime &rt = Runtime::get();
    std::vector<Device> devices;
    if (!o.devices.empty()) {
      for (const std::string &name : o.devices)
        devices.push_back(rt.device(name));
    } else {
      for (const Device &d : rt.devices())
        if (d.info().isGpu || o.all)
          devices.push_back(d);
    }
    if (devices.empty()) {
      std::printf("no GPU device (--all includes CPU devices)\n");
      return 0;
    }
    for (const Device &dev : devices) {
      try {
        bench.runDevice(dev);
      } catch (const std::exception &e) {
        std::fprintf(stderr, "%s: %s\n", dev.name().c_str(), e.what());
        failed = true;
      }
    }
  } catch (const std::exception &e) {
    std::fprintf(stderr, "trident-bench: %s\n", e.what());
    return 1;
  }
  std::vector<Row> &rows = bench.rows();
  compareVulkanToCuda(rows);
  std::printf("\n%-22s %-18s %-10s %10s %9s %8s %8s %10s %9s  %s\n", "kernel", "size", "device", "ms",
              "GB/s|TF/s", "vs copy", "vk/cuda", "launch us", "cold ms", "check");
  for (const Row &r : rows) {
    char ratio[16] = "-";
    if (r.vulkanOverCuda)
      std::snprintf(ratio, sizeof ratio, "%.3f", *r.vulkanOverCuda);
    std::printf("%-22s %-18s %-10s %10.4f %9.1f %8.3f %8s %10.2f %9.1f  %s\n", r.kernel.c_str(), r.size.c_str(),
                r.device.c_str(), r.ms, r.tflops > 0 ? r.tflops : r.gbps, r.copyRatio, ratio, r.launchUs, r.coldMs,
                r.check.c_str());
    failed |= r.checked && r.check != "ok";
  }
  if (!o.jsonPath.empty()) {
    writeJson(o.jsonPath, rows, o);
    std::printf("wrote %s\n", o.jsonPath.c_str());
  }
  return failed ? 1 : 0;
}
