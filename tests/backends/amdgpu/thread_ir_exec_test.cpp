// The thread IR the AMD backend translates, run: kernels lowered exactly as
// backends/amdgpu lowers them (wave64 for gfx90a/gfx942, wave32 for gfx1100, their
// LDS) execute in the thread-IR simulator of tests/core/simt against float64
// references on fresh random inputs. This checks the lowering for AMD's wave sizes;
// what LLVM makes of the thread IR is checked by inspection elsewhere, and nothing
// here runs on an AMD GPU.
#include "TestKernels.h"
#include "ThreadSim.h"
#include "trident/backends/amdgpu/CodeGen.h"
#include "trident/backends/amdgpu/Target.h"
#include "trident/frontend/Frontend.h"
#include "trident/ir/Parser.h"
#include "trident/ir/Printer.h"

#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

using namespace trident;
namespace fs = std::filesystem;

namespace {

uint64_t freshSeed() {
  std::random_device rd;
  return (uint64_t(rd()) << 32) ^ rd();
}

std::vector<float> randomFloats(size_t n, std::mt19937_64 &rng, float lo = -1, float hi = 1) {
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (float &x : v)
    x = dist(rng);
  return v;
}

std::string readFile(const fs::path &p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

uint64_t ptr(const void *p) { return reinterpret_cast<uint64_t>(p); }
uint64_t i32(int32_t v) { return static_cast<uint32_t>(v); }
uint64_t f32(float v) { return std::bit_cast<uint32_t>(v); }

Module lower(const Module &blockIR, std::string_view arch) {
  Diagnostics diags;
  std::optional<Module> t = amdgpu::lowerToThreadIR(blockIR, *amdgpu::targetDesc(arch), {}, diags);
  INFO(diags.str());
  REQUIRE(t.has_value());
  return std::move(*t);
}

Module parse(const std::string &text) {
  Diagnostics diags;
  std::optional<Module> m = parseModule(text, "kernel.ttir", diags);
  INFO(diags.str());
  REQUIRE(m.has_value());
  return std::move(*m);
}

void simulate(const Module &threadIR, std::string_view arch, std::string_view kernel,
              const std::vector<uint64_t> &args, std::array<uint32_t, 3> grid,
              std::initializer_list<std::pair<void *, size_t>> buffers) {
  simt::test::ThreadSim sim(amdgpu::wavefrontSize(arch));
  for (auto [p, bytes] : buffers)
    sim.addBuffer(p, bytes);
  std::string error;
  bool ok = sim.run(threadIR, kernel, args, grid, error);
  INFO(error);
  INFO(print(threadIR));
  REQUIRE(ok);
}

} // namespace

TEST_CASE("AMD thread IR runs correctly: vector add, softmax, a reduction, a scan, layer norm") {
  uint64_t seed = freshSeed();
  INFO("seed " << seed);
  std::mt19937_64 rng(seed);
  for (std::string_view arch : amdgpu::supportedArchitectures()) {
    INFO(arch);
    {
      Module m = lower(parse(readFile(fs::path(TRIDENT_KERNELS_DIR) / "vector_add.ttir")), arch);
      int n = 2048 + 528; // the last program is ragged
      std::vector<float> x = randomFloats(n, rng), y = randomFloats(n, rng), out(n, NAN);
      simulate(m, arch, "add_kernel", {ptr(x.data()), ptr(y.data()), ptr(out.data()), i32(n)}, {3, 1, 1},
               {{x.data(), n * 4}, {y.data(), n * 4}, {out.data(), n * 4}});
      int bad = 0;
      for (int i = 0; i < n; ++i)
        bad += out[i] != x[i] + y[i];
      CHECK(bad == 0);
    }
    {
      Module m = lower(parse(readFile(fs::path(TRIDENT_KERNELS_DIR) / "softmax.ttir")), arch);
      int rows = 3, cols = 781, stride = 1024;
      std::vector<float> in = randomFloats(rows * stride, rng, -5, 5), out(rows * stride, NAN);
      simulate(m, arch, "softmax_kernel",
               {ptr(out.data()), ptr(in.data()), i32(stride), i32(stride), i32(cols)}, {uint32_t(rows), 1, 1},
               {{in.data(), in.size() * 4}, {out.data(), out.size() * 4}});
      double worst = 0;
      for (int r = 0; r < rows; ++r) {
        double mx = -INFINITY, sum = 0;
        for (int c = 0; c < cols; ++c)
          mx = std::max(mx, double(in[r * stride + c]));
        for (int c = 0; c < cols; ++c)
          sum += std::exp(double(in[r * stride + c]) - mx);
        for (int c = 0; c < cols; ++c)
          worst = std::max(
              worst, std::abs(out[r * stride + c] * sum / std::exp(double(in[r * stride + c]) - mx) - 1));
        CHECK(std::isnan(out[r * stride + cols])); // masked columns untouched
      }
      CHECK(worst < 1e-5);
    }
    {
      Module m = lower(parse(amdtest::kSum), arch);
      std::vector<float> in = randomFloats(1024, rng), out(1, NAN);
      simulate(m, arch, "sum_kernel", {ptr(in.data()), ptr(out.data())}, {1, 1, 1},
               {{in.data(), in.size() * 4}, {out.data(), 4}});
      double ref = 0, magnitude = 0;
      for (float v : in) {
        ref += v;
        magnitude += std::abs(v);
      }
      CHECK(std::abs(out[0] - ref) <= 1e-6 * magnitude);
    }
    {
      Module m = lower(parse(amdtest::kScan), arch);
      std::vector<float> in = randomFloats(256, rng), out(256, NAN);
      simulate(m, arch, "scan_kernel", {ptr(in.data()), ptr(out.data())}, {1, 1, 1},
               {{in.data(), in.size() * 4}, {out.data(), out.size() * 4}});
      double ref = 0, magnitude = 0, worst = 0;
      for (int i = 0; i < 256; ++i) {
        ref += in[i];
        magnitude += std::abs(in[i]);
        worst = std::max(worst, std::abs(out[i] - ref) / magnitude);
      }
      CHECK(worst <= 1e-6);
    }
    {
      // The layer-norm sample through the frontend: three loops over a row, two reductions.
      Diagnostics diags;
      auto args = parseSignature("*fp32, *fp32, *fp32, *fp32, *fp32, *fp32, i32, i32, fp32, 64", diags);
      REQUIRE(args.has_value());
      CompileRequest request;
      request.kernel = "_layer_norm_fwd_fused";
      request.args = std::move(*args);
      std::optional<Module> block = compileKernel(readFile(fs::path(TRIDENT_SAMPLES_DIR) / "layer_norm.py"),
                                                  "layer_norm.py", request, diags);
      INFO(diags.str());
      REQUIRE(block.has_value());
      Module m = lower(*block, arch);
      int rows = 3, n = 150, stride = 160;
      float eps = 1e-5f;
      std::vector<float> x = randomFloats(rows * stride, rng, -2, 2), y(rows * stride, NAN);
      std::vector<float> w = randomFloats(n, rng), b = randomFloats(n, rng), mean(rows, NAN), rstd(rows, NAN);
      simulate(m, arch, "_layer_norm_fwd_fused",
               {ptr(x.data()), ptr(y.data()), ptr(w.data()), ptr(b.data()), ptr(mean.data()),
                ptr(rstd.data()), i32(stride), i32(n), f32(eps)},
               {uint32_t(rows), 1, 1},
               {{x.data(), x.size() * 4},
                {y.data(), y.size() * 4},
                {w.data(), n * 4},
                {b.data(), n * 4},
                {mean.data(), rows * 4},
                {rstd.data(), rows * 4}});
      double worst = 0;
      for (int r = 0; r < rows; ++r) {
        double mu = 0, var = 0;
        for (int c = 0; c < n; ++c)
          mu += x[r * stride + c];
        mu /= n;
        for (int c = 0; c < n; ++c)
          var += (x[r * stride + c] - mu) * (x[r * stride + c] - mu);
        var /= n;
        double rs = 1 / std::sqrt(var + eps);
        worst = std::max(worst, std::abs(mean[r] - mu));
        worst = std::max(worst, std::abs(rstd[r] - rs) / rs);
        for (int c = 0; c < n; ++c)
          worst =
              std::max(worst, std::abs(y[r * stride + c] - ((x[r * stride + c] - mu) * rs * w[c] + b[c])));
        CHECK(std::isnan(y[r * stride + n])); // past the row: untouched
      }
      CHECK(worst < 1e-4);
    }
  }
}
