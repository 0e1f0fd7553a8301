// attention_bwd.py: the fused attention backward (dQ, dK, dV), fp16, causal and not,
// against the gradients of softmax(q k^T * scale) v computed in float64 from the same
// inputs (the forward's O rounded to fp16 as the kernels read it, and its M).

#include "Samples.h"

#include <cmath>
#include <limits>

namespace samples {

namespace {

struct Gradients {
  std::vector<double> dq, dk, dv;
};

// The float64 backward of one causal or full attention over [Z*H, N, D] inputs; `o16`
// (the forward's output as fp16) and `m` (its log2-sum-exp per row) are written too.
Gradients reference(const std::vector<double> &q, const std::vector<double> &k, const std::vector<double> &v,
                    const std::vector<double> &dout, int heads, int N, int D, double scale, bool causal,
                    std::vector<double> &o16, std::vector<float> &m) {
  size_t count = size_t(heads) * N * D;
  Gradients g{std::vector<double>(count), std::vector<double>(count), std::vector<double>(count)};
  o16.assign(count, 0);
  m.assign(size_t(heads) * N, 0);
  std::vector<double> p(size_t(N) * N), ds(size_t(N) * N);
  for (int h = 0; h < heads; ++h) {
    size_t base = size_t(h) * N * D;
    auto at = [&](const std::vector<double> &x, int row, int d) { return x[base + size_t(row) * D + d]; };
    for (int i = 0; i < N; ++i) {
      double mx = -std::numeric_limits<double>::infinity();
      for (int j = 0; j < N; ++j) {
        double s = 0;
        for (int d = 0; d < D; ++d)
          s += at(q, i, d) * at(k, j, d);
        p[size_t(i) * N + j] = causal && j > i ? -std::numeric_limits<double>::infinity() : s * scale;
        mx = std::max(mx, p[size_t(i) * N + j]);
      }
      double sum = 0;
      for (int j = 0; j < N; ++j)
        sum += (p[size_t(i) * N + j] = std::exp(p[size_t(i) * N + j] - mx));
      for (int j = 0; j < N; ++j)
        p[size_t(i) * N + j] /= sum;
      m[size_t(h) * N + i] = float((mx + std::log(sum)) / std::log(2.0));
      double delta = 0;
      for (int d = 0; d < D; ++d) {
        double o = 0;
        for (int j = 0; j < N; ++j)
          o += p[size_t(i) * N + j] * at(v, j, d);
        o16[base + size_t(i) * D + d] = roundToHalf(o);
        delta += o16[base + size_t(i) * D + d] * at(dout, i, d);
      }
      for (int j = 0; j < N; ++j) {
        double dp = 0;
        for (int d = 0; d < D; ++d)
          dp += at(dout, i, d) * at(v, j, d);
        ds[size_t(i) * N + j] = p[size_t(i) * N + j] * (dp - delta);
      }
    }
    for (int i = 0; i < N; ++i)
      for (int d = 0; d < D; ++d) {
        double dq = 0, dk = 0, dv = 0;
        for (int j = 0; j < N; ++j) {
          dq += ds[size_t(i) * N + j] * at(k, j, d);
          dk += ds[size_t(j) * N + i] * at(q, j, d); // row i of dS^T Q
          dv += p[size_t(j) * N + i] * at(dout, j, d);
        }
        g.dq[base + size_t(i) * D + d] = dq * scale;
        g.dk[base + size_t(i) * D + d] = dk * scale;
        g.dv[base + size_t(i) * D + d] = dv;
      }
  }
  return g;
}

} // namespace

Result runAttentionBackward(Context &ctx) {
  Result r{"attention_bwd"};
  const int Z = 1, H = 2, N = ctx.large ? 1024 : 256, D = 64;
  const float smScale = 0.5f;
  const size_t count = size_t(Z) * H * N * D;
  std::vector<double> q, kv, v, dout;
  auto qbits = randomHalfs(ctx.rng, count, q), kbits = randomHalfs(ctx.rng, count, kv),
       vbits = randomHalfs(ctx.rng, count, v), dobits = randomHalfs(ctx.rng, count, dout);
  Buffer bq = Buffer::fromHost(ctx.device, std::span<const uint16_t>(qbits), DType::F16);
  Buffer bk = Buffer::fromHost(ctx.device, std::span<const uint16_t>(kbits), DType::F16);
  Buffer bv = Buffer::fromHost(ctx.device, std::span<const uint16_t>(vbits), DType::F16);
  Buffer bdo = Buffer::fromHost(ctx.device, std::span<const uint16_t>(dobits), DType::F16);
  Buffer dq(ctx.device, count, DType::F16), dk(ctx.device, count, DType::F16), dv(ctx.device, count, DType::F16);
  Buffer delta(ctx.device, size_t(Z) * H * N, DType::F32);
  Kernel pre = Kernel::fromFile(ctx.file("attention_bwd.py"), "_attn_bwd_preprocess");
  Kernel kdkdv = Kernel::fromFile(ctx.file("attention_bwd.py"), "_attn_bwd_dkdv");
  Kernel kdq = Kernel::fromFile(ctx.file("attention_bwd.py"), "_attn_bwd_dq");
  r.match = true;
  for (bool causal : {false, true}) {
    std::vector<double> o;
    std::vector<float> m;
    Gradients ref = reference(q, kv, v, dout, Z * H, N, D, smScale, causal, o, m);
    std::vector<uint16_t> obits(count);
    for (size_t i = 0; i < count; ++i)
      obits[i] = floatToHalf(float(o[i]));
    Buffer bo = Buffer::fromHost(ctx.device, std::span<const uint16_t>(obits), DType::F16);
    Buffer bm = Buffer::fromHost(ctx.device, std::span<const float>(m));
    for (Buffer *b : {&dq, &dk, &dv})
      poison(*b);
    // The launches Triton's tutorial makes: dK/dV over 128 keys in steps of 32 queries,
    // dQ over 128 queries in steps of 32 keys, 4 warps, 3 stages.
    LaunchOptions pOpts, kvOpts, qOpts;
    pOpts.constexprs = {{"HEAD_DIM", D}, {"BLOCK_M", 128}};
    kvOpts.constexprs = {{"HEAD_DIM", D}, {"BLOCK_M", 32}, {"BLOCK_N", 128}, {"CAUSAL", causal ? 1 : 0}};
    qOpts.constexprs = {{"HEAD_DIM", D}, {"BLOCK_M", 128}, {"BLOCK_N", 32}, {"CAUSAL", causal ? 1 : 0}};
    for (LaunchOptions *opts : {&kvOpts, &qOpts}) {
      opts->numWarps = 4;
      opts->numStages = 3;
    }
    Grid grid(cdiv(N, 128), Z * H);
    double ms = timeLaunches(ctx, [&] {
      pre.launch(ctx.device, grid, {bo, bdo, delta, N}, pOpts);
      kdkdv.launch(ctx.device, grid, {bq, bk, bv, bdo, bm, delta, dk, dv, smScale, N}, kvOpts);
      kdq.launch(ctx.device, grid, {bq, bk, bv, bdo, bm, delta, dq, smScale, N}, qOpts);
    });
    if (!causal)
      r.ms = ms;
    // Tolerances as Triton's tests of its tutorial give them (P and dS round to fp16
    // before their products).
    for (auto [buffer, expected, name] : {std::tuple{&dq, &ref.dq, "dq"}, std::tuple{&dk, &ref.dk, "dk"},
                                          std::tuple{&dv, &ref.dv, "dv"}}) {
      Result part{"attention_bwd"};
      compare(part, halfsToDoubles(buffer->toHost<uint16_t>()), *expected, 1e-2, 1e-2);
      r.match &= part.match;
      r.maxError = std::max(r.maxError, part.maxError);
      if (!part.match && r.note.empty())
        r.note = std::string(causal ? "causal " : "") + name + ": " + part.note;
    }
  }
  r.bytes = 2.0 * 8 * count;
  r.flops = 2.5 * 4.0 * Z * H * double(N) * N * D; // as Triton's tutorial counts the backward
  return r;
}

} // namespace samples
