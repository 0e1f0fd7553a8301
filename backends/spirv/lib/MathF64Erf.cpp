// erf of f64 values: GLSL.std.450 has no erf at all (f32's is TranslateMath.cpp's).
//
// With a = |x| and erf odd:
//   a < 0.75:     erf(a) = a + a Q(a^2), Q a degree-11 polynomial fitted to
//                 erf(sqrt t)/sqrt t - 1 on [0, 0.5625] (Chebyshev fit with mpmath,
//                 error below 1e-4 ulp); the leading a is exact, Q is at most 0.13;
//   0.75 <= a < 6: six pieces of width 1 centred on m = 1.25, 2.25, ..., 6.25:
//                 erf(m + u) = erf(m) - u R(u) with erf(m) as a double-double and R a
//                 degree-17 polynomial fitted to (erfc(m + u) - erfc(m)) / u on
//                 [-0.5, 0.5]; u = a - m is exact (Sterbenz);
//   a >= 6:       1 (erfc(a) < 2^-54 from 5.92 on, so erf rounds to 1).
// Within 0.8 ulp of mpmath in a simulation; backend_vulkan_run_tests compares it
// with std::erf. No exp is needed, so the sequence is straight-line arithmetic.
#include "MathF64.h"

#include <cmath>

namespace trident::spirv {

namespace {

// Coefficients, highest power first.
constexpr double kSmall[] = {
    -0x1.05364c48fa2d3p-30, 0x1.ef41d2b29a3a8p-27, -0x1.5ec0e0bec99f7p-23, 0x1.b9dae461077e7p-20,
    -0x1.f4d1d6286861cp-17, 0x1.f9a32306e0932p-14, -0x1.c02db3ec9fd99p-11, 0x1.565bcd0e2c679p-8,
    -0x1.b82ce31287ce6p-6, 0x1.ce2f21a042bc6p-4, -0x1.812746b0379e7p-2, 0x1.06eba8214db69p-3};
constexpr double kPieces[6][18] = {
    {
        0x1.92f68f096db1ap-23, -0x1.02d3ffc9929a7p-21, -0x1.683cdf91777cfp-20, 0x1.ad52c5b6c7719p-18,
        0x1.94447ea899076p-19, -0x1.d44b628b4d35bp-15, 0x1.ba66f304b7451p-15, 0x1.53b158b502780p-12,
        -0x1.a00750bf2852fp-11, -0x1.cc22540339c32p-11, 0x1.75672ced93b92p-8, -0x1.db43c97699d20p-9,
        -0x1.5d0003af734b1p-6, 0x1.8281ce0b369e3p-5, 0x1.93a9a7bb7ef5ap-8, -0x1.571d01c5c56cep-3,
        0x1.2ebf3dcc9f22fp-2, -0x1.e4652fadcb6b2p-3},
    {
        0x1.d6cfe0ea60787p-27, -0x1.0e8feb9969fd1p-23, 0x1.54bdb725c7649p-23, 0x1.cba795049439bp-21,
        -0x1.cb16fb877370fp-19, 0x1.65e8adad241d3p-20, 0x1.7ca58d1290189p-16, -0x1.11324f0e97461p-14,
        0x1.80c1263227307p-17, 0x1.8352ce1b36d6bp-12, -0x1.0602e33a60023p-10, 0x1.5f8313b03dbbdp-11,
        0x1.7cae0d45adc5ep-9, -0x1.5d3b17bbde50fp-7, 0x1.38a98327890f9p-6, -0x1.63ef61e824457p-6,
        0x1.074b60f8df349p-6, -0x1.d4143a9dfe965p-8},
    {
        -0x1.fe669f51dcd54p-30, -0x1.2898e02323f2fp-29, 0x1.d73f76ec77021p-26, -0x1.1f22621d4e5f2p-24,
        -0x1.d758dd257f16dp-29, 0x1.2664f229180d2p-21, -0x1.ff321243e96afp-20, 0x1.8070003781251p-19,
        0x1.38933a7be908dp-19, -0x1.b2c31e80942a3p-16, 0x1.567479ca18c64p-14, -0x1.647f721e90110p-13,
        0x1.145464ea27806p-12, -0x1.490a4d2306ecap-12, 0x1.2c7d5ef053ed4p-12, -0x1.9aa489e3caf73p-13,
        0x1.8de3cd290a7c0p-14, -0x1.e9b5e8d00ce6fp-16},
    {
        -0x1.a44836a48d669p-35, 0x1.05f8c1dd3828ap-32, -0x1.3a1f1a121f740p-31, 0x1.bf151cfd50181p-32,
        0x1.9ff7c19b07b1ap-29, -0x1.263cd3f95372bp-26, 0x1.e03e79b8353f9p-25, -0x1.27d97d642c772p-23,
        0x1.2758b344bcebdp-22, -0x1.eab4e737184fcp-22, 0x1.566f01c6d3873p-21, -0x1.916e922ed2ee2p-21,
        0x1.8868e1d29814bp-21, -0x1.3b468019c6b35p-21, 0x1.96ba7366bf895p-22, -0x1.95ea6fdffadeap-23,
        0x1.26afa996c3252p-24, -0x1.155a09065d509p-26},
    {
        0x1.9cbea6291f768p-41, -0x1.82e05a10f5ee3p-39, 0x1.079e219f5575cp-37, -0x1.435ad158e3ff2p-36,
        0x1.5bfe30f4435f0p-35, -0x1.4858c03bd02adp-34, 0x1.11c752e768359p-33, -0x1.9424310d4e9ffp-33,
        0x1.07815c6fe1426p-32, -0x1.2e38702416319p-32, 0x1.2ec54e9232f9bp-32, -0x1.065957e36f392p-32,
        0x1.83ea4ba26fd46p-33, -0x1.e044b3fee361fp-34, 0x1.e4cb4aea7045fp-35, -0x1.7f8a0f3d65aa3p-36,
        0x1.be6dda2ac4335p-38, -0x1.5422ef5d8df97p-40},
    {
        0x1.354fda9e868acp-50, -0x1.3f6e575e7fc77p-49, 0x1.b1126d6c9ede1p-49, -0x1.6003f686a665ap-48,
        0x1.175e23485c220p-47, -0x1.806b562814199p-47, 0x1.dbec21a71c7e3p-47, -0x1.0bc1f0244ac1ep-46,
        0x1.0efe2a5e20637p-46, -0x1.e91bf30f9309ep-47, 0x1.863dcf0329a22p-47, -0x1.102c052e3f5d5p-47,
        0x1.46efa947559a6p-48, -0x1.4b87a03320125p-49, 0x1.141bca14b1ed3p-50, -0x1.6ad3e8324bf29p-52,
        0x1.60d4b5a690f3ap-54, -0x1.c39fa0dd3c417p-57}};
constexpr double kHeads[6][2] = {
    {0x1.d8865d98abe01p-1, -0x1.fcec4afb974d9p-55},
    {0x1.ff404760319b4p-1, 0x1.f142071432025p-56},
    {0x1.ffff6f9f67e55p-1, 0x1.e1e4483ba034bp-55},
    {0x1.fffffff01a8b6p-1, 0x1.23370eca5ca6ap-60},
    {0x1.ffffffffffc05p-1, 0x1.07ba96a6b2e1ap-55},
    {0x1.0000000000000p+0, -0x1.1d791bb1324a1p-60}};

} // namespace

uint32_t erfF64(Translator &t, uint32_t x) {
  F64 m{t};
  uint32_t a = m.abs(x);
  uint32_t small = m.add(a, m.mul(a, m.horner(kSmall, m.mul(a, a))));
  // The piece: k = floor(a - 0.75) in [0, 5]; each coefficient chosen by selects.
  uint32_t clamped = m.select(m.less(a, m.c(6.5)), a, m.c(6.5)); // also keeps inf and NaN out
  uint32_t kf = t.glsl(Glsl::Floor, m.f64, {m.sub(clamped, m.c(0.75))});
  kf = m.select(m.less(kf, m.c(0.0)), m.c(0.0), kf);
  uint32_t isPiece[6];
  for (int k = 1; k < 6; ++k)
    isPiece[k] = t.emit(Spv::FOrdEqual, m.b, {kf, m.c(k)});
  auto choose = [&](auto coefficient) {
    uint32_t v = m.c(coefficient(0));
    for (int k = 1; k < 6; ++k)
      v = m.select(isPiece[k], m.c(coefficient(k)), v);
    return v;
  };
  uint32_t u = m.subE(clamped, m.addE(kf, m.c(1.25)));
  uint32_t r = choose([](int k) { return kPieces[k][0]; });
  for (size_t i = 1; i < std::size(kPieces[0]); ++i)
    r = m.addE(m.mulE(r, u), choose([i](int k) { return kPieces[k][i]; }));
  uint32_t headHi = choose([](int k) { return kHeads[k][0]; }), headLo = choose([](int k) { return kHeads[k][1]; });
  uint32_t middle = m.addE(headHi, m.subE(headLo, m.mulE(u, r)));
  uint32_t magnitude = m.select(m.less(a, m.c(0.75)), small, m.select(m.less(a, m.c(6.0)), middle, m.c(1.0)));
  // erf(-a) = -erf(a), -0 included; erf(NaN) = NaN (a NaN fails both comparisons).
  uint32_t sign = t.emit(Spv::BitwiseAnd, m.i64, {t.emit(Spv::Bitcast, m.i64, {x}), t.constant(m.i64, uint64_t(1) << 63)});
  uint32_t signedBits = t.emit(Spv::BitwiseOr, m.i64, {t.emit(Spv::Bitcast, m.i64, {magnitude}), sign});
  return m.select(m.isNan(x), x, t.emit(Spv::Bitcast, m.f64, {signedBits}));
}

} // namespace trident::spirv
