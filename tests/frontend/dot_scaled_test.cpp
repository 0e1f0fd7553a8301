// tl.dot_scaled (PreludeStandard.cpp): microscaled operands (fp4 packed two to a
// byte, fp8 as bytes, bf16, fp16) with e8m0 scales per 32 elements along K, run in
// the interpreter against a float64 reference that decodes the formats here.
#include "FrontendTestUtil.h"

#include "trident/interp/Interpreter.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <fstream>
#include <random>
#include <sstream>
#include <vector>

using namespace trident;
using namespace trident::test;

namespace {

const int M = 16, N = 16, K = 64;

std::string kernelSource() {
  std::ifstream in(std::string(TRIDENT_SAMPLES_DIR) + "/../tests/frontend/data/dot_scaled.py");
  REQUIRE(in);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

double e2m1(unsigned n) {
  unsigned e = (n >> 1) & 3, m = n & 1;
  double v = e == 0 ? m * 0.5 : (1 + m * 0.5) * std::ldexp(1.0, int(e) - 1);
  return (n & 8) ? -v : v;
}

double fp8(unsigned b, bool e4m3) {
  int ebits = e4m3 ? 4 : 5, mbits = e4m3 ? 3 : 2, bias = e4m3 ? 7 : 15;
  unsigned e = (b >> mbits) & ((1u << ebits) - 1), m = b & ((1u << mbits) - 1);
  double frac = double(m) / (1 << mbits);
  double v = e == 0 ? frac * std::ldexp(1.0, 1 - bias) : (1 + frac) * std::ldexp(1.0, int(e) - bias);
  return (b & 0x80) ? -v : v;
}

double half(uint16_t h) {
  unsigned e = (h >> 10) & 31, m = h & 1023;
  double v = e == 0 ? m / 1024.0 * std::ldexp(1.0, -14) : (1 + m / 1024.0) * std::ldexp(1.0, int(e) - 15);
  return (h & 0x8000) ? -v : v;
}

struct Operand {
  std::vector<uint8_t> bytes; // the buffer the kernel loads
  std::vector<double> values; // decoded, row-major in the operand's logical shape
};

// rows x cols logical values (K along cols for the lhs, along rows for the rhs).
Operand makeOperand(const std::string &fmt, int rows, int cols, bool kAlongCols, std::mt19937 &rng) {
  Operand o;
  o.values.resize(size_t(rows) * cols);
  if (fmt == "e2m1") {
    int pr = kAlongCols ? rows : rows / 2, pc = kAlongCols ? cols / 2 : cols;
    o.bytes.resize(size_t(pr) * pc);
    for (int i = 0; i < pr; ++i)
      for (int j = 0; j < pc; ++j) {
        uint8_t b = uint8_t(rng());
        o.bytes[i * pc + j] = b;
        int r0 = kAlongCols ? i : 2 * i, c0 = kAlongCols ? 2 * j : j;
        o.values[r0 * cols + c0] = e2m1(b & 15); // the first element in the low bits
        o.values[(kAlongCols ? r0 : r0 + 1) * cols + (kAlongCols ? c0 + 1 : c0)] = e2m1(b >> 4);
      }
  } else if (fmt == "e4m3" || fmt == "e5m2") {
    o.bytes.resize(o.values.size());
    for (size_t i = 0; i < o.values.size(); ++i) {
      uint8_t b;
      do
        b = uint8_t(rng());
      while (fmt == "e4m3" ? (b & 0x7F) == 0x7F || (b & 0x78) > 0x50
                           : (b & 0x7C) >= 0x54); // no NaN, moderate range
      o.bytes[i] = b;
      o.values[i] = fp8(b, fmt == "e4m3");
    }
  } else {
    o.bytes.resize(o.values.size() * 2);
    for (size_t i = 0; i < o.values.size(); ++i) {
      float f = float(int(rng() % 257) - 128) / 32;
      uint32_t bits;
      std::memcpy(&bits, &f, 4);
      uint16_t h = fmt == "bf16" ? uint16_t(bits >> 16) : 0;
      if (fmt == "fp16") { // small multiples of 1/32 are exact in fp16
        int q = int(f * 32);
        double mag = std::fabs(double(q)) / 32;
        h = q == 0 ? 0
                   : uint16_t((q < 0 ? 0x8000 : 0) | ((std::ilogb(mag) + 15) << 10) |
                              unsigned((mag / std::ldexp(1.0, std::ilogb(mag)) - 1) * 1024));
      }
      std::memcpy(&o.bytes[2 * i], &h, 2);
      o.values[i] = fmt == "bf16" ? double(f) : half(h);
    }
  }
  return o;
}

void check(const std::string &af, const std::string &bf, bool aScaled, bool bScaled) {
  CAPTURE(af);
  CAPTURE(bf);
  uint32_t seed = testSeed();
  CAPTURE(seed);
  std::mt19937 rng(seed);
  Operand a = makeOperand(af, M, K, true, rng), b = makeOperand(bf, K, N, false, rng);
  std::vector<uint8_t> sa(M * K / 32), sb(N * K / 32);
  for (uint8_t &s : sa)
    s = uint8_t(120 + rng() % 15);
  for (uint8_t &s : sb)
    s = uint8_t(120 + rng() % 15);
  auto elem = [](const std::string &f) {
    return f == "bf16" ? std::string("*bf16") : f == "fp16" ? std::string("*fp16") : std::string("*u8");
  };
  std::string sig = elem(af) + ", *u8, " + elem(bf) + ", *u8, *fp32, 16, 16, 64, '" + af + "', '" + bf +
                    "', " + (aScaled ? "True" : "False") + ", " + (bScaled ? "True" : "False");
  Compiled c = compileSource(kernelSource(), "k", sig);
  INFO(c.diags.str());
  REQUIRE(c.module);
  std::vector<float> out(M * N, -1);
  Interpreter interp;
  interp.addBuffer(a.bytes.data(), a.bytes.size());
  interp.addBuffer(sa.data(), sa.size());
  interp.addBuffer(b.bytes.data(), b.bytes.size());
  interp.addBuffer(sb.data(), sb.size());
  interp.addBuffer(out.data(), out.size() * 4);
  Type at = af == "bf16" ? Type::bf16() : af == "fp16" ? Type::f16() : Type::i8();
  Type bt = bf == "bf16" ? Type::bf16() : bf == "fp16" ? Type::f16() : Type::i8();
  std::vector<KernelArg> args = {
      KernelArg::pointer(a.bytes.data(), at), KernelArg::pointer(sa.data(), Type::i8()),
      KernelArg::pointer(b.bytes.data(), bt), KernelArg::pointer(sb.data(), Type::i8()),
      KernelArg::pointer(out.data(), Type::f32())};
  Diagnostics diags;
  bool ok = interp.run(*c.module, "k", args, {1, 1, 1}, diags);
  INFO(diags.str());
  REQUIRE(ok);
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < N; ++j) {
      double ref = 0.5, mag = 0.5;
      for (int k = 0; k < K; ++k) {
        double x = a.values[i * K + k] * (aScaled ? std::ldexp(1.0, sa[i * (K / 32) + k / 32] - 127) : 1.0);
        double y = b.values[k * N + j] * (bScaled ? std::ldexp(1.0, sb[j * (K / 32) + k / 32] - 127) : 1.0);
        ref += x * y;
        mag += std::fabs(x * y);
      }
      CAPTURE(i);
      CAPTURE(j);
      CHECK(std::fabs(out[i * N + j] - ref) <= 1e-6 * mag);
    }
}

} // namespace

TEST_CASE("e2e: tl.dot_scaled with fp4 (e2m1), fp8 (e4m3, e5m2), bf16 and fp16 operands, e8m0 scales") {
  check("e2m1", "e2m1", true, true);
  check("e4m3", "e5m2", true, true);
  check("e2m1", "e4m3", true, false);
  check("bf16", "e2m1", false, true);
  check("fp16", "fp16", false, false);
}

TEST_CASE("tl.dot_scaled: unsupported forms are refused at the call") {
  std::string src = std::string(kHeader) +
                    "@triton.jit\ndef k(p, q):\n"
                    "    a = tl.load(p + tl.arange(0, 16)[:, None] * 16 + tl.arange(0, 16)[None, :])\n"
                    "    b = tl.load(q + tl.arange(0, 32)[:, None] * 16 + tl.arange(0, 16)[None, :])\n";
  CHECK(firstError(src + "    c = tl.dot_scaled(a, None, 'e2m1', b, None, 'e3m4')\n", "k", "*u8, *u8") ==
        "8:9: tl.dot_scaled: static_assert failed: tl.dot_scaled: the formats are e2m1, e4m3, e5m2, bf16 and "
        "fp16");
  CHECK(firstError(src + "    c = tl.dot_scaled(a, None, 'e2m1', b, None, 'e4m3', lhs_k_pack=False)\n", "k",
                   "*u8, *u8") ==
        "8:9: tl.dot_scaled: static_assert failed: tl.dot_scaled: fp4 operands packed along M "
        "or N (k_pack=False) are not supported");
}
