// End to end: every sample kernel compiled by the frontend and run in the
// reference interpreter on fresh random inputs, against float64 references.
#include "FrontendTestUtil.h"

#include "trident/interp/Interpreter.h"
#include "trident/support/FloatFormats.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdint>
#include <random>
#include <vector>

using namespace trident;
using namespace trident::test;

namespace {

// A fresh seed per run, shown when a check fails.
uint64_t freshSeed() {
  std::random_device rd;
  return (static_cast<uint64_t>(rd()) << 32) ^ rd();
}

Module compileSample(const char *file, const char *kernel, const std::string &signature) {
  Compiled c = compileSource(readSample(file), kernel, signature, false, file);
  INFO(c.diags.str());
  REQUIRE(c.module);
  return std::move(*c.module);
}

template <class T> void addBuffer(Interpreter &interp, std::vector<T> &v, const char *name) {
  interp.addBuffer(v.data(), v.size() * sizeof(T), name);
}

void run(Interpreter &interp, const Module &m, const char *kernel, const std::vector<KernelArg> &args,
         std::array<uint32_t, 3> grid) {
  Diagnostics diags;
  bool ok = interp.run(m, kernel, args, grid, diags);
  INFO(diags.str());
  REQUIRE(ok);
}

std::vector<float> randomFloats(std::mt19937_64 &rng, size_t n, float lo = -1, float hi = 1) {
  std::uniform_real_distribution<float> d(lo, hi);
  std::vector<float> v(n);
  for (float &x : v)
    x = d(rng);
  return v;
}

std::vector<uint16_t> randomHalves(std::mt19937_64 &rng, size_t n, float lo = -1, float hi = 1) {
  std::vector<uint16_t> v(n);
  for (uint16_t &h : v)
    h = floatToF16(std::uniform_real_distribution<float>(lo, hi)(rng));
  return v;
}

uint32_t cdiv(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

KernelArg ptr(const void *p, Type pointee) { return KernelArg::pointer(p, pointee); }

// Philox 4x32-10 and Triton's uniform mapping, written from the Philox paper.
std::array<uint32_t, 4> philox(uint64_t seed, uint32_t c0, uint32_t c1 = 0, uint32_t c2 = 0,
                               uint32_t c3 = 0) {
  uint32_t k0 = static_cast<uint32_t>(seed), k1 = static_cast<uint32_t>(seed >> 32);
  for (int round = 0; round < 10; ++round) {
    uint64_t pa = uint64_t(0xD2511F53) * c0, pb = uint64_t(0xCD9E8D57) * c2;
    uint32_t n0 = static_cast<uint32_t>(pb >> 32) ^ c1 ^ k0, n2 = static_cast<uint32_t>(pa >> 32) ^ c3 ^ k1;
    c1 = static_cast<uint32_t>(pb);
    c3 = static_cast<uint32_t>(pa);
    c0 = n0;
    c2 = n2;
    k0 += 0x9E3779B9;
    k1 += 0xBB67AE85;
  }
  return {c0, c1, c2, c3};
}

float uniform(uint32_t bits) {
  int32_t x = static_cast<int32_t>(bits);
  if (x < 0)
    x = -(x + 1); // Triton's -x - 1, without overflow
  return static_cast<float>(x) * 4.6566127342e-10f;
}

} // namespace

TEST_CASE("e2e: vector add") {
  uint64_t seed = freshSeed();
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  Module m = compileSample("vector_add.py", "add_kernel", "*fp32:16, *fp32:16, *fp32:16, i32, 256");
  int n = 700 + static_cast<int>(rng() % 500);
  auto x = randomFloats(rng, n), y = randomFloats(rng, n);
  std::vector<float> out(n, NAN);
  Interpreter interp;
  addBuffer(interp, x, "x");
  addBuffer(interp, y, "y");
  addBuffer(interp, out, "out");
  run(interp, m, "add_kernel",
      {ptr(x.data(), Type::f32()), ptr(y.data(), Type::f32()), ptr(out.data(), Type::f32()),
       KernelArg::i32(n)},
      {cdiv(n, 256), 1, 1});
  for (int i = 0; i < n; ++i)
    REQUIRE(std::fabs(out[i] - (double(x[i]) + double(y[i]))) <=
            1e-6 * std::fabs(double(x[i]) + y[i]) + 1e-7);
}

TEST_CASE("e2e: fused softmax, rows strided over programs") {
  uint64_t seed = freshSeed();
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  Module m =
      compileSample("fused_softmax.py", "softmax_kernel", "*fp32:16, *fp32:16, i32, i32, i32, i32, 128, 2");
  int rows = 5 + static_cast<int>(rng() % 5), cols = 50 + static_cast<int>(rng() % 78);
  auto x = randomFloats(rng, size_t(rows) * cols, -5, 5);
  std::vector<float> y(x.size(), NAN);
  Interpreter interp;
  addBuffer(interp, x, "x");
  addBuffer(interp, y, "y");
  run(interp, m, "softmax_kernel",
      {ptr(y.data(), Type::f32()), ptr(x.data(), Type::f32()), KernelArg::i32(cols), KernelArg::i32(cols),
       KernelArg::i32(rows), KernelArg::i32(cols)},
      {3, 1, 1});
  for (int r = 0; r < rows; ++r) {
    double mx = -INFINITY, sum = 0;
    for (int c = 0; c < cols; ++c)
      mx = std::max(mx, double(x[r * cols + c]));
    for (int c = 0; c < cols; ++c)
      sum += std::exp(double(x[r * cols + c]) - mx);
    for (int c = 0; c < cols; ++c) {
      double ref = std::exp(double(x[r * cols + c]) - mx) / sum;
      REQUIRE(std::fabs(y[r * cols + c] - ref) <= 1e-5 * ref + 1e-7);
    }
  }
}

TEST_CASE("e2e: matmul with grouped order, K masks, fp16 output, optional leaky ReLU") {
  uint64_t seed = freshSeed();
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  for (const char *activation : {"''", "'leaky_relu'"}) {
    CAPTURE(activation);
    int M = 33 + static_cast<int>(rng() % 20), N = 40 + static_cast<int>(rng() % 20),
        K = 50 + static_cast<int>(rng() % 40);
    Module m =
        compileSample("matmul.py", "matmul_kernel",
                      "*fp16, *fp16, *fp16, i32, i32, i32, i32, i32, i32, i32, i32, i32, 16, 16, 32, 2, " +
                          std::string(activation));
    auto a = randomHalves(rng, size_t(M) * K), b = randomHalves(rng, size_t(K) * N);
    std::vector<uint16_t> c(size_t(M) * N, 0x7e00);
    Interpreter interp;
    addBuffer(interp, a, "a");
    addBuffer(interp, b, "b");
    addBuffer(interp, c, "c");
    run(interp, m, "matmul_kernel",
        {ptr(a.data(), Type::f16()), ptr(b.data(), Type::f16()), ptr(c.data(), Type::f16()),
         KernelArg::i32(M), KernelArg::i32(N), KernelArg::i32(K), KernelArg::i32(K), KernelArg::i32(1),
         KernelArg::i32(N), KernelArg::i32(1), KernelArg::i32(N), KernelArg::i32(1)},
        {cdiv(M, 16) * cdiv(N, 16), 1, 1});
    for (int i = 0; i < M; ++i)
      for (int j = 0; j < N; ++j) {
        double ref = 0;
        for (int kk = 0; kk < K; ++kk)
          ref += double(f16ToFloat(a[i * K + kk])) * f16ToFloat(b[kk * N + j]);
        if (std::string(activation) == "'leaky_relu'" && ref < 0)
          ref *= 0.01;
        double got = f16ToFloat(c[i * N + j]);
        INFO("C[" << i << "][" << j << "] = " << got << ", expected " << ref);
        REQUIRE(std::fabs(got - ref) <= 2e-3 * std::fabs(ref) + 2e-3);
      }
  }
}

TEST_CASE("e2e: layer norm forward and backward (lock-and-atomics accumulation)") {
  uint64_t seed = freshSeed();
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  const int M = 7 + static_cast<int>(rng() % 4), N = 70 + static_cast<int>(rng() % 50);
  const float eps = 1e-5f;
  auto x = randomFloats(rng, size_t(M) * N, -2, 2), w = randomFloats(rng, N, 0.5, 1.5),
       b = randomFloats(rng, N);
  auto dy = randomFloats(rng, size_t(M) * N);
  std::vector<float> y(x.size(), NAN), mean(M, NAN), rstd(M, NAN);
  Interpreter interp;
  addBuffer(interp, x, "x");
  addBuffer(interp, w, "w");
  addBuffer(interp, b, "b");
  addBuffer(interp, dy, "dy");
  addBuffer(interp, y, "y");
  addBuffer(interp, mean, "mean");
  addBuffer(interp, rstd, "rstd");
  Module fwd = compileSample("layer_norm.py", "_layer_norm_fwd_fused",
                             "*fp32, *fp32, *fp32, *fp32, *fp32, *fp32, i32, i32, fp32, 32");
  run(interp, fwd, "_layer_norm_fwd_fused",
      {ptr(x.data(), Type::f32()), ptr(y.data(), Type::f32()), ptr(w.data(), Type::f32()),
       ptr(b.data(), Type::f32()), ptr(mean.data(), Type::f32()), ptr(rstd.data(), Type::f32()),
       KernelArg::i32(N), KernelArg::i32(N), KernelArg::f32(eps)},
      {uint32_t(M), 1, 1});
  std::vector<double> refMean(M), refRstd(M);
  for (int r = 0; r < M; ++r) {
    double s = 0, v = 0;
    for (int c = 0; c < N; ++c)
      s += x[r * N + c];
    refMean[r] = s / N;
    for (int c = 0; c < N; ++c)
      v += (x[r * N + c] - refMean[r]) * (x[r * N + c] - refMean[r]);
    refRstd[r] = 1 / std::sqrt(v / N + eps);
    REQUIRE(std::fabs(mean[r] - refMean[r]) <= 1e-5);
    REQUIRE(std::fabs(rstd[r] - refRstd[r]) <= 1e-4 * refRstd[r]);
    for (int c = 0; c < N; ++c) {
      double ref = (x[r * N + c] - refMean[r]) * refRstd[r] * w[c] + b[c];
      REQUIRE(std::fabs(y[r * N + c] - ref) <= 1e-4 * std::fabs(ref) + 1e-5);
    }
  }
  // Backward: dx per row, dw / db through GROUP_SIZE_M locked partial buffers.
  const int group = 3;
  std::vector<float> dx(x.size(), NAN), partialDw(size_t(group) * N, 0), partialDb(size_t(group) * N, 0);
  std::vector<float> dw(N, NAN), db(N, NAN);
  std::vector<int32_t> locks(2 * group, 0);
  addBuffer(interp, dx, "dx");
  addBuffer(interp, partialDw, "partial_dw");
  addBuffer(interp, partialDb, "partial_db");
  addBuffer(interp, dw, "dw");
  addBuffer(interp, db, "db");
  addBuffer(interp, locks, "locks");
  Module bwd =
      compileSample("layer_norm.py", "_layer_norm_bwd_dx_fused",
                    "*fp32, *fp32, *fp32, *fp32, *fp32, *fp32, *fp32, *fp32, *i32, i32, i32, 3, 128");
  run(interp, bwd, "_layer_norm_bwd_dx_fused",
      {ptr(dx.data(), Type::f32()), ptr(dy.data(), Type::f32()), ptr(partialDw.data(), Type::f32()),
       ptr(partialDb.data(), Type::f32()), ptr(x.data(), Type::f32()), ptr(w.data(), Type::f32()),
       ptr(mean.data(), Type::f32()), ptr(rstd.data(), Type::f32()), ptr(locks.data(), Type::i32()),
       KernelArg::i32(N), KernelArg::i32(N)},
      {uint32_t(M), 1, 1});
  Module dwdb =
      compileSample("layer_norm.py", "_layer_norm_bwd_dwdb", "*fp32, *fp32, *fp32, *fp32, i32, i32, 32, 64");
  run(interp, dwdb, "_layer_norm_bwd_dwdb",
      {ptr(partialDw.data(), Type::f32()), ptr(partialDb.data(), Type::f32()), ptr(dw.data(), Type::f32()),
       ptr(db.data(), Type::f32()), KernelArg::i32(group), KernelArg::i32(N)},
      {cdiv(N, 64), 1, 1});
  for (int i = 0; i < group; ++i)
    REQUIRE(locks[i] == 0); // every lock released
  std::vector<double> refDw(N, 0), refDb(N, 0);
  for (int r = 0; r < M; ++r) {
    double c1 = 0, c2 = 0;
    std::vector<double> xhat(N), wdy(N);
    for (int c = 0; c < N; ++c) {
      xhat[c] = (x[r * N + c] - refMean[r]) * refRstd[r];
      wdy[c] = double(w[c]) * dy[r * N + c];
      c1 += xhat[c] * wdy[c];
      c2 += wdy[c];
      refDw[c] += dy[r * N + c] * xhat[c];
      refDb[c] += dy[r * N + c];
    }
    c1 /= N;
    c2 /= N;
    for (int c = 0; c < N; ++c) {
      double ref = (wdy[c] - (xhat[c] * c1 + c2)) * refRstd[r];
      REQUIRE(std::fabs(dx[r * N + c] - ref) <= 1e-4 * std::fabs(ref) + 1e-4);
    }
  }
  for (int c = 0; c < N; ++c) {
    REQUIRE(std::fabs(dw[c] - refDw[c]) <= 1e-4 * std::fabs(refDw[c]) + 1e-4);
    REQUIRE(std::fabs(db[c] - refDb[c]) <= 1e-4 * std::fabs(refDb[c]) + 1e-4);
  }
}

TEST_CASE("e2e: Philox matches the Random123 known answer and the reference stream") {
  std::string src =
      std::string(kHeader) +
      "@triton.jit\ndef k(out_ptr, seed, offs_ptr, f_ptr, n_ptr, BLOCK: tl.constexpr):\n"
      "    i = tl.arange(0, BLOCK)\n    offs = tl.load(offs_ptr + i)\n"
      "    a, b, c, d = tl.randint4x(seed, offs)\n"
      "    tl.store(out_ptr + 4 * i, a)\n    tl.store(out_ptr + 4 * i + 1, b)\n"
      "    tl.store(out_ptr + 4 * i + 2, c)\n    tl.store(out_ptr + 4 * i + 3, d)\n"
      "    tl.store(f_ptr + i, tl.rand(seed, offs))\n    tl.store(n_ptr + i, tl.randn(seed, offs))\n";
  Compiled c = compileSource(src, "k", "*u32, i64, *i32, *fp32, *fp32, 64");
  INFO(c.diags.str());
  REQUIRE(c.module);
  uint64_t seed = freshSeed();
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  for (int trial = 0; trial < 2; ++trial) {
    int64_t key = trial == 0 ? 0 : static_cast<int64_t>(rng());
    std::vector<int32_t> offs(64);
    for (int i = 0; i < 64; ++i)
      offs[i] = trial == 0 && i == 0 ? 0 : static_cast<int32_t>(rng());
    std::vector<uint32_t> out(256, 0);
    std::vector<float> f(64, NAN), normal(64, NAN);
    Interpreter interp;
    addBuffer(interp, offs, "offs");
    addBuffer(interp, out, "out");
    addBuffer(interp, f, "f");
    addBuffer(interp, normal, "n");
    run(interp, *c.module, "k",
        {ptr(out.data(), Type::i32()), KernelArg::i64(key), ptr(offs.data(), Type::i32()),
         ptr(f.data(), Type::f32()), ptr(normal.data(), Type::f32())},
        {1, 1, 1});
    if (trial == 0) {
      CHECK(out[0] == 0x6627e8d5u);
      CHECK(out[1] == 0xe169c58du);
      CHECK(out[2] == 0xbc57ac4cu);
      CHECK(out[3] == 0x9b00dbd8u);
    }
    for (int i = 0; i < 64; ++i) {
      auto ref = philox(static_cast<uint64_t>(key), static_cast<uint32_t>(offs[i]));
      for (int j = 0; j < 4; ++j)
        REQUIRE(out[4 * i + j] == ref[j]);
      REQUIRE(f[i] == uniform(ref[0]));
      REQUIRE(f[i] >= 0.0f);
      REQUIRE(f[i] < 1.0f);
      float u1 = std::max(1.0e-7f, uniform(ref[0])), u2 = uniform(ref[1]);
      double n = std::sqrt(-2.0 * std::log(double(u1))) * std::cos(6.283185307179586 * u2);
      REQUIRE(std::fabs(normal[i] - n) <= 1e-5 * (1 + std::fabs(n)));
    }
  }
}

TEST_CASE("e2e: low-memory dropout with tl.rand") {
  uint64_t seed = freshSeed();
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  Module m = compileSample("dropout.py", "_seeded_dropout", "*fp32, *fp32, i32, fp32, i32, 256");
  int n = 500 + static_cast<int>(rng() % 600);
  float p = 0.2f + 0.5f * static_cast<float>(rng() % 1000) / 1000.0f;
  int32_t dropSeed = static_cast<int32_t>(rng());
  auto x = randomFloats(rng, n);
  std::vector<float> out(n, NAN);
  Interpreter interp;
  addBuffer(interp, x, "x");
  addBuffer(interp, out, "out");
  run(interp, m, "_seeded_dropout",
      {ptr(x.data(), Type::f32()), ptr(out.data(), Type::f32()), KernelArg::i32(n), KernelArg::f32(p),
       KernelArg::i32(dropSeed)},
      {cdiv(n, 256), 1, 1});
  int kept = 0;
  for (int i = 0; i < n; ++i) {
    // The seed is sign-extended to 64 bits before it is split into the two keys.
    float r =
        uniform(philox(static_cast<uint64_t>(static_cast<int64_t>(dropSeed)), static_cast<uint32_t>(i))[0]);
    float expected = r > p ? x[i] / (1.0f - p) : 0.0f;
    REQUIRE(out[i] == expected);
    kept += r > p;
  }
  CHECK(std::fabs(kept / double(n) - (1 - p)) < 0.15);
}

TEST_CASE("e2e: fused attention forward, causal and not") {
  uint64_t seed = freshSeed();
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  const int Z = 1, H = 2, NCTX = 48, D = 16;
  for (int stage : {1, 3}) {
    CAPTURE(stage);
    Module m =
        compileSample("attention.py", "_attn_fwd",
                      "*fp16, *fp16, *fp16, fp32, *fp32, *fp16, i32, i32, i32, i32, i32, i32, i32, i32, i32, "
                      "i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, 16, 16, 16, " +
                          std::to_string(stage));
    size_t total = size_t(Z) * H * NCTX * D;
    auto q = randomHalves(rng, total), kk = randomHalves(rng, total), v = randomHalves(rng, total);
    std::vector<uint16_t> o(total, 0x7e00);
    std::vector<float> lse(size_t(Z) * H * NCTX, NAN);
    float smScale = 0.5f;
    Interpreter interp;
    addBuffer(interp, q, "q");
    addBuffer(interp, kk, "k");
    addBuffer(interp, v, "v");
    addBuffer(interp, o, "o");
    addBuffer(interp, lse, "M");
    int sz = H * NCTX * D, sh = NCTX * D, sm = D, sk = 1;
    std::vector<KernelArg> args = {ptr(q.data(), Type::f16()),   ptr(kk.data(), Type::f16()),
                                   ptr(v.data(), Type::f16()),   KernelArg::f32(smScale),
                                   ptr(lse.data(), Type::f32()), ptr(o.data(), Type::f16())};
    for (int t = 0; t < 4; ++t)
      for (int s : {sz, sh, sm, sk})
        args.push_back(KernelArg::i32(s));
    args.push_back(KernelArg::i32(Z));
    args.push_back(KernelArg::i32(H));
    args.push_back(KernelArg::i32(NCTX));
    run(interp, m, "_attn_fwd", args, {cdiv(NCTX, 16), uint32_t(Z * H), 1});
    for (int h = 0; h < Z * H; ++h)
      for (int i = 0; i < NCTX; ++i) {
        std::vector<double> s(NCTX);
        double mx = -INFINITY;
        for (int j = 0; j < NCTX; ++j) {
          double dotv = 0;
          for (int d = 0; d < D; ++d)
            dotv += double(f16ToFloat(q[h * sh + i * D + d])) * f16ToFloat(kk[h * sh + j * D + d]);
          s[j] = (stage == 3 && j > i) ? -INFINITY : dotv * smScale;
          mx = std::max(mx, s[j]);
        }
        double sum = 0;
        for (int j = 0; j < NCTX; ++j)
          sum += std::exp(s[j] - mx);
        REQUIRE(std::fabs(lse[h * NCTX + i] - (mx + std::log(sum)) / std::log(2.0)) <= 1e-3);
        for (int d = 0; d < D; ++d) {
          double ref = 0;
          for (int j = 0; j < NCTX; ++j)
            ref += std::exp(s[j] - mx) / sum * f16ToFloat(v[h * sh + j * D + d]);
          double got = f16ToFloat(o[h * sh + i * D + d]);
          INFO("head " << h << " row " << i << " dim " << d << ": " << got << " vs " << ref);
          REQUIRE(std::fabs(got - ref) <= 5e-3 + 5e-3 * std::fabs(ref));
        }
      }
  }
}

TEST_CASE("e2e: tl.reduce with custom combine functions") {
  uint64_t seed = freshSeed();
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  const int rows = 6, cols = 60 + static_cast<int>(rng() % 68);
  Module m = compileSample("reduce_custom.py", "row_absmax_kernel", "*fp32, *fp32, *i32, i32, i32, 128");
  auto x = randomFloats(rng, size_t(rows) * cols, -10, 10);
  std::vector<float> value(rows, NAN);
  std::vector<int32_t> index(rows, -1);
  Interpreter interp;
  addBuffer(interp, x, "x");
  addBuffer(interp, value, "value");
  addBuffer(interp, index, "index");
  run(interp, m, "row_absmax_kernel",
      {ptr(x.data(), Type::f32()), ptr(value.data(), Type::f32()), ptr(index.data(), Type::i32()),
       KernelArg::i32(cols), KernelArg::i32(cols)},
      {rows, 1, 1});
  for (int r = 0; r < rows; ++r) {
    int best = 0;
    for (int c = 1; c < cols; ++c)
      if (std::fabs(x[r * cols + c]) > std::fabs(x[r * cols + best]))
        best = c;
    CHECK(index[r] == best);
    CHECK(value[r] == x[r * cols + best]);
  }
  const int prows = 16, pcols = 20 + static_cast<int>(rng() % 30);
  Module p = compileSample("reduce_custom.py", "column_product_kernel", "*fp32, *fp32, i32, i32, 16, 16");
  auto y = randomFloats(rng, size_t(prows) * pcols, 0.5, 1.5);
  std::vector<float> prod(pcols, NAN);
  addBuffer(interp, y, "y");
  addBuffer(interp, prod, "prod");
  run(interp, p, "column_product_kernel",
      {ptr(y.data(), Type::f32()), ptr(prod.data(), Type::f32()), KernelArg::i32(prows),
       KernelArg::i32(pcols)},
      {cdiv(pcols, 16), 1, 1});
  for (int c = 0; c < pcols; ++c) {
    double ref = 1;
    for (int r = 0; r < prows; ++r)
      ref *= y[r * pcols + c];
    REQUIRE(std::fabs(prod[c] - ref) <= 1e-5 * std::fabs(ref));
  }
}

TEST_CASE("e2e: tl.associative_scan (running sum, linear recurrence)") {
  uint64_t seed = freshSeed();
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  int n = 600 + static_cast<int>(rng() % 400);
  Module m = compileSample("scan.py", "running_sum_kernel", "*fp32, *fp32, i32, 1024");
  auto x = randomFloats(rng, n);
  std::vector<float> out(n, NAN);
  Interpreter interp;
  addBuffer(interp, x, "x");
  addBuffer(interp, out, "out");
  run(interp, m, "running_sum_kernel",
      {ptr(x.data(), Type::f32()), ptr(out.data(), Type::f32()), KernelArg::i32(n)}, {1, 1, 1});
  double acc = 0;
  for (int i = 0; i < n; ++i) {
    acc += x[i];
    REQUIRE(std::fabs(out[i] - acc) <= 1e-4 * (1 + std::fabs(acc)));
  }
  const int rows = 4, cols = 30 + static_cast<int>(rng() % 34);
  Module r = compileSample("scan.py", "linear_recurrence_kernel", "*fp32, *fp32, *fp32, i32, 4, 64");
  auto a = randomFloats(rng, size_t(rows) * cols, 0, 1), b = randomFloats(rng, size_t(rows) * cols);
  std::vector<float> h(a.size(), NAN);
  addBuffer(interp, a, "a");
  addBuffer(interp, b, "b");
  addBuffer(interp, h, "h");
  run(interp, r, "linear_recurrence_kernel",
      {ptr(a.data(), Type::f32()), ptr(b.data(), Type::f32()), ptr(h.data(), Type::f32()),
       KernelArg::i32(cols)},
      {1, 1, 1});
  for (int row = 0; row < rows; ++row) {
    double state = 0;
    for (int t = 0; t < cols; ++t) {
      state = a[row * cols + t] * state + b[row * cols + t];
      REQUIRE(std::fabs(h[row * cols + t] - state) <= 1e-4 * (1 + std::fabs(state)));
    }
  }
}
