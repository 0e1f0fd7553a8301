// matmul.py: C = A @ B in fp16 with fp32 accumulation, autotuned, with and
// without the fused leaky ReLU.

#include "Samples.h"

#include <cmath>

namespace samples {

Result runMatmul(Context &ctx) {
  Result r{"matmul"};
  const int M = ctx.large ? 4096 : 200, N = ctx.large ? 4096 : 264, K = ctx.large ? 4096 : 136;
  std::vector<double> a, b;
  auto abits = randomHalfs(ctx.rng, size_t(M) * K, a);
  auto bbits = randomHalfs(ctx.rng, size_t(K) * N, b);
  Buffer ba = Buffer::fromHost(ctx.device, std::span<const uint16_t>(abits), DType::F16);
  Buffer bb = Buffer::fromHost(ctx.device, std::span<const uint16_t>(bbits), DType::F16);
  Buffer c(ctx.device, size_t(M) * N, DType::F16);
  Kernel k = Kernel::fromFile(ctx.file("matmul.py"), "matmul_kernel");
  // The grid depends on the autotuned block sizes, as in the tutorial.
  Grid grid([&](const Meta &m) -> Dim3 { return {cdiv(M, m["BLOCK_SIZE_M"]) * cdiv(N, m["BLOCK_SIZE_N"])}; });
  std::vector<double> exact(size_t(M) * N, 0.0);
  for (int i = 0; i < M; ++i)
    for (int kk = 0; kk < K; ++kk) {
      double av = a[size_t(i) * K + kk];
      for (int j = 0; j < N; ++j)
        exact[size_t(i) * N + j] += av * b[size_t(kk) * N + j];
    }
  r.match = true;
  for (const char *activation : {"", "leaky_relu"}) {
    poison(c);
    LaunchOptions opts;
    opts.constexprs = {{"ACTIVATION", Constexpr::string(activation)}};
    double ms = timeLaunches(ctx, [&] {
      k.launch(ctx.device, grid, {ba, bb, c, M, N, K, K, 1, N, 1, N, 1}, opts);
    });
    if (!*activation)
      r.ms = ms;
    std::vector<double> ref(exact.size());
    for (size_t i = 0; i < ref.size(); ++i) {
      double v = exact[i];
      if (*activation && v < 0)
        v *= 0.01;
      ref[i] = roundToHalf(v);
    }
    Result part{"matmul"};
    // fp32 accumulation of K products, then one fp16 rounding.
    compare(part, halfsToDoubles(c.toHost<uint16_t>()), ref, 1e-2, 2e-3);
    r.match &= part.match;
    r.maxError = std::max(r.maxError, part.maxError);
    if (!part.match && r.note.empty())
      r.note = std::string(*activation ? "leaky_relu: " : "") + part.note;
  }
  r.bytes = 2.0 * (double(M) * K + double(K) * N + double(M) * N);
  r.flops = 2.0 * M * N * K;
  return r;
}

} // namespace samples
