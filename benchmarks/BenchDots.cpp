#include "BenchDots.h"

#include "BenchSupport.h"

#include <algorithm>
#include <cstdlib>
#include <functional>
#include <random>

namespace trident::bench {

namespace {

enum class In { F16, BF16, F32 };

const char *inName(In t) { return t == In::F16 ? "f16" : t == In::BF16 ? "bf16" : "tf32"; }

// Random inputs in [-1, 1) as the device sees them, and their exact values.
Buffer randomMatrix(const Device &dev, In t, size_t n, uint32_t seed, std::vector<double> &values) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<float> dist(-1, 1);
  values.resize(n);
  if (t == In::F32) {
    std::vector<float> v(n);
    for (size_t i = 0; i < n; ++i)
      values[i] = v[i] = dist(gen);
    return Buffer::fromHost(dev, std::span<const float>(v));
  }
  std::vector<uint16_t> bits(n);
  for (size_t i = 0; i < n; ++i) {
    float f = dist(gen);
    bits[i] = t == In::F16 ? floatToHalf(f) : floatToBFloat16(f);
    values[i] = t == In::F16 ? halfToFloat(bits[i]) : bfloat16ToFloat(bits[i]);
  }
  return Buffer::fromHost(dev, std::span<const uint16_t>(bits), t == In::F16 ? DType::F16 : DType::BF16);
}

// A matmul's M, N and K, named "S^3" when they agree, else "MxNxK".
struct Shape {
  int M, N, K;
  std::string name() const {
    return M == N && N == K ? std::to_string(M) + "^3"
                            : std::to_string(M) + "x" + std::to_string(N) + "x" + std::to_string(K);
  }
};

// Which kernel file: samples/matmul.py (Triton's tutorial 03), or benchmarks/
// matmul_descriptor.py (the same tiling through tl.make_tensor_descriptor) or
// benchmarks/matmul_persistent.py (tutorial 09's persistent tile loop).
// DescriptorWs: matmul_descriptor.py with WARP_SPECIALIZE (a producer warpgroup, sm_90).
enum class Variant { Tutorial, Descriptor, DescriptorWs, Persistent };

const char *variantName(Variant v) {
  return v == Variant::Tutorial       ? "matmul"
         : v == Variant::Descriptor   ? "matmul descriptor"
         : v == Variant::DescriptorWs ? "matmul descriptor ws"
                                      : "matmul persistent";
}

// C (fp16) = A @ B, row-major, all three variants autotuned; `programs`: the persistent
// kernel's NUM_SMS (0: the device's multiprocessors).
DotRow matmul(const Device &dev, In t, Variant variant, Shape sh, bool leaky, int repeats,
              const std::string &dir, const std::string &benchDir, int programs = 0) {
  const int M = sh.M, N = sh.N, K = sh.K;
  std::vector<double> a, b;
  Buffer ba = randomMatrix(dev, t, size_t(M) * K, 1, a), bb = randomMatrix(dev, t, size_t(K) * N, 2, b);
  Buffer c(dev, size_t(M) * N, DType::F16);
  c.fillBytes(0xff);
  LaunchOptions opts;
  std::function<void()> launch;
  Kernel k;
  if (variant == Variant::Tutorial) {
    k = Kernel::fromFile(dir + "/matmul.py", "matmul_kernel");
    Grid grid(
        [=](const Meta &m) -> Dim3 { return {cdiv(M, m["BLOCK_SIZE_M"]) * cdiv(N, m["BLOCK_SIZE_N"])}; });
    opts.constexprs = {{"ACTIVATION", Constexpr::string(leaky ? "leaky_relu" : "")}};
    launch = [&, grid] { k.launch(dev, grid, {ba, bb, c, M, N, K, K, 1, N, 1, N, 1}, opts); };
  } else if (variant == Variant::Descriptor || variant == Variant::DescriptorWs) {
    k = Kernel::fromFile(benchDir + "/matmul_descriptor.py", "matmul_descriptor_kernel");
    if (variant == Variant::DescriptorWs)
      opts.constexprs = {{"WARP_SPECIALIZE", Constexpr(true)}};
    Grid grid([=](const Meta &m) -> Dim3 { return {cdiv(M, m["BLOCK_M"]) * cdiv(N, m["BLOCK_N"])}; });
    launch = [&, grid] { k.launch(dev, grid, {ba, bb, c, M, N, K}, opts); };
  } else {
    k = Kernel::fromFile(benchDir + "/matmul_persistent.py", "matmul_persistent_kernel");
    int sms = programs > 0 ? programs : int(std::max(1u, dev.info().multiprocessors));
    Grid grid([=](const Meta &m) -> Dim3 {
      return {std::min<int64_t>(sms, cdiv(M, m["BLOCK_M"]) * cdiv(N, m["BLOCK_N"]))};
    });
    opts.constexprs = {{"NUM_SMS", sms}};
    launch = [&, grid] { k.launch(dev, grid, {ba, bb, c, M, N, K, K, 1, N, 1, N, 1}, opts); };
  }
  DotRow r;
  r.kernel = std::string(variantName(variant)) + " " + inName(t) + (leaky ? " +leaky" : "");
  r.size = sh.name();
  r.coldMs = coldLaunchMs(dev, launch); // autotunes: every config compiled and timed
  std::vector<uint16_t> got = c.toHost<uint16_t>();
  // 256 sampled elements against float64 (inputs are exact; fp32 accumulation, one fp16
  // rounding; tf32 rounds the inputs to 10 mantissa bits).
  std::mt19937 pick(3);
  size_t bad = 0;
  double tol = t == In::F32 ? 2e-3 : 1e-3;
  for (int n = 0; n < 256; ++n) {
    int i = int(pick() % uint32_t(M)), j = int(pick() % uint32_t(N));
    double ref = 0;
    for (int q = 0; q < K; ++q)
      ref += a[size_t(i) * K + q] * b[size_t(q) * N + j];
    if (leaky && ref < 0)
      ref *= 0.01;
    double g = halfToFloat(got[size_t(i) * N + j]);
    bad += !(std::fabs(g - ref) <= tol * std::sqrt(double(K)) + 1e-3 * std::fabs(ref));
  }
  // Every element was written (C starts as NaN): the samples above may miss a tile.
  size_t unwritten = size_t(std::count(got.begin(), got.end(), uint16_t(0xffff)));
  r.check = bad         ? std::to_string(bad) + " of 256 sampled elements differ"
            : unwritten ? std::to_string(unwritten) + " elements not written"
                        : "ok";
  r.ms = timeOnDevice(dev, repeats, 1, launch).first;
  r.tflops = 2.0 * double(M) * N * K / (r.ms * 1e9);
  return r;
}

// The e4m3 code of a normal value with at most 4 significant bits (|v| in [2^-6, 448]).
uint8_t fp8e4m3Bits(double v) {
  if (v == 0)
    return 0;
  int e = 0;
  double m = std::frexp(std::fabs(v), &e); // |v| = m 2^e, m in [0.5, 1)
  auto mantissa = uint8_t(std::lround((m * 2 - 1) * 8));
  return uint8_t((v < 0 ? 0x80 : 0) | (e - 1 + 7) << 3 | mantissa);
}

// benchmarks/matmul_typed.py on int8 (exact int32 results; B row-major, or k-major as
// cuBLAS takes it), fp8 e4m3 (fp32 accumulation, B stored k-major as Triton's fp8
// tutorial and cuBLAS take it) or fp64 inputs, C of the
// accumulator's type; 256 sampled elements checked against exact or float64 sums.
enum class Wide { I8, F8E4M3, F64 };

DotRow matmulTyped(const Device &dev, Wide t, int s, int repeats, const std::string &benchDir,
                   bool kMajorInt8 = false) {
  size_t n = size_t(s) * s;
  std::mt19937 gen(9);
  std::vector<double> a(n), b(n); // exact values; b[k * s + j] is B[k][j] however it is stored
  bool kMajorB = t == Wide::F8E4M3 || kMajorInt8;
  auto fill = [&](std::vector<double> &values, bool transposed) -> Buffer {
    if (t == Wide::F64) {
      std::uniform_real_distribution<double> dist(-1, 1);
      for (double &v : values)
        v = dist(gen);
      return Buffer::fromHost(dev, std::span<const double>(values));
    }
    std::vector<uint8_t> bytes(n);
    std::uniform_int_distribution<int> dist(t == Wide::I8 ? -128 : -16, t == Wide::I8 ? 127 : 16);
    for (size_t i = 0; i < n; ++i) {
      int v = dist(gen); // fp8: i / 8 with |i| <= 16, exact in e4m3
      size_t at = transposed ? (i % s) * s + i / s : i;
      values[at] = t == Wide::I8 ? v : v / 8.0;
      bytes[i] = t == Wide::I8 ? uint8_t(int8_t(v)) : fp8e4m3Bits(v / 8.0);
    }
    return Buffer::fromHost(dev, std::span<const uint8_t>(bytes), t == Wide::I8 ? DType::I8 : DType::F8E4M3);
  };
  Buffer ba = fill(a, false), bb = fill(b, kMajorB);
  DType out = t == Wide::I8 ? DType::I32 : t == Wide::F64 ? DType::F64 : DType::F32;
  Buffer c(dev, n, out);
  c.fillBytes(0xff);
  Kernel k = Kernel::fromFile(benchDir + "/matmul_typed.py", "matmul_typed_kernel");
  Grid grid([s](const Meta &m) -> Dim3 { return {cdiv(s, m["BLOCK_M"]) * cdiv(s, m["BLOCK_N"])}; });
  // B's strides: (k, n) = (s, 1) row-major, (1, s) k-major.
  auto launch = [&] {
    if (kMajorB)
      k.launch(dev, grid, {ba, bb, c, s, s, s, s, 1, 1, s, s, 1});
    else
      k.launch(dev, grid, {ba, bb, c, s, s, s, s, 1, s, 1, s, 1});
  };
  DotRow r;
  r.kernel = t == Wide::I8 ? (kMajorInt8 ? "matmul int8 kmajor" : "matmul int8")
             : t == Wide::F64 ? "matmul f64"
                              : "matmul fp8e4m3";
  r.size = std::to_string(s) + "^3";
  r.coldMs = coldLaunchMs(dev, launch);
  std::vector<double> got;
  if (t == Wide::I8) {
    std::vector<int32_t> v = c.toHost<int32_t>();
    got.assign(v.begin(), v.end());
  } else if (t == Wide::F64) {
    got = c.toHost<double>();
  } else {
    std::vector<float> v = c.toHost<float>();
    got.assign(v.begin(), v.end());
  }
  std::mt19937 pick(5);
  size_t bad = 0;
  for (int q = 0; q < 256; ++q) {
    int i = int(pick() % uint32_t(s)), j = int(pick() % uint32_t(s));
    double ref = 0;
    for (int x = 0; x < s; ++x)
      ref += a[size_t(i) * s + x] * b[size_t(x) * s + j];
    double g = got[size_t(i) * s + j];
    // int8: exact; fp8: exact products, fp32 sums; f64: f64 sums.
    double tol = t == Wide::I8 ? 0 : t == Wide::F64 ? 1e-12 * s : 1e-6 * s;
    bad += !(std::fabs(g - ref) <= tol * (1 + std::fabs(ref)));
  }
  r.check = bad ? std::to_string(bad) + " of 256 sampled elements differ" : "ok";
  r.ms = timeOnDevice(dev, repeats, 1, launch).first;
  r.tflops = 2.0 * double(s) * s * s / (r.ms * 1e9);
  return r;
}



} // namespace

Buffer randomHalfMatrix(const Device &dev, size_t n, uint32_t seed, std::vector<double> &values) {
  return randomMatrix(dev, In::F16, n, seed, values);
}

Buffer randomBFloat16Matrix(const Device &dev, size_t n, uint32_t seed, std::vector<double> &values) {
  return randomMatrix(dev, In::BF16, n, seed, values);
}

DotRow attention(const Device &dev, int Z, int H, int N, int D, bool causal, int warps, int repeats,
                 const std::string &dir, const std::string &benchDir) {
  size_t count = size_t(Z) * H * N * D;
  std::vector<double> q, kv, v;
  Buffer bq = randomMatrix(dev, In::F16, count, 4, q), bk = randomMatrix(dev, In::F16, count, 5, kv),
         bv = randomMatrix(dev, In::F16, count, 6, v);
  Buffer out(dev, count, DType::F16), m(dev, size_t(Z) * H * N, DType::F32);
  out.fillBytes(0xff);
  // benchDir set: benchmarks/attention_descriptor.py, the same loop through host tensor
  // descriptors over the (Z * H * N) x D view of each tensor.
  bool descriptors = !benchDir.empty();
  Kernel k = descriptors ? Kernel::fromFile(benchDir + "/attention_descriptor.py", "_attn_fwd_desc")
                         : Kernel::fromFile(dir + "/attention.py", "_attn_fwd");
  const int BLOCK_M = 128, BLOCK_N = 64, sz = H * N * D, sh = N * D, sm = D, sk = 1;
  const int64_t rows = int64_t(Z) * H * N;
  TensorDescriptor dq(bq, {rows, D}, {D, 1}, {BLOCK_M, D}), dk(bk, {rows, D}, {D, 1}, {BLOCK_N, D}),
      dv(bv, {rows, D}, {D, 1}, {BLOCK_N, D}), dout(out, {rows, D}, {D, 1}, {BLOCK_M, D});
  const float smScale = 0.5f;
  LaunchOptions opts; // the tutorial's launch: 4 warps (also 8 at HEAD_DIM 128), 3 stages
  opts.numWarps = warps;
  opts.numStages = 3;
  if (const char *stages = std::getenv("TRIDENT_BENCH_ATTENTION_STAGES")) // for sweeps (trident-bench-dot)
    opts.numStages = std::atoi(stages);
  opts.constexprs = {{"N_CTX", N}, {"HEAD_DIM", D}, {"BLOCK_M", BLOCK_M}, {"BLOCK_N", BLOCK_N},
                     {"STAGE", causal ? 3 : 1}};
  auto launch = [&] {
    if (descriptors)
      k.launch(dev, Grid(cdiv(N, BLOCK_M), Z * H), {smScale, m, Z, H, dq, dk, dv, dout}, opts);
    else
      k.launch(dev, Grid(cdiv(N, BLOCK_M), Z * H),
               {bq, bk, bv, smScale, m, out, sz, sh, sm, sk, sz, sh, sm, sk, sz, sh, sm, sk, sz, sh, sm, sk, Z, H},
               opts);
  };
  DotRow r;
  r.kernel = std::string("attention") + (descriptors ? " descriptor" : "") + (causal ? " causal" : "") +
             (warps != 4 ? " w" + std::to_string(warps) : "");
  r.size = std::to_string(Z) + "x" + std::to_string(H) + "x" + std::to_string(N) + "x" + std::to_string(D);
  r.coldMs = coldLaunchMs(dev, launch);
  std::vector<uint16_t> got = out.toHost<uint16_t>();
  // 8 sampled rows against float64 softmax(q k^T * scale) v.
  std::mt19937 pick(7);
  size_t bad = 0;
  std::vector<double> p(size_t(N), 0.0);
  for (int n = 0; n < 8; ++n) {
    int zh = int(pick() % uint32_t(Z * H)), i = int(pick() % uint32_t(N));
    size_t base = size_t(zh) * N * D;
    double mx = -INFINITY, sum = 0;
    for (int j = 0; j < N; ++j) {
      double s = 0;
      for (int d = 0; d < D; ++d)
        s += q[base + size_t(i) * D + d] * kv[base + size_t(j) * D + d];
      p[size_t(j)] = (causal && j > i) ? -INFINITY : s * smScale;
      mx = std::max(mx, p[size_t(j)]);
    }
    for (int j = 0; j < N; ++j)
      sum += p[size_t(j)] = std::exp(p[size_t(j)] - mx);
    for (int d = 0; d < D; ++d) {
      double ref = 0;
      for (int j = 0; j < N; ++j)
        ref += p[size_t(j)] * v[base + size_t(j) * D + d];
      ref /= sum;
      double g = halfToFloat(got[base + size_t(i) * D + d]);
      bad += !(std::fabs(g - ref) <= 1e-2);
    }
  }
  r.check = bad ? std::to_string(bad) + " of " + std::to_string(8 * D) + " sampled elements differ" : "ok";
  r.ms = timeOnDevice(dev, repeats, 1, launch).first;
  double flops = 4.0 * Z * H * double(N) * N * D; // two matmuls, as Triton's tutorial counts
  r.tflops = (causal ? 0.5 : 1.0) * flops / (r.ms * 1e9);
  return r;
}

std::vector<DotRow> benchDots(const Device &dev, bool small, int repeats, const std::string &dir,
                              const std::string &benchDir, const std::string &only,
                              const std::function<void(const DotRow &)> &done) {
  std::vector<DotRow> rows;
  // Rows run in this order unless `only` leaves them out; one that fails (a kernel a
  // device cannot compile) says why, and the others still run.
  auto row = [&](const std::string &kernel, const std::string &size, auto &&measure) {
    if (!rowSelected(only, kernel + " " + size))
      return;
    try {
      rows.push_back(measure());
    } catch (const std::exception &e) {
      std::string why = e.what();
      // The first line, and the first diagnostic after it when there is one.
      std::string first = why.substr(0, why.find('\n'));
      size_t diag = why.find("error:", first.size());
      if (diag != std::string::npos)
        first += " | " + why.substr(diag, why.find('\n', diag) - diag);
      rows.push_back({kernel, size, 0, 0, 0, "error: " + first});
    }
    if (done)
      done(rows.back());
  };
  const int s = small ? 256 : 4096, big = small ? 256 : 8192;
  const Shape cube{s, s, s}, bigCube{big, big, big};
  auto mm = [&](In t, Variant v, Shape sh, bool leaky = false, int programs = 0) {
    std::string name = std::string(variantName(v)) + " " + inName(t) + (leaky ? " +leaky" : "");
    row(name, sh.name(), [&] { return matmul(dev, t, v, sh, leaky, repeats, dir, benchDir, programs); });
  };
  mm(In::F16, Variant::Tutorial, cube);
  mm(In::F16, Variant::Tutorial, cube, true);
  if (!small)
    mm(In::F16, Variant::Tutorial, bigCube);
  // The tutorial's tiling through device-side tensor descriptors, and tutorial 09's
  // persistent tile loop; --small adds a shape that no block size divides (boxes and
  // rows past the edges) and runs the persistent kernel on 3 programs (several tiles each).
  for (Variant v : {Variant::Descriptor, Variant::DescriptorWs, Variant::Persistent}) {
    mm(In::F16, v, cube, false, small ? 3 : 0);
    if (small)
      mm(In::F16, v, Shape{200, 136, 72}, false, 3);
    else
      mm(In::F16, v, bigCube);
  }
  mm(In::BF16, Variant::Tutorial, cube);
  if (!small)
    mm(In::BF16, Variant::Tutorial, bigCube);
  mm(In::F32, Variant::Tutorial, cube);
  // Small and skinny: 512^3, and decode-style M=16 against 4096 and 8192 square weights.
  mm(In::F16, Variant::Tutorial, small ? Shape{128, 128, 128} : Shape{512, 512, 512});
  for (int w : small ? std::vector<int>{256} : std::vector<int>{4096, 8192})
    mm(In::F16, Variant::Tutorial, Shape{16, w, w});
  auto typed = [&](Wide t, int size, bool kMajorInt8 = false) {
    std::string name = t == Wide::I8    ? (kMajorInt8 ? "matmul int8 kmajor" : "matmul int8")
                       : t == Wide::F64 ? "matmul f64"
                                        : "matmul fp8e4m3";
    row(name, std::to_string(size) + "^3",
        [&] { return matmulTyped(dev, t, size, repeats, benchDir, kMajorInt8); });
  };
  typed(Wide::I8, s);
  typed(Wide::I8, s, true);
  typed(Wide::F8E4M3, s);
  if (!small)
    typed(Wide::F8E4M3, big);
  typed(Wide::F64, s);
  // Attention forward: Triton's tutorial sizes (Z=4, H=32, N=4096), and N=16384 on one
  // batch (the same number of key tiles per program times four).
  auto dims = [](int Z, int H, int N, int D) {
    return std::to_string(Z) + "x" + std::to_string(H) + "x" + std::to_string(N) + "x" + std::to_string(D);
  };
  auto attn = [&](int Z, int H, int N, int D, bool causal, int warps, bool descriptors = false) {
    std::string name = std::string("attention") + (descriptors ? " descriptor" : "") + (causal ? " causal" : "") +
                       (warps != 4 ? " w" + std::to_string(warps) : "");
    row(name, dims(Z, H, N, D), [&] {
      return attention(dev, Z, H, N, D, causal, warps, repeats, dir, descriptors ? benchDir : std::string());
    });
  };
  for (int N : small ? std::vector<int>{256} : std::vector<int>{4096, 16384})
    for (auto [D, warps] : {std::pair{64, 4}, std::pair{128, 4}, std::pair{128, 8}})
      for (bool causal : {false, true})
        attn(small ? 1 : N == 4096 ? 4 : 1, small ? 2 : 32, N, D, causal, warps);
  // The same loop through host tensor descriptors (TMA on sm_90), at the tutorial's size.
  for (int D : {64, 128})
    for (bool causal : {false, true})
      attn(small ? 1 : 4, small ? 2 : 32, small ? 256 : 4096, D, causal, 4, true);
  for (int D : {64, 128})
    for (bool causal : {false, true}) {
      int Z = small ? 1 : 4, H = small ? 2 : 32, N = small ? 256 : 4096;
      row(std::string("attention bwd") + (causal ? " causal" : ""), dims(Z, H, N, D),
          [&] { return attentionBackward(dev, Z, H, N, D, causal, repeats, dir); });
    }
  return rows;
}

// `only`: comma-separated parts of "kernel size" names, any of which selects a row
// (empty: every row).
bool rowSelected(const std::string &only, const std::string &name) {
  if (only.empty())
    return true;
  for (size_t at = 0; at <= only.size();) {
    size_t end = std::min(only.find(',', at), only.size());
    if (end > at && name.find(only.substr(at, end - at)) != std::string::npos)
      return true;
    at = end + 1;
  }
  return false;
}

} // namespace trident::bench
