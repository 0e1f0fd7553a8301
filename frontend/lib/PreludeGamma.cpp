// libdevice's lgamma and tgamma, written in the Triton language from the block IR's
// exact operations and its exp, log, sin and fma:
//   1 / gamma(1 + z) = 1 + z (z - 1) Q(z) on z in [-1/2, 1]: Q a polynomial fitted for
//                     Trident (18 terms for fp64, 11 for fp32), so that both zeros of
//                     lgamma (x = 1 and 2) come out as exact factors
//   |x| < 10          gamma(x) = prod (z + j) / (1 + z (z - 1) Q(z)) for the nearest
//                     integer k and z = x - k (exact), the product carried in two
//                     floats; lgamma through log1p next to 1 and 2, the log of that
//                     quotient elsewhere
//   x >= 10           Stirling's series (x - 1/2) log x - x + log(2 pi) / 2 + sum
//                     B_2k / (2k (2k - 1) x^(2k - 1)), with log x in two floats (2 atanh of
//                     (m - 1) / (m + 1) for the mantissa m, the exponent times log 2 in two
//                     parts), so that exp of it keeps tgamma's digits up to 171.6
//   x <= -10          the reflection gamma(x) gamma(-x) = -pi / (x sin(pi x))
// fp16/bf16 inputs compute in fp32. The measured errors are in docs/frontend.md; the fits
// come from frontend/fit/fit_gamma_bessel.py.

#include "CodeGen.h"

namespace trident::frontend {

const char *gammaPreludeSource() {
  return R"PRELUDE(

@triton.jit
def _lg_poly(z, coeffs: tl.constexpr):
    # Horner's rule, coefficients from the highest power.
    r = z * 0.0 + coeffs[0]
    for k in tl.static_range(1, len(coeffs)):
        r = r * z + coeffs[k]
    return r


@triton.jit
def _lg_q(z):
    # (1 / gamma(1 + z) - 1) / (z (z - 1)) on [-1/2, 1].
    if z.dtype == tl.float64:
        coeffs: tl.constexpr = (-4.379645135656355e-12, 1.1973401804399186e-10, -1.0744656440371455e-09,
             3.9218845415181346e-09, 1.0051959746670569e-08, -1.9558718649903785e-07,
             9.374364687645906e-07, -3.130538969769523e-07, -2.0447908629030454e-05,
             0.00010760237310112758, -0.00010763930090505572, -0.0012728068926979614,
             0.0059461363539482235, -0.0036758351739319085, -0.045873569729475275,
             0.12066504165281627, 0.07866240661872102, -0.5772156649015329)
    else:
        coeffs: tl.constexpr = (1.2886382592114387e-06, -2.1196630768827163e-05, 0.00010696332174120471,
             -0.00010699973063310608, -0.0012727902503684163, 0.005945996381342411,
             -0.0036758205387741327, -0.04587356001138687, 0.120665043592453,
             0.07866240292787552, -0.5772156715393066)
    return _lg_poly(z, coeffs)


@triton.jit
def _lg_two_sum(a, b):
    s = a + b
    bb = s - a
    return s, (a - (s - bb)) + (b - bb)


@triton.jit
def _lg_log_dw(x):
    # log(x) = hi + lo (about 2^-60 relative; 2^-30 for fp32) for normal positive x:
    # x = 2^e m, m in [sqrt(1/2), sqrt(2)), log(m) = 2 atanh(s) with s = (m - 1) / (m + 1)
    # a rounded quotient and its residual (m - 1 and the rounding of m + 1 are exact).
    if x.dtype == tl.float64:
        ln2_hi: tl.constexpr = 0.6931471805598903
        ln2_lo: tl.constexpr = 5.497923018708371e-14
        # 2 / (2k + 1), k = 1 .. 11, from the highest
        series: tl.constexpr = (0.08695652173913043, 0.09523809523809523, 0.10526315789473684,
             0.11764705882352941, 0.13333333333333333, 0.15384615384615385, 0.18181818181818182,
             0.2222222222222222, 0.2857142857142857, 0.4, 0.6666666666666666)
    else:
        ln2_hi: tl.constexpr = 0.693145751953125
        ln2_lo: tl.constexpr = 1.428606765330187e-06
        series: tl.constexpr = (0.1818181872367859, 0.2222222238779068, 0.2857142984867096,
             0.4000000059604645, 0.6666666865348816)
    e = _ld_ilogb(x)
    m = _ldr_scale(x, -e)
    big = m > 1.4142135623730951
    m = tl.where(big, m * 0.5, m)
    e = tl.where(big, e + 1, e)
    d = m + 1.0
    dl = m - (d - 1.0)
    s = tl.div_rn(m - 1.0, d)
    sl = tl.div_rn(tl.fma(-s, d, m - 1.0) - s * dl, d)
    s2 = s * s
    t = s2 * s * _lg_poly(s2, series)
    ef = e.to(x.dtype)
    hi, err = _lg_two_sum(ef * ln2_hi, 2.0 * s)
    lo = err + (ef * ln2_lo + (2.0 * sl + t))
    h = hi + lo
    return h, (hi - h) + lo


@triton.jit
def _lg_stirling(x):
    # lgamma(x) = hi + lo for x >= 10.
    if x.dtype == tl.float64:
        c_hi: tl.constexpr = 0.9189385332046728
        c_lo: tl.constexpr = -3.8782941580672414e-17
        # B_2k / (2k (2k - 1)), k = 9 .. 1
        bern: tl.constexpr = (0.17964437236883057, -0.029550653594771242, 0.00641025641025641,
             -0.0019175269175269176, 0.0008417508417508417, -0.0005952380952380953,
             0.0007936507936507937, -0.002777777777777778, 0.08333333333333333)
    else:
        c_hi: tl.constexpr = 0.9189385175704956
        c_lo: tl.constexpr = 1.563417661998301e-08
        bern: tl.constexpr = (-0.0005952381179668009, 0.0007936508045531809, -0.0027777778450399637,
             0.0833333358168602)
    lh, ll = _lg_log_dw(x)
    a = x - 0.5
    ph = a * lh
    pl = tl.fma(a, lh, -ph) + a * ll
    h1 = ph - x
    e1 = (ph - h1) - x
    y = tl.div_rn(1.0, x)
    s = y * _lg_poly(y * y, bern)
    t = c_hi + s
    te = (c_hi - t) + s
    h = h1 + t
    lo = ((h1 - h) + t) + (e1 + (pl + (te + c_lo)))
    r = h + lo
    return tl.where(h == float("inf"), h, r), tl.where(h == float("inf"), 0.0, (h - r) + lo)


@triton.jit
def _lg_small(x):
    # For |x| < 10: k = rint(x), z = x - k, and the product of the shifts in two floats,
    # (ph + pl) = prod_{j=1}^{k-1} (z + j) for k >= 1, prod_{j=1}^{-k} (x + j) for k <= 0;
    # r = 1 / gamma(1 + z) and u = r - 1 = z (z - 1) Q(z).
    k = _ld_rint(x)
    z = x - k
    u = z * (z - 1.0) * _lg_q(z)
    ph = x * 0.0 + 1.0
    pl = x * 0.0
    for j in tl.static_range(1, 11):
        use = tl.where(k >= 1, j < k, j <= -k)
        f = tl.where(k >= 1, z + j, x + j)
        nh = ph * f
        nl = tl.fma(ph, f, -nh) + pl * f
        ph = tl.where(use, nh, ph)
        pl = tl.where(use, nl, pl)
    return k, z, u, ph, pl


@triton.jit
def _ldg_tgamma(v):
    if v.dtype == tl.float64:
        over: tl.constexpr = 171.625
    else:
        over: tl.constexpr = 35.04
    a = tl.abs(v)
    k, z, u, ph, pl = _lg_small(tl.where(a < 10.0, v, 0.5))
    r = 1.0 + u
    small_pos = tl.div_rn(ph, r) + tl.div_rn(pl, r)
    small_neg = tl.div_rn(tl.div_rn(1.0, v), r * ph + r * pl)
    h, l = _lg_stirling(tl.where(a >= 10.0, a, 10.0))
    big_pos = tl.exp(h) * (1.0 + l)
    # gamma(x) = -pi / (x sin(pi x) gamma(-x)), exp(-h) in two halves so that
    # results down to the subnormals keep their digits.
    c = tl.div_rn(tl.zeros_like(v) - 3.141592653589793, v * _ld_sinpi(v))
    e = tl.exp(-0.5 * h)
    big_neg = e * c * e * (1.0 - l)
    r = tl.where(a < 10.0, tl.where(k >= 1, small_pos, small_neg), tl.where(v > 0, big_pos, big_neg))
    r = tl.where(v >= over, float("inf"), r)
    r = tl.where(v == 0, tl.div_rn(1.0, v), r)
    bad = ((v < 0) & (tl.floor(v) == v)) | (v != v)
    return tl.where(bad, float("nan"), r)


@triton.jit
def _ldg_lgamma(v):
    a = tl.abs(v)
    k, z, u, ph, pl = _lg_small(tl.where(a < 10.0, v, 0.5))
    # |x| < 1/2: lgamma(1 + x) - log|x|.
    near0 = -tl.log(a) - _ldt_log1p(tl.where(a < 0.5, u, 0.0))
    # [1/2, 2): -log1p(u) at z = x - 1 (u has the exact factors z and z - 1); [2, 3):
    # log1p of gamma(2 + z) - 1 = z (1 - (z - 1) Q(z)) / (1 + u) at z = x - 2.
    z2 = v - 2.0
    in2 = (v >= 2.0) & (v < 3.0)
    q2 = _lg_q(tl.where(in2, z2, 0.0))
    w = tl.div_rn(z2 * (1.0 - (z2 - 1.0) * q2), 1.0 + z2 * (z2 - 1.0) * q2)
    near2 = _ldt_log1p(tl.where(in2, w, 0.0))
    z1 = v - 1.0
    in1 = (v >= 0.5) & (v < 2.0)
    near1 = -_ldt_log1p(tl.where(in1, z1 * (z1 - 1.0) * _lg_q(tl.where(in1, z1, 0.0)), 0.0))
    # [3, 10): log(ph) + pl / ph - log1p(u).
    mid_pos = tl.log(ph) + (tl.div_rn(pl, ph) - _ldt_log1p(u))
    # (-10, -1/2]: -log|x (1 + u) (ph + pl)|.
    mid_neg = -tl.log(tl.abs(v * ((1.0 + u) * ph + (1.0 + u) * pl)))
    h, l = _lg_stirling(tl.where(a >= 10.0, a, 10.0))
    big_pos = h + l
    # x <= -10: log(pi / |x sin(pi x)|) - lgamma(-x).
    big_neg = -tl.log(tl.abs(v * _ld_sinpi(v)) * 0.3183098861837907) - big_pos
    big_pos = tl.where(h == float("inf"), h, big_pos)
    r = tl.where(v < 0.5, mid_neg, tl.where(v < 2.0, near1, tl.where(v < 3.0, near2, mid_pos)))
    r = tl.where(a < 0.5, near0, r)
    r = tl.where(a >= 10.0, tl.where(v > 0, big_pos, big_neg), r)
    r = tl.where((v <= 0) & (tl.floor(v) == v), float("inf"), r)
    r = tl.where(a == float("inf"), a, r)
    return tl.where(v != v, v, r + 0.0)


@triton.jit
def _ld_tgamma(x):
    return _ldt_out(_ldg_tgamma(_ldt_in(x)), x)


@triton.jit
def _ld_lgamma(x):
    return _ldt_out(_ldg_lgamma(_ldt_in(x)), x)
)PRELUDE";
}

void registerGammaLibdevice(BuiltinTable &t) {
  addLibdevicePrelude(t, {{"lgamma", "_ld_lgamma", {}}, {"tgamma", "_ld_tgamma", {}}});
}

} // namespace trident::frontend
