// trident-bench's attention backward rows: samples/attention_bwd.py (dQ, dK, dV) after
// samples/attention.py's forward, launched as Triton's tutorial launches its backward,
// checked on sampled rows of dQ and dV against float64 before they are timed.

#include "BenchDots.h"

#include "BenchSupport.h"

#include <random>

namespace trident::bench {

namespace {

double dotRow(const std::vector<double> &x, size_t i, const std::vector<double> &y, size_t j, int D) {
  double s = 0;
  for (int d = 0; d < D; ++d)
    s += x[i * D + d] * y[j * D + d];
  return s;
}

} // namespace

DotRow attentionBackward(const Device &dev, int Z, int H, int N, int D, bool causal, int repeats,
                         const std::string &dir) {
  size_t count = size_t(Z) * H * N * D, rows = size_t(Z) * H * N;
  std::vector<double> q, k, v, dout;
  Buffer bq = randomHalfMatrix(dev, count, 11, q), bk = randomHalfMatrix(dev, count, 12, k), bv = randomHalfMatrix(dev, count, 13, v),
         bdo = randomHalfMatrix(dev, count, 14, dout);
  Buffer o(dev, count, DType::F16), m(dev, rows, DType::F32), delta(dev, rows, DType::F32);
  Buffer dq(dev, count, DType::F16), dk(dev, count, DType::F16), dv(dev, count, DType::F16);
  for (Buffer *b : {&dq, &dk, &dv})
    b->fillBytes(0xff);
  const float smScale = 0.5f;
  const int s1 = H * N * D, s2 = N * D, s3 = D, s4 = 1;
  Kernel fwd = Kernel::fromFile(dir + "/attention.py", "_attn_fwd");
  LaunchOptions fo;
  fo.constexprs = {{"N_CTX", N}, {"HEAD_DIM", D}, {"BLOCK_M", 128}, {"BLOCK_N", 64}, {"STAGE", causal ? 3 : 1}};
  fwd.launch(dev, Grid(cdiv(N, 128), Z * H),
             {bq, bk, bv, smScale, m, o, s1, s2, s3, s4, s1, s2, s3, s4, s1, s2, s3, s4, s1, s2, s3, s4, Z, H}, fo);
  Kernel pre = Kernel::fromFile(dir + "/attention_bwd.py", "_attn_bwd_preprocess");
  Kernel kv = Kernel::fromFile(dir + "/attention_bwd.py", "_attn_bwd_dkdv");
  Kernel kq = Kernel::fromFile(dir + "/attention_bwd.py", "_attn_bwd_dq");
  LaunchOptions po, kvo, qo;
  po.constexprs = {{"HEAD_DIM", D}, {"BLOCK_M", 128}};
  kvo.constexprs = {{"HEAD_DIM", D}, {"BLOCK_M", 32}, {"BLOCK_N", 128}, {"CAUSAL", causal ? 1 : 0}};
  qo.constexprs = {{"HEAD_DIM", D}, {"BLOCK_M", 128}, {"BLOCK_N", 32}, {"CAUSAL", causal ? 1 : 0}};
  for (LaunchOptions *x : {&kvo, &qo}) {
    x->numWarps = 4;
    x->numStages = 3;
  }
  Grid grid(cdiv(N, 128), Z * H);
  auto launch = [&] {
    pre.launch(dev, grid, {o, bdo, delta, N}, po);
    kv.launch(dev, grid, {bq, bk, bv, bdo, m, delta, dk, dv, smScale, N}, kvo);
    kq.launch(dev, grid, {bq, bk, bv, bdo, m, delta, dq, smScale, N}, qo);
  };
  DotRow r;
  r.kernel = std::string("attention bwd") + (causal ? " causal" : "");
  r.size = std::to_string(Z) + "x" + std::to_string(H) + "x" + std::to_string(N) + "x" + std::to_string(D);
  r.coldMs = coldLaunchMs(dev, launch);
  // 4 sampled rows of dQ and of dV against float64, from the forward's O and M as the
  // device wrote them (attention's own row checks the forward).
  std::vector<double> on, mv;
  for (uint16_t h : o.toHost<uint16_t>())
    on.push_back(halfToFloat(h));
  for (float x : m.toHost<float>())
    mv.push_back(x);
  std::vector<uint16_t> gq = dq.toHost<uint16_t>(), gv = dv.toHost<uint16_t>();
  const double log2e = 1.4426950408889634;
  auto prob = [&](size_t hb, int i, int j) { // P[i][j] of head block `hb` (row offset)
    if (causal && j > i)
      return 0.0;
    return std::exp2(dotRow(q, hb + size_t(i), k, hb + size_t(j), D) * smScale * log2e - mv[hb + size_t(i)]);
  };
  std::mt19937 pick(8);
  size_t bad = 0, checked = 0;
  for (int n = 0; n < 4; ++n) {
    size_t hb = size_t(pick() % uint32_t(Z * H)) * N;
    int i = int(pick() % uint32_t(N)), j = int(pick() % uint32_t(N));
    double deltaI = dotRow(on, hb + size_t(i), dout, hb + size_t(i), D);
    std::vector<double> refQ(size_t(D), 0), refV(size_t(D), 0);
    for (int x = 0; x < N; ++x) {
      double ds = prob(hb, i, x) * (dotRow(dout, hb + size_t(i), v, hb + size_t(x), D) - deltaI);
      double pxj = prob(hb, x, j);
      for (int d = 0; d < D; ++d) {
        refQ[size_t(d)] += ds * k[(hb + size_t(x)) * D + d] * smScale;
        refV[size_t(d)] += pxj * dout[(hb + size_t(x)) * D + d];
      }
    }
    for (int d = 0; d < D; ++d) {
      double a = halfToFloat(gq[(hb + size_t(i)) * D + d]), b = halfToFloat(gv[(hb + size_t(j)) * D + d]);
      bad += !(std::fabs(a - refQ[size_t(d)]) <= 1e-2 + 1e-2 * std::fabs(refQ[size_t(d)]));
      bad += !(std::fabs(b - refV[size_t(d)]) <= 1e-2 + 1e-2 * std::fabs(refV[size_t(d)]));
      checked += 2;
    }
  }
  r.check = bad ? std::to_string(bad) + " of " + std::to_string(checked) + " sampled elements differ" : "ok";
  r.ms = timeOnDevice(dev, repeats, 1, launch).first;
  // The backward as Triton's tutorial counts it: 2.5 times the forward's two matmuls.
  double flops = 2.5 * 4.0 * Z * H * double(N) * N * D;
  r.tflops = (causal ? 0.5 : 1.0) * flops / (r.ms * 1e9);
  return r;
}

} // namespace trident::bench
