// tl.float8e4b15, tl.float8e4b8 and tl.float8e5b16 (held as bits, converted by the
// frontend's integer functions: Fp8Software.cpp) against tables computed here from
// the formats' definitions: every one of the 256 codes to f32, f16 and bf16, and f32
// to each format for every code's value, every midpoint between neighbours (ties to
// even), a step either side of it, overflow, infinities, NaN and signed zeros, with
// rtne and rtz. Run in the interpreter; the same block IR runs on every target.
#include "FrontendTestUtil.h"

#include "trident/interp/Interpreter.h"
#include "trident/support/FloatFormats.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

using namespace trident;
using namespace trident::test;

namespace {

struct Format {
  const char *name; // tl.<name>
  int mantissa, bias, maxCode;
  bool fnuz;
};
const Format kFormats[] = {
    {"float8e4b15", 3, 15, 0x7e, false},
    {"float8e4b8", 3, 8, 0x7f, true},
    {"float8e5b16", 2, 16, 0x7f, true},
};

bool isNaNCode(const Format &f, int c) { return f.fnuz ? c == 0x80 : (c & 0x7f) == 0x7f; }

// The value of code `c` from the definition (NaN for the NaN codes).
double decodeRef(const Format &f, int c) {
  if (isNaNCode(f, c))
    return std::numeric_limits<double>::quiet_NaN();
  int e = (c & 0x7f) >> f.mantissa, m = c & ((1 << f.mantissa) - 1);
  double v = e == 0 ? std::ldexp(m, 1 - f.bias - f.mantissa) : std::ldexp((1 << f.mantissa) + m, e - f.bias - f.mantissa);
  return (c & 0x80) ? -v : v;
}

// The code of `x` by search over every finite code: nearest (ties to the even code)
// or toward zero; beyond the largest finite value, and infinities, saturate.
int encodeRef(const Format &f, float x, bool rtz) {
  if (std::isnan(x))
    return f.fnuz ? 0x80 : (std::signbit(x) ? 0xff : 0x7f);
  double a = std::fabs(static_cast<double>(x));
  int best = 0;
  for (int c = 0; c <= f.maxCode; ++c) {
    double v = decodeRef(f, c), bv = decodeRef(f, best);
    if (rtz) {
      if (v <= a && v > bv)
        best = c;
    } else {
      double d = std::fabs(v - a), bd = std::fabs(bv - a);
      if (d < bd || (d == bd && (c & 1) == 0 && (best & 1) == 1))
        best = c;
    }
  }
  if (a > decodeRef(f, f.maxCode))
    best = f.maxCode;
  if (best == 0 && f.fnuz)
    return 0;
  return std::signbit(x) ? best | 0x80 : best;
}

std::string kernels(const Format &f) {
  std::string t = std::string("tl.") + f.name;
  return std::string(kHeader) + R"PY(
@triton.jit
def decode(codes, out32, out16, outbf, N: tl.constexpr):
    i = tl.arange(0, N)
    x = tl.load(codes + i).to()PY" + t + R"PY(, bitcast=True)
    tl.store(out32 + i, x.to(tl.float32))
    tl.store(out16 + i, x.to(tl.float16))
    tl.store(outbf + i, x.to(tl.bfloat16))

@triton.jit
def encode(xs, rne, rz, N: tl.constexpr):
    i = tl.arange(0, N)
    x = tl.load(xs + i)
    tl.store(rne + i, x.to()PY" + t + R"PY().to(tl.uint8, bitcast=True))
    tl.store(rz + i, x.to()PY" + t + R"PY(, fp_downcast_rounding="rtz").to(tl.uint8, bitcast=True))

@triton.jit
def through_pointer(src, dst, N: tl.constexpr):
    # loads and stores of the type itself; f16 -> fp8 rounds once.
    i = tl.arange(0, N)
    tl.store(dst + i, tl.load(src + i).to(tl.float16))
)PY";
}

Module build(const std::string &src, const std::string &kernel, const std::string &signature) {
  Compiled c = compileSource(src, kernel, signature);
  INFO(c.diags.str());
  REQUIRE(c.module);
  return std::move(*c.module);
}

uint32_t bitsOf(float x) {
  uint32_t b;
  std::memcpy(&b, &x, 4);
  return b;
}

} // namespace

TEST_CASE("soft fp8: every code to f32, f16 and bf16 is exact") {
  for (const Format &f : kFormats) {
    INFO(f.name);
    Module m = build(kernels(f), "decode", "*u8, *fp32, *fp16, *bf16, 256");
    std::vector<uint8_t> codes(256);
    for (int c = 0; c < 256; ++c)
      codes[c] = static_cast<uint8_t>(c);
    std::vector<float> out32(256);
    std::vector<uint16_t> out16(256), outbf(256);
    Interpreter interp;
    interp.addBuffer(codes.data(), 256);
    interp.addBuffer(out32.data(), 256 * 4);
    interp.addBuffer(out16.data(), 256 * 2);
    interp.addBuffer(outbf.data(), 256 * 2);
    Diagnostics diags;
    REQUIRE(interp.run(m, "decode",
                       std::vector<KernelArg>{KernelArg::pointer(codes.data(), Type::i8()), KernelArg::pointer(out32.data(), Type::f32()),
                        KernelArg::pointer(out16.data(), Type::f16()), KernelArg::pointer(outbf.data(), Type::bf16())},
                       {1, 1, 1}, diags));
    int nans = 0;
    for (int c = 0; c < 256; ++c) {
      INFO("code 0x" << std::hex << c);
      double want = decodeRef(f, c);
      if (std::isnan(want)) {
        ++nans;
        CHECK(std::isnan(out32[c]));
        CHECK(std::isnan(f16ToFloat(out16[c])));
        CHECK(std::isnan(bf16ToFloat(outbf[c])));
        continue;
      }
      CHECK(static_cast<double>(out32[c]) == want);
      CHECK(std::signbit(out32[c]) == ((c & 0x80) != 0));
      CHECK(static_cast<double>(f16ToFloat(out16[c])) == want);
      CHECK(static_cast<double>(bf16ToFloat(outbf[c])) == want);
    }
    CHECK(nans == (f.fnuz ? 1 : 2));
  }
}

TEST_CASE("soft fp8: f32 to each format rounds once, ties to even, and saturates") {
  for (const Format &f : kFormats) {
    INFO(f.name);
    std::vector<float> xs;
    std::vector<double> values;
    for (int c = 0; c <= f.maxCode; ++c)
      values.push_back(decodeRef(f, c));
    for (size_t i = 0; i < values.size(); ++i) {
      float v = static_cast<float>(values[i]);
      xs.insert(xs.end(), {v, -v, std::nextafter(v, 1e30f), std::nextafter(v, -1e30f)});
      if (i + 1 < values.size()) {
        float mid = static_cast<float>((values[i] + values[i + 1]) / 2); // exact in f32
        xs.insert(xs.end(), {mid, -mid, std::nextafter(mid, 0.0f), std::nextafter(mid, 1e30f)});
      }
    }
    float top = static_cast<float>(values.back());
    float inf = std::numeric_limits<float>::infinity();
    xs.insert(xs.end(), {top * 1.0625f, top * 1.2f, -top * 3, 1e30f, inf, -inf, std::nanf(""), -std::nanf(""),
                         0.0f, -0.0f, 1e-30f, -1e-30f, std::numeric_limits<float>::denorm_min()});
    while (xs.size() % 64)
      xs.push_back(0.5f);
    size_t n = xs.size();
    size_t block = 1;
    while (block < n)
      block *= 2;
    xs.resize(block, 0.25f);
    Module m = build(kernels(f), "encode", "*fp32, *u8, *u8, " + std::to_string(block));
    std::vector<uint8_t> rne(block), rz(block);
    Interpreter interp;
    interp.addBuffer(xs.data(), block * 4);
    interp.addBuffer(rne.data(), block);
    interp.addBuffer(rz.data(), block);
    Diagnostics diags;
    REQUIRE(interp.run(m, "encode",
                       std::vector<KernelArg>{KernelArg::pointer(xs.data(), Type::f32()), KernelArg::pointer(rne.data(), Type::i8()),
                        KernelArg::pointer(rz.data(), Type::i8())},
                       {1, 1, 1}, diags));
    int mismatches = 0;
    for (size_t i = 0; i < block; ++i) {
      int wantNE = encodeRef(f, xs[i], false), wantZ = encodeRef(f, xs[i], true);
      if (rne[i] != wantNE || rz[i] != wantZ) {
        if (++mismatches <= 8)
          MESSAGE(f.name << ": x = " << xs[i] << " (0x" << std::hex << bitsOf(xs[i]) << "): rtne 0x"
                         << int(rne[i]) << " want 0x" << wantNE << ", rtz 0x" << int(rz[i]) << " want 0x" << wantZ);
      }
    }
    CHECK(mismatches == 0);
    // Every code's own value comes back to the code (all 256: NaN codes to a NaN code).
    for (int c = 0; c < 256; ++c)
      if (!isNaNCode(f, c) && !(f.fnuz && c == 0))
        CHECK(encodeRef(f, static_cast<float>(decodeRef(f, c)), false) == c);
  }
}

TEST_CASE("soft fp8: pointers to the formats load and store their bytes; f16 in, one rounding") {
  for (const Format &f : kFormats) {
    INFO(f.name);
    std::string sig = std::string("*fp8") + (f.mantissa == 2 ? "e5b16" : f.bias == 15 ? "e4b15" : "e4b8");
    Module m = build(kernels(f), "through_pointer", sig + ", *fp16, 256");
    std::vector<uint8_t> codes(256);
    for (int c = 0; c < 256; ++c)
      codes[c] = static_cast<uint8_t>(c);
    std::vector<uint16_t> out(256);
    Interpreter interp;
    interp.addBuffer(codes.data(), 256);
    interp.addBuffer(out.data(), 512);
    Diagnostics diags;
    REQUIRE(interp.run(m, "through_pointer",
                       std::vector<KernelArg>{KernelArg::pointer(codes.data(), Type::i8()), KernelArg::pointer(out.data(), Type::f16())},
                       {1, 1, 1}, diags));
    for (int c = 0; c < 256; ++c) {
      double want = decodeRef(f, c);
      if (std::isnan(want))
        CHECK(std::isnan(f16ToFloat(out[c])));
      else
        CHECK(static_cast<double>(f16ToFloat(out[c])) == want);
    }
  }
}

TEST_CASE("soft fp8: arithmetic is refused; the dtype's queries") {
  std::string src = std::string(kHeader) + R"PY(
@triton.jit
def add(p, q):
    x = tl.load(p)
    tl.store(q, x + x)

@triton.jit
def queries(q):
    tl.static_assert(tl.float8e4b15.is_fp8())
    tl.static_assert(tl.float8e4b8.is_floating())
    tl.static_assert(not tl.float8e5b16.is_int())
    tl.static_assert(tl.float8e5b16.primitive_bitwidth == 8)
    tl.store(q, 1.5)
)PY";
  CHECK(firstError(src, "add", "*fp8e4b8, *fp8e4b8").find("arithmetic on fp8e4b8 is not supported") !=
        std::string::npos);
  Compiled c = compileSource(src, "queries", "*fp8e4b15");
  INFO(c.diags.str());
  CHECK(c.module);
}
