#pragma once
// The sample kernels (samples/*.py) with launch parameters and random inputs, and
// the element comparisons, shared by the tests that run them against the reference
// interpreter (on cuda:0, and in the thread-IR simulator).

#include "trident/frontend/Frontend.h"
#include "trident/interp/Interpreter.h"
#include "trident/ir/Verifier.h"

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

namespace trident::test {

inline uint16_t toHalf(float f) {
  uint32_t x = std::bit_cast<uint32_t>(f);
  uint32_t sign = (x >> 16) & 0x8000u;
  int exp = int((x >> 23) & 0xff) - 127 + 15;
  uint32_t mant = x & 0x7fffffu;
  if (exp <= 0) { // subnormal or zero (inputs here are never tiny; round toward zero)
    if (exp < -10)
      return uint16_t(sign);
    mant |= 0x800000u;
    return uint16_t(sign | (mant >> (14 - exp)));
  }
  if (exp >= 31)
    return uint16_t(sign | 0x7c00u);
  uint32_t h = sign | (uint32_t(exp) << 10) | (mant >> 13);
  uint32_t rest = mant & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (h & 1)))
    ++h; // round to nearest even
  return uint16_t(h);
}

inline float fromHalf(uint16_t h) {
  uint32_t sign = uint32_t(h & 0x8000u) << 16, exp = (h >> 10) & 0x1f, mant = h & 0x3ffu;
  if (exp == 0)
    return std::bit_cast<float>(sign) + (sign ? -1.f : 1.f) * std::ldexp(float(mant), -24);
  if (exp == 31)
    return std::bit_cast<float>(sign | 0x7f800000u | (mant << 13));
  return std::bit_cast<float>(sign | ((exp + 112) << 23) | (mant << 13));
}

// bf16: the high half of an f32, rounded to nearest even (inputs here are finite).
inline uint16_t toBF16(float f) {
  uint32_t x = std::bit_cast<uint32_t>(f);
  return uint16_t((x + 0x7fffu + ((x >> 16) & 1)) >> 16);
}

inline float fromBF16(uint16_t h) { return std::bit_cast<float>(uint32_t(h) << 16); }

enum class Elem { F32, F16, I32, BF16 };

// One runtime parameter of a kernel: a buffer (random in [lo, hi], or filled) or a scalar.
struct Param {
  enum Kind { Buffer, I32, F32 } kind;
  Elem elem = Elem::F32;
  size_t count = 0;
  double lo = -1, hi = 1;
  bool fill = false; // buffers: every element is `lo`
  int32_t i = 0;
  float f = 0;
  static Param buffer(Elem e, size_t n, double lo = -1, double hi = 1) { return {Buffer, e, n, lo, hi}; }
  static Param filled(Elem e, size_t n, double v) { return {Buffer, e, n, v, v, true}; }
  static Param i32(int32_t v) { return {I32, Elem::I32, 0, 0, 0, false, v}; }
  static Param f32(float v) { return {F32, Elem::F32, 0, 0, 0, false, 0, v}; }
};

struct Case {
  const char *file, *kernel, *signature;
  std::array<uint32_t, 3> grid;
  std::vector<Param> params;
  double atol = 1e-5, rtol = 1e-4;
};

inline size_t bytesOf(Elem e) { return e == Elem::F16 || e == Elem::BF16 ? 2 : 4; }

inline std::vector<uint8_t> makeBuffer(const Param &p, std::mt19937 &gen) {
  std::vector<uint8_t> bytes(p.count * bytesOf(p.elem));
  std::uniform_real_distribution<double> dist(p.lo, p.hi);
  for (size_t i = 0; i < p.count; ++i) {
    double v = p.fill ? p.lo : dist(gen);
    if (p.elem == Elem::F32) {
      float f = float(v);
      std::memcpy(&bytes[i * 4], &f, 4);
    } else if (p.elem == Elem::F16 || p.elem == Elem::BF16) {
      uint16_t h = p.elem == Elem::F16 ? toHalf(float(v)) : toBF16(float(v));
      std::memcpy(&bytes[i * 2], &h, 2);
    } else {
      int32_t x = int32_t(std::lround(v));
      std::memcpy(&bytes[i * 4], &x, 4);
    }
  }
  return bytes;
}

inline double elementAt(const std::vector<uint8_t> &b, Elem e, size_t i) {
  if (e == Elem::F32) {
    float f;
    std::memcpy(&f, &b[i * 4], 4);
    return f;
  }
  if (e == Elem::F16 || e == Elem::BF16) {
    uint16_t h;
    std::memcpy(&h, &b[i * 2], 2);
    return e == Elem::F16 ? fromHalf(h) : fromBF16(h);
  }
  int32_t x;
  std::memcpy(&x, &b[i * 4], 4);
  return x;
}

inline std::string readFile(const std::filesystem::path &p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// samples/attention.py on Z x H heads of ctx x D, BLOCK_M x BLOCK_N tiles, STAGE 3
// (causal) or 1 (every key), N_CTX given at run time.
inline Case attentionCase(int Z, int H, int ctx, int D, int blockM, int blockN, int stage) {
  using P = Param;
  size_t qkv = size_t(Z) * H * ctx * D;
  static std::deque<std::string> signatures; // Case holds C strings (a deque keeps them in place)
  std::string signature = "*fp16:16, *fp16:16, *fp16:16, fp32, *fp32:16, *fp16:16, i32:16, i32:16, i32:16, 1, "
                          "i32:16, i32:16, i32:16, 1, i32:16, i32:16, i32:16, 1, i32:16, i32:16, i32:16, 1, i32, "
                          "i32, i32:16";
  for (int v : {D, blockM, blockN, stage})
    signature += ", " + std::to_string(v);
  signatures.push_back(std::move(signature));
  std::vector<Param> params{P::buffer(Elem::F16, qkv), P::buffer(Elem::F16, qkv), P::buffer(Elem::F16, qkv),
                            P::f32(0.125f), P::filled(Elem::F32, size_t(Z) * H * ctx, -7),
                            P::filled(Elem::F16, qkv, -7)};
  for (int t = 0; t < 4; ++t)
    for (int stride : {H * ctx * D, ctx * D, D})
      params.push_back(P::i32(stride));
  for (int v : {Z, H, ctx})
    params.push_back(P::i32(v));
  return {"attention.py", "_attn_fwd", signatures.back().c_str(), {uint32_t(ctx / blockM), uint32_t(Z * H), 1},
          std::move(params), 4e-3, 1e-2};
}

inline std::vector<Case> cases() {
  using P = Param;
  const int n = 98304 + 16 * 5;
  const int rows = 300, cols = 1000, stride = 1024;
  const int lnM = 64, lnN = 2048;
  const int mm = 256;
  const int Z = 1, H = 1, ctx = 128, D = 32; // the attention backward's kernels (small: the simulator is slow under ASan)
  const size_t qkv = size_t(Z) * H * ctx * D;
  return {
      {"vector_add.py",
       "add_kernel",
       "*fp32:16, *fp32:16, *fp32:16, i32:16, 1024",
       {(n + 1023) / 1024, 1, 1},
       {P::buffer(Elem::F32, n), P::buffer(Elem::F32, n), P::filled(Elem::F32, n, -7), P::i32(n)}},
      {"fused_softmax.py",
       "softmax_kernel",
       "*fp32:16, *fp32:16, i32:16, i32:16, i32, i32, 1024, 2",
       {64, 1, 1},
       {P::filled(Elem::F32, rows * stride, -7), P::buffer(Elem::F32, rows * stride, -6, 6), P::i32(stride),
        P::i32(stride), P::i32(rows), P::i32(cols)},
       1e-6,
       1e-4},
      {"layer_norm.py",
       "_layer_norm_fwd_fused",
       "*fp16:16, *fp16:16, *fp16:16, *fp16:16, *fp32:16, *fp32:16, i32:16, i32:16, fp32, 1024",
       {lnM, 1, 1},
       {P::buffer(Elem::F16, lnM * lnN, -2, 2), P::filled(Elem::F16, lnM * lnN, -7),
        P::buffer(Elem::F16, lnN, 0, 1), P::buffer(Elem::F16, lnN, 0, 1), P::filled(Elem::F32, lnM, -7),
        P::filled(Elem::F32, lnM, -7), P::i32(lnN), P::i32(lnN), P::f32(1e-5f)},
       2e-3,
       4e-3},
      // The backward's dx and its GROUP_SIZE_M = 4 partial dw/db rows, each behind a spin lock
      // (released after tl.debug_barrier); programs contend for the locks on a GPU only.
      {"layer_norm.py",
       "_layer_norm_bwd_dx_fused",
       "*fp32:16, *fp32:16, *fp32:16, *fp32:16, *fp32:16, *fp32:16, *fp32:16, *fp32:16, *i32:16, i32, i32, "
       "4, 128",
       {24, 1, 1},
       {P::filled(Elem::F32, 24 * 100, -7), P::buffer(Elem::F32, 24 * 100, -0.1, 0.1),
        P::filled(Elem::F32, 4 * 100, -7), P::filled(Elem::F32, 4 * 100, -7),
        P::buffer(Elem::F32, 24 * 100, -2, 2), P::buffer(Elem::F32, 100, 0, 1),
        P::buffer(Elem::F32, 24, -0.1, 0.1), P::buffer(Elem::F32, 24, 0.5, 1.5),
        P::filled(Elem::I32, 2 * 4, 0), P::i32(100), P::i32(100)},
       1e-5,
       1e-4},
      {"matmul.py",
       "matmul_kernel",
       "*fp16:16, *fp16:16, *fp16:16, i32:16, i32:16, i32:16, i32:16, 1, i32:16, 1, i32:16, 1, 64, 64, 32, "
       "8, ''",
       {(mm / 64) * (mm / 64), 1, 1},
       {P::buffer(Elem::F16, mm * mm), P::buffer(Elem::F16, mm * mm), P::filled(Elem::F16, mm * mm, -7),
        P::i32(mm), P::i32(mm), P::i32(mm), P::i32(mm), P::i32(mm), P::i32(mm)},
       2e-2,
       1e-2},
      {"dropout.py",
       "_seeded_dropout",
       "*fp32:16, *fp32:16, i32:16, fp32, i32, 1024",
       {(n + 1023) / 1024, 1, 1},
       {P::buffer(Elem::F32, n), P::filled(Elem::F32, n, -7), P::i32(n), P::f32(0.4f), P::i32(1234)}},
      {"reduce_custom.py",
       "row_absmax_kernel",
       "*fp32:16, *fp32:16, *i32:16, i32, i32:16, 1024",
       {rows, 1, 1},
       {P::buffer(Elem::F32, rows * stride), P::filled(Elem::F32, rows, -7), P::filled(Elem::I32, rows, -7),
        P::i32(cols), P::i32(stride)}},
      {"reduce_custom.py",
       "column_product_kernel",
       "*fp32:16, *fp32:16, i32, i32, 16, 64",
       {16, 1, 1},
       {P::buffer(Elem::F32, 13 * 1000, 0.5, 1.5), P::filled(Elem::F32, 1000, -7), P::i32(13), P::i32(1000)},
       1e-6,
       1e-4},
      {"scan.py",
       "running_sum_kernel",
       "*fp32:16, *fp32:16, i32, 1024",
       {1, 1, 1},
       {P::buffer(Elem::F32, 1024), P::filled(Elem::F32, 1024, -7), P::i32(1000)},
       1e-4,
       1e-4},
      {"scan.py",
       "linear_recurrence_kernel",
       "*fp32:16, *fp32:16, *fp32:16, i32, 8, 128",
       {1, 1, 1},
       {P::buffer(Elem::F32, 8 * 100, 0.5, 1), P::buffer(Elem::F32, 8 * 100),
        P::filled(Elem::F32, 8 * 100, -7), P::i32(100)},
       1e-4,
       1e-3},
      attentionCase(1, 2, 128, 64, 64, 32, 3),
      // The backward's kernels on random M (log2-sum-exp) and Delta, both masks.
      {"attention_bwd.py",
       "_attn_bwd_preprocess",
       "*fp16:16, *fp16:16, *fp32:16, i32:16, 32, 128",
       {ctx / 128, Z * H, 1},
       {P::buffer(Elem::F16, qkv), P::buffer(Elem::F16, qkv), P::filled(Elem::F32, size_t(Z) * H * ctx, -7),
        P::i32(ctx)},
       1e-4,
       1e-4},
      {"attention_bwd.py",
       "_attn_bwd_dkdv",
       "*fp16:16, *fp16:16, *fp16:16, *fp16:16, *fp32:16, *fp32:16, *fp16:16, *fp16:16, fp32, i32:16, 32, 32, 128, 1",
       {ctx / 128, Z * H, 1},
       {P::buffer(Elem::F16, qkv), P::buffer(Elem::F16, qkv), P::buffer(Elem::F16, qkv), P::buffer(Elem::F16, qkv),
        P::buffer(Elem::F32, size_t(Z) * H * ctx, 2, 4), P::buffer(Elem::F32, size_t(Z) * H * ctx),
        P::filled(Elem::F16, qkv, -7), P::filled(Elem::F16, qkv, -7), P::f32(0.125f), P::i32(ctx)},
       2e-2,
       1e-2},
      {"attention_bwd.py",
       "_attn_bwd_dq",
       "*fp16:16, *fp16:16, *fp16:16, *fp16:16, *fp32:16, *fp32:16, *fp16:16, fp32, i32:16, 32, 128, 32, 0",
       {ctx / 128, Z * H, 1},
       {P::buffer(Elem::F16, qkv), P::buffer(Elem::F16, qkv), P::buffer(Elem::F16, qkv), P::buffer(Elem::F16, qkv),
        P::buffer(Elem::F32, size_t(Z) * H * ctx, 2, 4), P::buffer(Elem::F32, size_t(Z) * H * ctx),
        P::filled(Elem::F16, qkv, -7), P::f32(0.125f), P::i32(ctx)},
       2e-2,
       1e-2},
  };
}

// The verified block IR of `kernel` in `source` (named `file` in diagnostics) for a
// signature string (nullopt with diagnostics).
inline std::optional<Module> compileSource(const std::string &source, const std::string &file,
                                           const std::string &kernel, const std::string &signature,
                                           Diagnostics &diags) {
  auto sig = parseSignature(signature, diags);
  if (!sig)
    return std::nullopt;
  CompileRequest request;
  request.kernel = kernel;
  request.args = *sig;
  std::optional<Module> m = compileKernel(source, file, request, diags);
  if (!m || !verify(*m, diags))
    return std::nullopt;
  return m;
}

// The block IR of a case's kernel (nullopt with diagnostics).
inline std::optional<Module> compileSample(const Case &c, const std::string &samplesDir, Diagnostics &diags) {
  return compileSource(readFile(std::filesystem::path(samplesDir) / c.file), c.file, c.kernel, c.signature, diags);
}

// The case's buffers (empty vectors for scalar parameters), random from a fixed seed.
inline std::vector<std::vector<uint8_t>> sampleInputs(const Case &c) {
  std::mt19937 gen(2024);
  std::vector<std::vector<uint8_t>> inputs;
  for (const Param &p : c.params)
    inputs.push_back(p.kind == Param::Buffer ? makeBuffer(p, gen) : std::vector<uint8_t>());
  return inputs;
}

// Runs the interpreter on `buffers` (updated in place); false with diagnostics.
inline bool runInterpreter(const Module &m, const Case &c, std::vector<std::vector<uint8_t>> &buffers,
                           Diagnostics &diags) {
  Interpreter interp;
  std::vector<KernelArg> args;
  for (size_t i = 0; i < c.params.size(); ++i) {
    const Param &p = c.params[i];
    if (p.kind == Param::Buffer) {
      interp.addBuffer(buffers[i].data(), buffers[i].size());
      Type pointee = p.elem == Elem::F16    ? Type::f16()
                     : p.elem == Elem::BF16 ? Type::bf16()
                     : p.elem == Elem::I32  ? Type::i32()
                                            : Type::f32();
      args.push_back(KernelArg::pointer(buffers[i].data(), pointee));
    } else {
      args.push_back(p.kind == Param::I32 ? KernelArg::i32(p.i) : KernelArg::f32(p.f));
    }
  }
  return interp.run(m, c.kernel, args, c.grid, diags);
}

// How many elements of buffer parameter `i` differ beyond the case's tolerance; `first`
// receives the first such element.
inline size_t countDifferences(const Case &c, size_t i, const std::vector<uint8_t> &want,
                               const std::vector<uint8_t> &have, size_t &first) {
  const Param &p = c.params[i];
  size_t bad = 0;
  first = SIZE_MAX;
  for (size_t e = 0; e < p.count; ++e) {
    double w = elementAt(want, p.elem, e), h = elementAt(have, p.elem, e);
    bool same = (std::isnan(w) && std::isnan(h)) || std::abs(w - h) <= c.atol + c.rtol * std::abs(w);
    if (!same && bad++ == 0)
      first = e;
  }
  return bad;
}

} // namespace trident::test
