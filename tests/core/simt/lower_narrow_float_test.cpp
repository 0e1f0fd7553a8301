// f8 conversions and rounding toward zero, expanded by the lowering into integer and
// f32 arithmetic, bit-exact against trident/support/FloatFormats.h on special and
// random values.
#include "SimtTestUtil.h"

#include "trident/support/FloatFormats.h"

#include <bit>
#include <cmath>
#include <limits>

using namespace trident;
using namespace trident::simt::test;

namespace {

const char *kConvert = R"(builtin.module ({
  tt.func {arg_divisibility = [16, 16, 16, 16, 16, 16, 16, 16, 16, 16], sym_name = "convert"} ({
  ^(%x: ptr<f32>, %d: ptr<f64>, %e4: ptr<f8e4m3>, %e4z: ptr<f8e4m3>, %e5: ptr<f8e5m2>, %e5z: ptr<f8e5m2>,
    %hz: ptr<f16>, %bz: ptr<bf16>, %back: ptr<f32>, %fz: ptr<f32>):
    %r = tt.make_range {end = 1024, start = 0} : block<1024xi32>
    %xs = tt.splat %x : block<1024xptr<f32>>
    %xp = tt.addptr %xs, %r : block<1024xptr<f32>>
    %v = tt.load %xp : block<1024xf32>
    %a = arith.truncf %v : block<1024xf8e4m3>
    %az = arith.truncf %v {rounding = "rtz"} : block<1024xf8e4m3>
    %b = arith.truncf %v : block<1024xf8e5m2>
    %bz2 = arith.truncf %v {rounding = "rtz"} : block<1024xf8e5m2>
    %h = arith.truncf %v {rounding = "rtz"} : block<1024xf16>
    %bf = arith.truncf %v {rounding = "rtz"} : block<1024xbf16>
    %e4s = tt.splat %e4 : block<1024xptr<f8e4m3>>
    %e4p = tt.addptr %e4s, %r : block<1024xptr<f8e4m3>>
    tt.store %e4p, %a
    %e4zs = tt.splat %e4z : block<1024xptr<f8e4m3>>
    %e4zp = tt.addptr %e4zs, %r : block<1024xptr<f8e4m3>>
    tt.store %e4zp, %az
    %e5s = tt.splat %e5 : block<1024xptr<f8e5m2>>
    %e5p = tt.addptr %e5s, %r : block<1024xptr<f8e5m2>>
    tt.store %e5p, %b
    %e5zs = tt.splat %e5z : block<1024xptr<f8e5m2>>
    %e5zp = tt.addptr %e5zs, %r : block<1024xptr<f8e5m2>>
    tt.store %e5zp, %bz2
    %hs = tt.splat %hz : block<1024xptr<f16>>
    %hp = tt.addptr %hs, %r : block<1024xptr<f16>>
    tt.store %hp, %h
    %bs = tt.splat %bz : block<1024xptr<bf16>>
    %bp = tt.addptr %bs, %r : block<1024xptr<bf16>>
    tt.store %bp, %bf
    %wa = arith.extf %a : block<1024xf32>
    %wb = arith.extf %b : block<1024xf32>
    %c = arith.constant {value = 3.3} : block<1024xf8e4m3>
    %wc = arith.extf %c : block<1024xf32>
    %s1 = arith.addf %wa, %wb : block<1024xf32>
    %s2 = arith.addf %s1, %wc : block<1024xf32>
    %bks = tt.splat %back : block<1024xptr<f32>>
    %bkp = tt.addptr %bks, %r : block<1024xptr<f32>>
    tt.store %bkp, %s2
    %ds = tt.splat %d : block<1024xptr<f64>>
    %dp = tt.addptr %ds, %r : block<1024xptr<f64>>
    %dv = tt.load %dp : block<1024xf64>
    %dz = arith.truncf %dv {rounding = "rtz"} : block<1024xf32>
    %fzs = tt.splat %fz : block<1024xptr<f32>>
    %fzp = tt.addptr %fzs, %r : block<1024xptr<f32>>
    tt.store %fzp, %dz
    tt.return
  })
})
)";

bool sameFloat(float a, float b) {
  return (std::isnan(a) && std::isnan(b)) || std::bit_cast<uint32_t>(a) == std::bit_cast<uint32_t>(b);
}

} // namespace

TEST_CASE("f8 and round-toward-zero conversions match the reference bit for bit") {
  Module m = lowerOrFail(kConvert, 4);
  std::vector<float> x = randomFloats(1024, 31, -600, 600);
  std::vector<float> specials = {0.f,       -0.f,       INFINITY,   -INFINITY, NAN,    448.f,
                                 449.f,     464.f,      480.f,      500.f,     -465.f, 57344.f,
                                 61439.f,   61440.f,    65504.f,    65520.f,   1e9f,   -1e30f,
                                 1.f / 512, 3.f / 1024, 1.f / 1024, 1e-7f,     1e-30f, 0.0625f * 1.0625f,
                                 1.0625f,   1.1875f,    2.75f,      3.3f};
  for (size_t i = 0; i < specials.size(); ++i)
    x[i] = specials[i];
  for (size_t i = specials.size(); i < 400; ++i) // small magnitudes: subnormals of every format
    x[i] = std::ldexp(x[i] / 600, -static_cast<int>(i % 40));
  std::vector<double> d(1024);
  for (size_t i = 0; i < 1024; ++i)
    d[i] = double(x[i]) * (1 + 1e-9 * double(i % 7)) + (i % 3 ? 1e-12 : 0);
  std::vector<uint8_t> e4(1024), e4z(1024), e5(1024), e5z(1024);
  std::vector<uint16_t> hz(1024), bz(1024);
  std::vector<float> back(1024), fz(1024);
  simulate(m, "convert",
           {ptrArg(x.data()), ptrArg(d.data()), ptrArg(e4.data()), ptrArg(e4z.data()), ptrArg(e5.data()),
            ptrArg(e5z.data()), ptrArg(hz.data()), ptrArg(bz.data()), ptrArg(back.data()), ptrArg(fz.data())},
           {1, 1, 1},
           {{x.data(), 4096},
            {d.data(), 8192},
            {e4.data(), 1024},
            {e4z.data(), 1024},
            {e5.data(), 1024},
            {e5z.data(), 1024},
            {hz.data(), 2048},
            {bz.data(), 2048},
            {back.data(), 4096},
            {fz.data(), 4096}});
  int bad = 0;
  float c = f8e4m3ToFloat(floatToF8E4M3(3.3f));
  for (size_t i = 0; i < 1024; ++i) {
    INFO("x = " << x[i]);
    auto rz = FloatRounding::TowardZero;
    bool nan = std::isnan(x[i]);
    // NaNs: only that the result is a NaN of the format.
    bool ok = nan ? (e4[i] & 0x7f) == 0x7f && (e5[i] & 0x7c) == 0x7c && (e5[i] & 3)
                  : e4[i] == floatToF8E4M3(x[i]) && e4z[i] == floatToF8E4M3(x[i], rz) &&
                        e5[i] == floatToF8E5M2(x[i]) && e5z[i] == floatToF8E5M2(x[i], rz) &&
                        hz[i] == floatToF16(x[i], rz) && bz[i] == floatToBF16(x[i], rz) &&
                        sameFloat(back[i], f8e4m3ToFloat(floatToF8E4M3(x[i])) +
                                               f8e5m2ToFloat(floatToF8E5M2(x[i])) + c);
    if (!nan && std::fabs(x[i]) < std::ldexp(1.0f, -126)) // f32 subnormals: bf16 toward zero may differ
      ok = ok || bz[i] == 0 || bz[i] == 0x8000;
    ok = ok && (std::isnan(d[i]) ? std::isnan(fz[i])
                                 : sameFloat(fz[i], float(roundToFormat(d[i], FloatFormat::F32, rz))));
    CHECK(ok);
    bad += !ok;
  }
  CHECK(bad == 0);
}
