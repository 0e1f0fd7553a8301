// attention.py: fused attention forward (FlashAttention-2 style), fp16, causal
// and not, against softmax(q k^T * scale) v computed in float64.

#include "Samples.h"

#include <cmath>
#include <limits>

namespace samples {

Result runAttention(Context &ctx) {
  Result r{"attention"};
  const int Z = 1, H = 2, N = ctx.large ? 2048 : 256, D = 64;
  const int BLOCK_M = 128, BLOCK_N = 64;
  const float smScale = 0.5f;
  const size_t count = size_t(Z) * H * N * D;
  std::vector<double> q, kv, v;
  auto qbits = randomHalfs(ctx.rng, count, q), kbits = randomHalfs(ctx.rng, count, kv),
       vbits = randomHalfs(ctx.rng, count, v);
  Buffer bq = Buffer::fromHost(ctx.device, std::span<const uint16_t>(qbits), DType::F16);
  Buffer bk = Buffer::fromHost(ctx.device, std::span<const uint16_t>(kbits), DType::F16);
  Buffer bv = Buffer::fromHost(ctx.device, std::span<const uint16_t>(vbits), DType::F16);
  Buffer out(ctx.device, count, DType::F16), m(ctx.device, size_t(Z) * H * N, DType::F32);
  Kernel k = Kernel::fromFile(ctx.file("attention.py"), "_attn_fwd");
  const int sz = H * N * D, sh = N * D, sm = D, sk = 1;
  r.match = true;
  for (bool causal : {false, true}) {
    poison(out);
    LaunchOptions opts;
    opts.constexprs = {{"N_CTX", N}, {"HEAD_DIM", D}, {"BLOCK_M", BLOCK_M}, {"BLOCK_N", BLOCK_N},
                       {"STAGE", causal ? 3 : 1}};
    double ms = timeLaunches(ctx, [&] {
      k.launch(ctx.device, Grid(cdiv(N, BLOCK_M), Z * H),
               {bq, bk, bv, smScale, m, out, sz, sh, sm, sk, sz, sh, sm, sk, sz, sh, sm, sk, sz, sh, sm, sk, Z, H},
               opts);
    });
    if (!causal)
      r.ms = ms;
    std::vector<double> ref(count);
    std::vector<double> p(static_cast<size_t>(N));
    for (int zh = 0; zh < Z * H; ++zh) {
      size_t base = size_t(zh) * N * D;
      for (int i = 0; i < N; ++i) {
        double mx = -std::numeric_limits<double>::infinity();
        for (int j = 0; j < N; ++j) {
          double s = 0;
          for (int d = 0; d < D; ++d)
            s += q[base + size_t(i) * D + d] * kv[base + size_t(j) * D + d];
          p[size_t(j)] = (causal && j > i) ? -std::numeric_limits<double>::infinity() : s * smScale;
          mx = std::max(mx, p[size_t(j)]);
        }
        double sum = 0;
        for (int j = 0; j < N; ++j)
          sum += (p[size_t(j)] = std::exp(p[size_t(j)] - mx));
        for (int d = 0; d < D; ++d) {
          double o = 0;
          for (int j = 0; j < N; ++j)
            o += p[size_t(j)] / sum * v[base + size_t(j) * D + d];
          ref[base + size_t(i) * D + d] = o;
        }
      }
    }
    Result part{"attention"};
    compare(part, halfsToDoubles(out.toHost<uint16_t>()), ref, 1e-2, 0); // Triton's own tolerance
    r.match &= part.match;
    r.maxError = std::max(r.maxError, part.maxError);
    if (!part.match && r.note.empty())
      r.note = std::string(causal ? "causal: " : "") + part.note;
  }
  r.bytes = 2.0 * 4 * count;
  r.flops = 4.0 * Z * H * double(N) * N * D;
  return r;
}

} // namespace samples
