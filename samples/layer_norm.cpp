// layer_norm.py: the fused forward pass (mean, 1/std, normalize, affine), fp32.

#include "Samples.h"

#include <cmath>

namespace samples {

Result runLayerNorm(Context &ctx) {
  Result r{"layer_norm"};
  const int M = ctx.large ? 4096 : 48, N = ctx.large ? 8192 : 2500;
  const float eps = 1e-5f;
  auto x = randomFloats(ctx.rng, size_t(M) * N, -2, 2);
  auto w = randomFloats(ctx.rng, size_t(N), 0, 1), b = randomFloats(ctx.rng, size_t(N), 0, 1);
  Buffer bx = Buffer::fromHost(ctx.device, std::span<const float>(x));
  Buffer bw = Buffer::fromHost(ctx.device, std::span<const float>(w));
  Buffer bb = Buffer::fromHost(ctx.device, std::span<const float>(b));
  Buffer y(ctx.device, size_t(M) * N, DType::F32), mean(ctx.device, size_t(M), DType::F32),
      rstd(ctx.device, size_t(M), DType::F32);
  poison(y);
  poison(mean);
  poison(rstd);
  Kernel k = Kernel::fromFile(ctx.file("layer_norm.py"), "_layer_norm_fwd_fused");
  LaunchOptions opts;
  opts.constexprs = {{"BLOCK_SIZE", 1024}};
  r.ms = timeLaunches(ctx, [&] { k.launch(ctx.device, Grid(M), {bx, y, bw, bb, mean, rstd, N, N, eps}, opts); });
  std::vector<double> refY(x.size()), refMean(static_cast<size_t>(M)), refRstd(static_cast<size_t>(M));
  for (int i = 0; i < M; ++i) {
    const float *row = x.data() + size_t(i) * N;
    double mu = 0, var = 0;
    for (int j = 0; j < N; ++j)
      mu += row[j];
    mu /= N;
    for (int j = 0; j < N; ++j)
      var += (row[j] - mu) * (row[j] - mu);
    var /= N;
    double rs = 1 / std::sqrt(var + double(eps));
    refMean[size_t(i)] = mu;
    refRstd[size_t(i)] = rs;
    for (int j = 0; j < N; ++j)
      refY[size_t(i) * N + j] = (row[j] - mu) * rs * w[size_t(j)] + b[size_t(j)];
  }
  compare(r, toDoubles(y.toHost<float>()), refY, 1e-4, 1e-4);
  Result stats{"layer_norm"};
  compare(stats, toDoubles(mean.toHost<float>()), refMean, 1e-5, 1e-4);
  compare(stats, toDoubles(rstd.toHost<float>()), refRstd, 1e-5, 1e-4);
  if (!stats.match && r.match)
    r.note = "mean/rstd: " + stats.note;
  r.match &= stats.match;
  r.bytes = 4.0 * (2.0 * M * N + 2.0 * N + 2.0 * M);
  return r;
}

} // namespace samples
