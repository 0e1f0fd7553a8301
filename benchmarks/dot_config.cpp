// trident-bench-dot: one matmul (samples/matmul.py, fp16 or --bf16 inputs, fp16 results) or
// attention (samples/attention.py)
// launch at a fixed config, checked against float64 on sampled elements and timed with
// events (median of --repeats after 3 warm-ups): one line per run, for sweeps over
// compiler knobs (scripts/vulkan-sweep.sh). The matmul's @triton.autotune is cut from the
// source, so no other config is compiled.
//
//   trident-bench-dot --device vulkan:0 [--bf16] matmul 4096 BM BN BK GROUP WARPS [STAGES]
//   trident-bench-dot --device vulkan:0 attention Z H N D WARPS [causal]
//   (the attention's num_stages: TRIDENT_BENCH_ATTENTION_STAGES, default 3)
#include "BenchDots.h"
#include "BenchSupport.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <string>

using namespace trident;
using namespace trident::bench;

namespace {

std::string readFile(const std::string &path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The source without its @triton.autotune(...) decorator (parentheses matched).
std::string withoutAutotune(std::string src) {
  size_t at = src.find("@triton.autotune(");
  if (at == std::string::npos)
    return src;
  size_t i = src.find('(', at), depth = 0;
  for (; i < src.size(); ++i) {
    depth += src[i] == '(';
    if (src[i] == ')' && --depth == 0)
      break;
  }
  size_t end = src.find('\n', i);
  // Keep the line count, so that locations stay those of the file.
  std::string cut = src.substr(at, end - at), blank;
  for (char c : cut)
    if (c == '\n')
      blank += '\n';
  return src.substr(0, at) + blank + src.substr(end);
}

int matmul(const Device &dev, bool bf16, int s, int bm, int bn, int bk, int group, int warps, int stages,
           int repeats, const std::string &dir) {
  std::vector<double> a, b;
  auto random = bf16 ? randomBFloat16Matrix : randomHalfMatrix;
  Buffer ba = random(dev, size_t(s) * s, 1, a), bb = random(dev, size_t(s) * s, 2, b);
  Buffer c(dev, size_t(s) * s, DType::F16);
  c.fillBytes(0xff);
  Kernel k = Kernel::fromSource(withoutAutotune(readFile(dir + "/matmul.py")), "matmul_kernel", dir + "/matmul.py");
  LaunchOptions opts;
  opts.numWarps = warps;
  opts.numStages = stages;
  opts.constexprs = {{"BLOCK_SIZE_M", bm}, {"BLOCK_SIZE_N", bn},      {"BLOCK_SIZE_K", bk},
                     {"GROUP_SIZE_M", group}, {"ACTIVATION", Constexpr::string("")}};
  int64_t programs = cdiv(s, bm) * cdiv(s, bn);
  auto launch = [&] { k.launch(dev, Grid(programs), {ba, bb, c, s, s, s, s, 1, s, 1, s, 1}, opts); };
  double cold = coldLaunchMs(dev, launch);
  std::vector<uint16_t> got = c.toHost<uint16_t>();
  std::mt19937 pick(3);
  size_t bad = 0;
  for (int n = 0; n < 256; ++n) {
    int i = int(pick() % uint32_t(s)), j = int(pick() % uint32_t(s));
    double ref = 0;
    for (int q = 0; q < s; ++q)
      ref += a[size_t(i) * s + q] * b[size_t(q) * s + j];
    double g = halfToFloat(got[size_t(i) * s + j]);
    bad += !(std::fabs(g - ref) <= 1e-3 * std::sqrt(double(s)) + 1e-3 * std::fabs(ref));
  }
  double ms = timeOnDevice(dev, repeats, 1, launch).first;
  std::printf("matmul %s %d^3 %dx%dx%d/w%d/s%d: %.3f ms %.1f TFLOP/s cold %.0f ms check %s\n",
              bf16 ? "bf16" : "f16", s, bm, bn, bk, warps, stages, ms, 2.0 * double(s) * s * s / (ms * 1e9),
              cold, bad ? (std::to_string(bad) + "/256 differ").c_str() : "ok");
  return bad ? 1 : 0;
}

// The attention sample at a fixed warp count (trident-bench's row, printed as one line).
int attentionLine(const Device &dev, int Z, int H, int N, int D, int warps, bool causal, int repeats,
                  const std::string &dir) {
  DotRow r = trident::bench::attention(dev, Z, H, N, D, causal, warps, repeats, dir);
  std::printf("attention%s %dx%dx%dx%d/w%d: %.3f ms %.1f TFLOP/s cold %.0f ms check %s\n", causal ? " causal" : "", Z,
              H, N, D, warps, r.ms, r.tflops, r.coldMs, r.check.c_str());
  return r.check == "ok" ? 0 : 1;
}

} // namespace

int main(int argc, char **argv) {
  std::string device = "vulkan:0";
  int repeats = 20, i = 1;
  bool bf16 = false;
  for (; i < argc && argv[i][0] == '-'; ++i) {
    if (!std::strcmp(argv[i], "--bf16"))
      bf16 = true;
    else if (!std::strcmp(argv[i], "--device") && i + 1 < argc)
      device = argv[++i];
    else if (!std::strcmp(argv[i], "--repeats") && i + 1 < argc)
      repeats = std::atoi(argv[++i]);
  }
  auto arg = [&](int k, int otherwise) { return i + k < argc ? std::atoi(argv[i + k]) : otherwise; };
  if (i >= argc) {
    std::fprintf(stderr,
                 "usage: trident-bench-dot [--device D] [--repeats N] [--bf16] matmul S BM BN BK GROUP WARPS "
                 "[STAGES]\n"
                 "       trident-bench-dot [--device D] [--repeats N] attention Z H N D WARPS [causal]\n");
    return 2;
  }
  try {
    Device dev = Device::get(device);
    std::string dir = TRIDENT_SAMPLES_DIR;
    if (!std::strcmp(argv[i], "matmul"))
      return matmul(dev, bf16, arg(1, 4096), arg(2, 128), arg(3, 128), arg(4, 32), arg(5, 8), arg(6, 4),
                    arg(7, 3), repeats, dir);
    if (!std::strcmp(argv[i], "attention"))
      return attentionLine(dev, arg(1, 4), arg(2, 32), arg(3, 4096), arg(4, 64), arg(5, 4),
                       i + 6 < argc && !std::strcmp(argv[i + 6], "causal"), repeats, dir);
  } catch (const std::exception &e) {
    std::printf("error: %s\n", e.what());
    return 1;
  }
  return 2;
}
