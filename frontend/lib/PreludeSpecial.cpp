// libdevice's special functions, written in the Triton language from the block IR's
// exact operations and its exp, log, sqrt, sin, cos and fma:
//   fmod, remainder   exact: the remainder is reduced by chunks of 20 (fp32) or 50
//                     (fp64) quotient bits, each step r - m * (|y| 2^k) one exact fma
//   erfcx             a Chebyshev series in t = (x - 3) / (x + 3) of (1 + 2x) erfcx(x)
//                     on [0, inf) (coefficients fitted for Trident, 27 / 12 terms)
//   erfc, normcdf     exp(-x^2) erfcx(x) with x^2 (and x / sqrt(2)) as a rounded value
//                     and its exact error; 2 - erfc(-x) below 0
//   erfinv, erfcinv, normcdfinv   Newton steps on erf (the centre) or on
//                     log erfc = -x^2 + log erfcx(x) (the tails, without underflow)
// fp16/bf16 inputs compute in fp32. The measured errors are in docs/frontend.md.

#include "CodeGen.h"

namespace trident::frontend {

const char *specialPreludeSource() {
  return R"PRELUDE(

@triton.jit
def _lds_fmod_core(x, y):
    # |x| mod |y| exactly, and whether the truncated quotient is odd (x, y finite, y != 0).
    ax = tl.abs(x)
    ay = tl.abs(y)
    if x.dtype == tl.float64:
        chunk: tl.constexpr = 50
        steps: tl.constexpr = 43
    else:
        chunk: tl.constexpr = 20
        steps: tl.constexpr = 15
    ok = (ay > 0) & (ay < float("inf"))
    ey = _ld_ilogb(tl.where(ok, ay, 1.0))
    r = ax
    odd = ax != ax
    for _ in range(steps):
        go = (r >= ay) & ok
        k = tl.maximum(_ld_ilogb(tl.where(go, r, 1.0)) - ey - chunk, 0)
        s = _ldr_scale(ay, k)
        # m is floor(r / s) or one more; r - m s is then a float, and so is its correction.
        m = tl.floor(tl.div_rn(r, s))
        rest = tl.fma(-m, s, r)
        neg = rest < 0
        rest = tl.where(neg, rest + s, rest)
        m = tl.where(neg, m - 1.0, m)
        half = m * 0.5
        odd = tl.where(go & (k == 0), tl.floor(half) != half, odd)
        r = tl.where(go, rest, r)
    return r, odd


@triton.jit
def _lds_fmod(x, y):
    a = _ldt_in(x)
    b = tl.to_tensor(y).to(a.dtype)
    a, b = tl.broadcast(a, b)
    r, _ = _lds_fmod_core(a, b)
    r = _ld_copysign(r, a)
    bad = (a != a) | (b != b) | (tl.abs(a) == float("inf")) | (b == 0)
    return _ldt_out(tl.where(bad, float("nan"), r), x)


@triton.jit
def _lds_remainder(x, y):
    # x - n y for the integer n nearest x / y, ties to even.
    a = _ldt_in(x)
    b = tl.to_tensor(y).to(a.dtype)
    a, b = tl.broadcast(a, b)
    r, odd = _lds_fmod_core(a, b)
    ay = tl.abs(b)
    twice = r + r
    v = tl.where((twice > ay) | ((twice == ay) & odd), r - ay, r)
    v = tl.where(_ld_signbit(a) != 0, v * -1.0, v)
    bad = (a != a) | (b != b) | (tl.abs(a) == float("inf")) | (b == 0)
    return _ldt_out(tl.where(bad, float("nan"), v), x)


@triton.jit
def _lds_cheb(t, coeffs: tl.constexpr):
    # sum c_k T_k(t) (coefficients from the highest) by Clenshaw's recurrence.
    t2 = 2.0 * t
    b1 = t * 0.0
    b2 = t * 0.0
    for k in tl.static_range(len(coeffs)):
        b1, b2 = coeffs[k] + t2 * b1 - b2, b1
    return b1 - t * b2


@triton.jit
def _lds_erfcx_pos(x):
    # erfcx(x) = exp(x^2) erfc(x) for x >= 0: (1 + 2x) erfcx(x) as a Chebyshev series in
    # t = (x - 3) / (x + 3), which maps [0, inf) to [-1, 1); 1 / (x sqrt(pi)) far out.
    if x.dtype == tl.float64:
        far: tl.constexpr = 134217728.0
        coeffs: tl.constexpr = (-5.608608218863183e-18, -2.0572528169538546e-18, 1.0006111691821667e-16,
             2.3514112258781403e-16, -1.5169878690228116e-15, -7.287943737592673e-15,
             1.973425574544739e-14, 1.8134502003176963e-13, -2.07922492859799e-13,
             -4.277340064396911e-12, 1.475715976623473e-12, 1.0361607445969489e-10,
             -1.460079119939105e-11, -2.699519049798364e-09, 1.885668523838603e-09,
             7.549828343825093e-08, -1.807522790414837e-07, -2.0072285659059913e-06,
             1.2841532864056671e-05, 1.7661719523171593e-05, -0.0006335531710553147,
             0.004453426061462712, -0.018976596707845208, 0.05436652555744322, -0.09377550342284209,
             0.005353904539615676, 1.17756257419656)
    else:
        far: tl.constexpr = 4096.0
        coeffs: tl.constexpr = (7.549828495712063e-08, -1.807522806984707e-07, -2.0072286588401766e-06,
             1.284153313463321e-05, 1.7661719539319165e-05, -0.000633553194347769,
             0.004453426226973534, -0.018976597115397453, 0.05436652526259422, -0.09377550333738327,
             0.005353904329240322, 1.1775625944137573)
    xs = tl.minimum(x, far)
    t = tl.div_rn(xs - 3.0, xs + 3.0)
    r = tl.div_rn(_lds_cheb(t, coeffs), 1.0 + 2.0 * xs)
    return tl.where(x >= far, tl.div_rn(tl.zeros_like(x) + 0.5641895835477563, x), r)


@triton.jit
def _lds_exp_dw(h, l):
    # exp(h + l) for |l| at most an ulp of h.
    return tl.exp(h) * (1.0 + l)


@triton.jit
def _lds_erfc_dw(zh, zl):
    # erfc(zh + zl) for zh >= 0 (zl a small correction): exp(-z^2) erfcx(z) with z^2 as a
    # rounded square and its error, and erfcx's first-order term in zl.
    e = _lds_erfcx_pos(zh)
    e = e + zl * (2.0 * zh * e - 1.1283791670955126)
    h = zh * zh
    l = tl.fma(zh, zh, -h) + 2.0 * zh * zl
    return tl.where(zh == float("inf"), 0.0, _lds_exp_dw(-h, -l) * e)


@triton.jit
def _lds_erfc_any(zh, zl):
    # erfc(zh + zl) on the whole line: 2 - erfc(-z) below 0.
    neg = zh < 0
    r = _lds_erfc_dw(tl.abs(zh), tl.where(neg, zl * -1.0, zl))
    r = tl.where(neg, 2.0 - r, r)
    return tl.where(zh != zh, zh, r)


@triton.jit
def _lds_erfc(x):
    v = _ldt_in(x)
    return _ldt_out(_lds_erfc_any(v, tl.zeros_like(v)), x)


@triton.jit
def _lds_erfcx(x):
    v = _ldt_in(x)
    a = tl.abs(v)
    h = a * a
    l = tl.fma(a, a, -h)
    # Below 0: 2 exp(x^2) - erfcx(-x) (no cancellation: 2 exp(x^2) >= 2 > erfcx).
    r = tl.where(v < 0, 2.0 * _lds_exp_dw(h, l) - _lds_erfcx_pos(a), _lds_erfcx_pos(a))
    r = tl.where(v == -float("inf"), float("inf"), r)
    return _ldt_out(tl.where(v != v, v, r), x)


@triton.jit
def _lds_normcdf(x):
    # erfc(-x / sqrt(2)) / 2, the argument as a rounded product and its error.
    v = _ldt_in(x)
    if v.dtype == tl.float64:
        c_hi: tl.constexpr = -0.7071067811865476
        c_lo: tl.constexpr = 4.833646656726463e-17
    else:
        c_hi: tl.constexpr = -0.7071067690849304
        c_lo: tl.constexpr = -1.210161710447897e-08
    zh = v * c_hi
    zl = tl.fma(v, c_hi, -zh) + v * c_lo
    zl = tl.where(tl.abs(v) == float("inf"), 0.0, zl)
    return _ldt_out(0.5 * _lds_erfc_any(zh, zl), x)


@triton.jit
def _lds_erfinv_centre(y):
    # erfinv(y) for |y| <= 1/2: its Maclaurin series to y^9, then Newton on erf.
    w = 0.886226925452758 * y
    w2 = w * w
    x = w * (1.0 + w2 * (0.3333333333333333 + w2 * (0.23333333333333334 + w2 * (0.20158730158730159
             + w2 * 0.19263668430335097))))
    for _ in tl.static_range(3):
        x = x - (tl.erf(x) - y) * 0.886226925452758 * tl.exp(x * x)
    return x


@triton.jit
def _lds_erfcinv_tail(q):
    # erfcinv(q) for 0 < q <= 1/2: from sqrt(w - log(pi w) / 2), w = -log q, Newton on
    # log erfc(x) = -x^2 + log erfcx(x), which does not underflow.
    lq = tl.log(q)
    w = -lq
    x = tl.sqrt(w - 0.5 * tl.log(3.141592653589793 * w))
    if q.dtype == tl.float64:
        steps: tl.constexpr = 4
    else:
        steps: tl.constexpr = 3
    for _ in tl.static_range(steps):
        e = _lds_erfcx_pos(x)
        x = x + (tl.log(e) - x * x - lq) * e * 0.886226925452758
    return x


@triton.jit
def _lds_erfcinv_any(q):
    centre = (q >= 0.5) & (q <= 1.5)
    c = _lds_erfinv_centre(tl.where(centre, 1.0 - q, 0.0))
    upper = q > 1.5
    t = _lds_erfcinv_tail(tl.where(centre, 0.5, tl.where(upper, 2.0 - q, q)))
    r = tl.where(centre, c, tl.where(upper, t * -1.0, t))
    r = tl.where(q == 0, float("inf"), tl.where(q == 2, -float("inf"), r))
    return tl.where((q < 0) | (q > 2) | (q != q), float("nan"), r)


@triton.jit
def _lds_erfcinv(x):
    return _ldt_out(_lds_erfcinv_any(_ldt_in(x)), x)


@triton.jit
def _lds_erfinv(x):
    v = _ldt_in(x)
    a = tl.abs(v)
    r = tl.where(a <= 0.5, _lds_erfinv_centre(tl.where(a <= 0.5, v, 0.0)),
                 _ld_copysign(_lds_erfcinv_any(1.0 - a), v))
    return _ldt_out(tl.where(a > 1, float("nan"), r), x)


@triton.jit
def _lds_normcdfinv(x):
    # -sqrt(2) erfcinv(2p), sqrt(2) in two parts.
    v = _ldt_in(x)
    if v.dtype == tl.float64:
        s_hi: tl.constexpr = -1.4142135623730951
        s_lo: tl.constexpr = 9.667293313452906e-17
    else:
        s_hi: tl.constexpr = -1.4142135381698608
        s_lo: tl.constexpr = -2.420323420895794e-08
    r = _lds_erfcinv_any(2.0 * v)
    return _ldt_out(tl.where(tl.abs(r) == float("inf"), r * s_hi, tl.fma(r, s_hi, r * s_lo)), x)
)PRELUDE";
}

void registerSpecialLibdevice(BuiltinTable &t) {
  std::vector<LibdevicePrelude> entries;
  for (const char *name :
       {"fmod", "remainder", "erfc", "erfcx", "normcdf", "erfinv", "erfcinv", "normcdfinv"})
    entries.push_back({name, std::string("_lds_") + name, {}});
  addLibdevicePrelude(t, entries);
}

} // namespace trident::frontend
