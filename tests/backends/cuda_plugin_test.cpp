// The CUDA plugin through its C ABI. Without a GPU it must load, report zero
// devices with a reason, and still compile; with one, the kernels run on cuda:0
// against float64 references. The test says loudly what it skipped.
#include "../core/simt/KernelTemplates.h"
#include "CudaHarness.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>

using namespace trident;
using namespace trident::test;

namespace {

std::string kernelFile(const std::string &name) {
  std::ifstream in(std::string(envOr("TRIDENT_KERNELS_DIR", TRIDENT_KERNELS_DIR)) + "/" + name);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<float> randomFloats(size_t n, uint32_t seed, float lo = -1, float hi = 1) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(lo, hi);
  std::vector<float> v(n);
  for (float &x : v)
    x = dist(gen);
  return v;
}

} // namespace

TEST_CASE("the CUDA plugin loads, enumerates and compiles without a GPU") {
  CudaHarness h(TRIDENT_CUDA_PLUGIN);
  if (!h.hasDevice()) {
    std::cout << "SKIPPED: no CUDA device: " << h.noDeviceReason << "\n";
    CHECK(!h.noDeviceReason.empty());
  }
  CHECK(h.api->supports_target(h.ctx, "cuda:sm_90") == TRIDENT_SUCCESS);
  CHECK(h.api->supports_target(h.ctx, "cuda:sm_80") == TRIDENT_SUCCESS);
  CHECK(h.api->supports_target(h.ctx, "cuda:sm_70") == TRIDENT_ERROR_NOT_SUPPORTED);
  CHECK(h.api->supports_target(h.ctx, "vulkan") == TRIDENT_ERROR_NOT_SUPPORTED);

  std::string ir = kernelFile("vector_add.ttir");
  trident_kernel_metadata meta{};
  std::string binary = h.compile(ir, "add_kernel", "cuda:sm_90", nullptr, 4, &meta);
  CHECK(binary.starts_with("trident-cuda-binary 1\nkernel add_kernel threads 128 shared 0 params 4\nptx\n"));
  CHECK(binary.find(".entry add_kernel") != std::string::npos);
  CHECK(meta.threads_per_program == 128);
  CHECK(h.compile(ir, "add_kernel", "cuda:sm_80", "ptx").find(".target sm_80") != std::string::npos);
  CHECK(h.compile(ir, "add_kernel", "cuda:sm_90", "llvm").find("define void @add_kernel") !=
        std::string::npos);
  CHECK(h.compile(ir, "add_kernel", "cuda:sm_90", "thread-ir").find("th.load") != std::string::npos);

  trident_binary out{};
  out.struct_size = sizeof out;
  trident_compile_options options{sizeof options, 0, 1, 0, "spirv"};
  CHECK(h.api->compile(h.ctx, "cuda:sm_90", ir.data(), ir.size(), "add_kernel", &options, &out) ==
        TRIDENT_ERROR_NOT_SUPPORTED);
  CHECK(std::string(h.api->last_error()).find("spirv") != std::string::npos);
  CHECK(h.api->compile(h.ctx, "cuda:sm_90", ir.data(), ir.size(), "nope", nullptr, &out) ==
        TRIDENT_ERROR_NOT_FOUND);
  std::string bad = "builtin.module ({ tt.func {sym_name = \"k\"} ({ %x = arith.addi })})";
  CHECK(h.api->compile(h.ctx, "cuda:sm_90", bad.data(), bad.size(), "k", nullptr, &out) ==
        TRIDENT_ERROR_COMPILE);
  trident_module module = nullptr;
  CHECK(h.api->module_load(h.device, "garbage", 7, &module) == TRIDENT_ERROR_INVALID_ARGUMENT);
}

TEST_CASE("kernels run on cuda:0 against references") {
  CudaHarness h(TRIDENT_CUDA_PLUGIN);
  if (!h.hasDevice()) {
    std::cout << "SKIPPED: no CUDA device: " << h.noDeviceReason << "\n";
    CHECK(!h.noDeviceReason.empty());
    return;
  }
  std::cout << "running on cuda:0 (" << h.target << ")\n";

  SUBCASE("vector add") {
    int n = (1 << 20) + 16 * 37;
    std::vector<float> x = randomFloats(n, 1), y = randomFloats(n, 2);
    auto k = h.load(h.compile(kernelFile("vector_add.ttir"), "add_kernel", h.target), "add_kernel");
    trident_devptr dx = h.upload(x), dy = h.upload(y), dout = h.upload(std::vector<float>(n, NAN));
    h.launch(k.kernel, {uint32_t((n + 1023) / 1024), 1, 1},
             {CudaHarness::ptr(dx), CudaHarness::ptr(dy), CudaHarness::ptr(dout), CudaHarness::i32(n)});
    std::vector<float> out = h.download<float>(dout, n);
    int bad = 0;
    for (int i = 0; i < n; ++i)
      bad += out[i] != x[i] + y[i];
    CHECK(bad == 0);
  }

  SUBCASE("softmax") {
    int rows = 777, cols = 1000, stride = 1024;
    std::vector<float> in = randomFloats(size_t(rows) * stride, 3, -8, 8);
    auto k = h.load(h.compile(kernelFile("softmax.ttir"), "softmax_kernel", h.target), "softmax_kernel");
    trident_devptr din = h.upload(in), dout = h.upload(std::vector<float>(in.size(), NAN));
    h.launch(k.kernel, {uint32_t(rows), 1, 1},
             {CudaHarness::ptr(dout), CudaHarness::ptr(din), CudaHarness::i32(stride),
              CudaHarness::i32(stride), CudaHarness::i32(cols)});
    std::vector<float> out = h.download<float>(dout, in.size());
    double worst = 0;
    for (int r = 0; r < rows; ++r) {
      double mx = -INFINITY, sum = 0;
      for (int c = 0; c < cols; ++c)
        mx = std::max(mx, double(in[r * stride + c]));
      for (int c = 0; c < cols; ++c)
        sum += std::exp(double(in[r * stride + c]) - mx);
      for (int c = 0; c < cols; ++c)
        worst =
            std::max(worst, std::abs(out[r * stride + c] - std::exp(double(in[r * stride + c]) - mx) / sum));
    }
    CHECK(worst < 1e-6);
  }

  SUBCASE("2-D reductions and layout conversions") {
    for (auto [m, n] : std::vector<std::pair<int, int>>{{32, 64}, {4, 8}, {128, 2}, {2, 512}}) {
      INFO(m << "x" << n);
      int stride = n + 16;
      std::vector<float> x = randomFloats(size_t(m) * stride, 7);
      auto k = h.load(h.compile(simt::test::reduce2dKernel(m, n), "reduce2d", h.target), "reduce2d");
      trident_devptr dx = h.upload(x), drs = h.upload(std::vector<float>(m, NAN)),
                     dcm = h.upload(std::vector<float>(n, NAN));
      h.launch(
          k.kernel, {1, 1, 1},
          {CudaHarness::ptr(dx), CudaHarness::ptr(drs), CudaHarness::ptr(dcm), CudaHarness::i32(stride)});
      std::vector<float> rs = h.download<float>(drs, m), cm = h.download<float>(dcm, n);
      int bad = 0;
      for (int i = 0; i < m; ++i) {
        double s = 0;
        for (int j = 0; j < n; ++j)
          s += x[i * stride + j];
        bad += std::abs(rs[i] - s) > 1e-4;
      }
      for (int j = 0; j < n; ++j) {
        float mx = -INFINITY;
        for (int i = 0; i < m; ++i)
          mx = std::max(mx, x[i * stride + j]);
        bad += cm[j] != mx;
      }
      CHECK(bad == 0);

      std::vector<float> t = randomFloats(size_t(m) * n, 8), y = randomFloats(n, 9);
      auto kt = h.load(h.compile(simt::test::transposeKernel(m, n), "transpose", h.target), "transpose");
      trident_devptr dt = h.upload(t), dy = h.upload(y), dto = h.upload(std::vector<float>(t.size(), NAN));
      h.launch(kt.kernel, {1, 1, 1},
               {CudaHarness::ptr(dt), CudaHarness::ptr(dy), CudaHarness::ptr(dto), CudaHarness::i32(n)});
      std::vector<float> to = h.download<float>(dto, t.size());
      bad = 0;
      for (int i = 0; i < m; ++i)
        for (int j = 0; j < n; ++j)
          bad += to[j * m + i] != t[i * n + j] * 2 + y[j];
      CHECK(bad == 0);
    }
  }

  SUBCASE("a dot whose operands need more than 48 KB of shared memory") {
    int m = 128, n = 128, k = 64;
    trident_kernel_metadata meta{};
    std::string binary = h.compile(simt::test::dotKernel(m, n, k, "f32", "f32"), "dot", h.target, nullptr, 4, &meta);
    CHECK(meta.shared_memory > 48 * 1024);
    auto kd = h.load(binary, "dot");
    std::vector<float> a = randomFloats(size_t(m) * k, 41), b = randomFloats(size_t(k) * n, 42),
                       c0 = randomFloats(size_t(m) * n, 43);
    trident_devptr da = h.upload(a), db = h.upload(b), dc0 = h.upload(c0),
                   dout = h.upload(std::vector<float>(size_t(m) * n, NAN));
    h.launch(kd.kernel, {1, 1, 1},
             {CudaHarness::ptr(da), CudaHarness::ptr(db), CudaHarness::ptr(dc0), CudaHarness::ptr(dout)});
    std::vector<float> out = h.download<float>(dout, size_t(m) * n);
    double worst = 0;
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) {
        double ref = c0[i * n + j];
        for (int t = 0; t < k; ++t)
          ref += double(a[i * k + t]) * b[t * n + j];
        worst = std::max(worst, std::abs(out[i * n + j] - ref));
      }
    CHECK(worst < 1e-4);
  }

  SUBCASE("atomics") {
    int block = 16;
    uint32_t programs = 1000;
    auto k = h.load(h.compile(simt::test::atomicKernel(block), "atomics", h.target), "atomics");
    trident_devptr counts = h.upload(std::vector<int32_t>(block, 0)),
                   olds = h.upload(std::vector<int32_t>(programs * block, -1)),
                   tickets = h.upload(std::vector<int32_t>(programs + 1, 0));
    h.launch(k.kernel, {programs, 1, 1},
             {CudaHarness::ptr(counts), CudaHarness::ptr(olds), CudaHarness::ptr(tickets)});
    std::vector<int32_t> c = h.download<int32_t>(counts, block),
                         t = h.download<int32_t>(tickets, programs + 1);
    int bad = 0;
    for (int i = 0; i < block; ++i)
      bad += c[i] != int(programs);
    CHECK(bad == 0);
    CHECK(t[0] == int(programs));
    std::vector<int> seen(programs, 0);
    for (uint32_t p = 0; p < programs; ++p)
      if (t[p + 1] >= 0 && t[p + 1] < int(programs))
        ++seen[t[p + 1]];
    CHECK(std::count(seen.begin(), seen.end(), 1) == int(programs)); // every ticket handed out once
  }
}

// The CUDA plugin built without the compiler (what -DTRIDENT_ENABLE_COMPILER=OFF ships)
// compiles nothing, yet runs the PTX the full plugin wrote; and memory from mem_import
// stays its owner's: mem_free of the import only forgets it (plugin.h).
TEST_CASE("the compiler-less CUDA plugin runs PTX compiled ahead of time; imports are not freed") {
  CudaHarness h(TRIDENT_CUDA_PLUGIN_NOCOMPILER);
  CHECK(h.api->supports_target(h.ctx, "cuda:sm_90") == TRIDENT_ERROR_NOT_SUPPORTED);
  CHECK(std::string(h.api->last_error()).find("built without the compiler") != std::string::npos);
  trident_binary none{};
  none.struct_size = sizeof none;
  std::string ir = kernelFile("vector_add.ttir");
  CHECK(h.api->compile(h.ctx, "cuda:sm_90", ir.data(), ir.size(), "add_kernel", nullptr, &none) ==
        TRIDENT_ERROR_NOT_SUPPORTED);
  if (!h.hasDevice()) {
    std::cout << "SKIPPED: the compiler-less CUDA plugin's launch: no CUDA device: " << h.noDeviceReason << "\n";
    CHECK(!h.noDeviceReason.empty());
    return;
  }
  std::string binary;
  {
    CudaHarness full(TRIDENT_CUDA_PLUGIN);
    binary = full.compile(ir, "add_kernel", h.target);
  }
  int n = 5000;
  std::vector<float> x = randomFloats(n, 11), y = randomFloats(n, 12);
  auto k = h.load(binary, "add_kernel");
  trident_devptr dx = h.upload(x), dy = h.upload(y), dout = h.upload(std::vector<float>(n, NAN));
  h.launch(k.kernel, {uint32_t((n + 1023) / 1024), 1, 1},
           {CudaHarness::ptr(dx), CudaHarness::ptr(dy), CudaHarness::ptr(dout), CudaHarness::i32(n)});
  std::vector<float> out = h.download<float>(dout, n);
  int bad = 0;
  for (int i = 0; i < n; ++i)
    bad += out[i] != x[i] + y[i];
  CHECK(bad == 0);
  CHECK(h.unload(k.module) == TRIDENT_SUCCESS);

  // dout imported twice and both imports released: it is still dout's memory.
  for (int i = 0; i < 2; ++i) {
    trident_devptr imported = 0;
    REQUIRE(h.api->mem_import(h.device, dout, size_t(n) * 4, &imported) == TRIDENT_SUCCESS);
    CHECK(imported == dout);
    CHECK(h.api->mem_free(h.device, imported) == TRIDENT_SUCCESS);
  }
  CHECK(h.download<float>(dout, n) == out);
  for (trident_devptr p : {dx, dy, dout})
    CHECK(h.free(p) == TRIDENT_SUCCESS);
  // Freed now (cuMemFree), so a second free is the driver's error, not a silent success.
  CHECK(h.api->mem_free(h.device, dout) == TRIDENT_ERROR_DEVICE);
}
