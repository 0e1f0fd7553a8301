// libdevice's transcendental functions that the block IR has no op for, written in
// the Triton language from its exp, exp2, log, log2, sqrt, sin, cos and fma, with
// the formulas that keep their accuracy where the naive ones lose it:
//   expm1, log1p   Kahan's compensations (exact where exp(x) or 1 + x rounds to 1)
//   tanh, sinh, cosh, asinh, acosh, atanh   through expm1 and log1p; overflow-free
//   exp10          exp2 of log2(10) * x split into a rounded product and its fma error
//   pow            log2(|x|) split into the exponent (exact) and log2 of the mantissa,
//                  products with their fma errors, C99's special cases
//   atan, atan2, asin, acos   one odd series on |t| <= tan(pi/12) after reducing by
//                  1/x and by pi/6, sqrt(3) carried in two parts
//   cbrt (one Newton step), hypot (scaled), tan, sinpi/cospi (exact reduction),
//   ldexp/scalbn (exact powers of two), and the bit casts.
// fp16/bf16 inputs compute in fp32. Errors measured against float64 (long double for
// fp64) are in docs/frontend.md; the targets' own exp/log/sin/cos add theirs.

#include "CodeGen.h"

namespace trident::frontend {

const char *transcendentalPreludeSource() {
  return R"PRELUDE(

@triton.jit
def _ldt_in(x):
    x = _ld_float(x)
    if x.dtype.primitive_bitwidth < 32:
        return x.to(tl.float32)
    return x


@triton.jit
def _ldt_out(r, x):
    x = tl.to_tensor(x)
    if x.dtype.primitive_bitwidth < 32:
        return r.to(x.dtype)
    return r


@triton.jit
def _ldt_expm1(x):
    u = tl.exp(x)
    um1 = u - 1.0
    r = tl.where(u == 1.0, x, um1 * (x / tl.log(u)))
    r = tl.where(um1 == -1.0, -1.0, r)
    return tl.where(u == float("inf"), u, r)


@triton.jit
def _ldt_log1p(x):
    u = 1.0 + x
    r = tl.where(u == 1.0, x, tl.log(u) * (x / (u - 1.0)))
    return tl.where(x == float("inf"), x, r)


@triton.jit
def _ld_expm1(x):
    return _ldt_out(_ldt_expm1(_ldt_in(x)), x)


@triton.jit
def _ld_log1p(x):
    return _ldt_out(_ldt_log1p(_ldt_in(x)), x)


@triton.jit
def _ld_tanh(x):
    v = _ldt_in(x)
    a = tl.abs(v)
    t = _ldt_expm1(2.0 * a)
    r = tl.where(a > 22.0, 1.0, t / (t + 2.0))
    return _ldt_out(_ld_copysign(r, v), x)


@triton.jit
def _ldt_exp_half_squared(a):
    # exp(a) / 2 for large a without overflowing before the result does.
    e = tl.exp(0.5 * a)
    return (0.5 * e) * e


@triton.jit
def _ld_sinh(x):
    v = _ldt_in(x)
    a = tl.abs(v)
    t = _ldt_expm1(a)
    r = tl.where(a > 22.0, _ldt_exp_half_squared(a), 0.5 * (t + t / (t + 1.0)))
    return _ldt_out(_ld_copysign(r, v), x)


@triton.jit
def _ld_cosh(x):
    v = _ldt_in(x)
    a = tl.abs(v)
    e = tl.exp(a)
    r = tl.where(a > 22.0, _ldt_exp_half_squared(a), 0.5 * e + 0.5 / e)
    return _ldt_out(r, x)


@triton.jit
def _ld_asinh(x):
    v = _ldt_in(x)
    a = tl.abs(v)
    big = a > 67108864.0
    s = tl.where(big, 1.0, a)
    r = _ldt_log1p(s + s * s / (1.0 + tl.sqrt(1.0 + s * s)))
    r = tl.where(big, tl.log(a) + 0.6931471805599453, r)
    return _ldt_out(_ld_copysign(r, v), x)


@triton.jit
def _ld_acosh(x):
    v = _ldt_in(x)
    big = v > 67108864.0
    t = tl.where(big, 1.0, v - 1.0)
    r = _ldt_log1p(t + tl.sqrt(t * (t + 2.0)))
    r = tl.where(v < 1.0, float("nan"), r)
    return _ldt_out(tl.where(big, tl.log(v) + 0.6931471805599453, r), x)


@triton.jit
def _ld_atanh(x):
    v = _ldt_in(x)
    a = tl.abs(v)
    r = 0.5 * _ldt_log1p((2.0 * a) / (1.0 - a))
    return _ldt_out(_ld_copysign(r, v), x)


@triton.jit
def _ld_exp10(x):
    v = _ldt_in(x)
    # log2(10) as a rounded value and the rest.
    if v.dtype == tl.float64:
        hi_c: tl.constexpr = 3.321928094887362
        lo_c: tl.constexpr = 1.661617516973592e-16
    else:
        hi_c: tl.constexpr = 3.321928024291992
        lo_c: tl.constexpr = 7.059537016037032e-08
    hi = v * hi_c
    lo = tl.fma(v, hi_c, -hi) + v * lo_c
    r = tl.exp2(hi) * (1.0 + lo * 0.6931471805599453)
    return _ldt_out(tl.where(tl.abs(hi) == float("inf"), tl.exp2(hi), r), x)


@triton.jit
def _ld_log10(x):
    v = _ldt_in(x)
    return _ldt_out(tl.log2(v) * 0.30102999566398120, x)


@triton.jit
def _ldt_split(a):
    # a > 0 finite as m * 2^e, m in [sqrt(1/2), sqrt(2)), e an integer (as a float).
    if a.dtype == tl.float64:
        tiny = a < 2.2250738585072014e-308
        s = tl.where(tiny, a * 18014398509481984.0, a)
        bits = s.to(tl.int64, bitcast=True)
        e = ((bits >> 52) & 0x7FF) - 1023
        m = ((bits & 0xFFFFFFFFFFFFF) | 0x3FF0000000000000).to(tl.float64, bitcast=True)
        e = e - tl.where(tiny, 54, 0)
    else:
        tiny = a < 1.1754943508222875e-38
        s = tl.where(tiny, a * 16777216.0, a)
        bits = s.to(tl.int32, bitcast=True)
        e = ((bits >> 23) & 0xFF) - 127
        m = ((bits & 0x7FFFFF) | 0x3F800000).to(tl.float32, bitcast=True)
        e = e - tl.where(tiny, 24, 0)
    high = m > 1.4142135623730951
    m = tl.where(high, m * 0.5, m)
    e = tl.where(high, e + 1, e)
    return m, e.to(a.dtype)


@triton.jit
def _ldt_exp2_wide(n, f):
    # 2^n * exp2(f) for an integer n beyond one exponent's range (exact powers of two).
    n1 = tl.floor(n * 0.5)
    return tl.exp2(f) * tl.exp2(n1) * tl.exp2(n - n1)


@triton.jit
def _ldt_is_odd_integer(y):
    half = y * 0.5
    return (tl.floor(y) == y) & (tl.floor(half) != half) & (tl.abs(y) != float("inf"))


@triton.jit
def _ld_pow(x, y):
    xv = _ldt_in(x)
    yv = tl.to_tensor(y).to(xv.dtype)
    xv, yv = tl.broadcast(xv, yv)
    a = tl.abs(xv)
    finite = (a > 0.0) & (a < float("inf"))
    m, e = _ldt_split(tl.where(finite, a, 1.0))
    lm = tl.log2(m)
    p = yv * e
    pe = tl.fma(yv, e, -p)
    q = yv * lm
    qe = tl.fma(yv, lm, -q)
    s = p + q
    se = (p - s) + q
    n = tl.floor(s + 0.5)
    f = (s - n) + (se + pe + qe)
    r = _ldt_exp2_wide(n, f)
    r = tl.where(s > 2000.0, float("inf"), tl.where(s < -2200.0, 0.0, r))
    # C99's special cases.
    r = tl.where(a == 0.0, tl.where(yv < 0.0, float("inf"), 0.0), r)
    r = tl.where(a == float("inf"), tl.where(yv < 0.0, 0.0, float("inf")), r)
    r = tl.where(tl.abs(yv) == float("inf"), tl.where(a == 1.0, 1.0, tl.where((a < 1.0) == (yv < 0.0), float("inf"), 0.0)), r)
    negative = _ld_signbit(xv) != 0
    r = tl.where(negative & _ldt_is_odd_integer(yv), r * -1.0, r)
    r = tl.where(negative & finite & (tl.floor(yv) != yv) & (tl.abs(yv) < float("inf")), float("nan"), r)
    r = tl.where((xv != xv) | (yv != yv), xv + yv, r)
    r = tl.where((yv == 0.0) | (xv == 1.0), 1.0, r)
    return _ldt_out(r, x)


@triton.jit
def _ldt_atan_core(t):
    # atan(t) for |t| <= tan(pi/12): t - t^3/3 + t^5/5 - ... by Horner in t^2.
    z = t * t
    if t.dtype == tl.float64:
        p = z * 0.0 + (1.0 / 31.0)
        for k in tl.static_range(14, -1, -1):
            p = (1.0 / (2 * k + 1)) - z * p
    else:
        p = z * 0.0 + (1.0 / 15.0)
        for k in tl.static_range(6, -1, -1):
            p = (1.0 / (2 * k + 1)) - z * p
    return t * p


@triton.jit
def _ldt_atan_abs(a):
    # atan(a) for a >= 0 (or NaN): by 1/a above 1, then by pi/6 above tan(pi/12).
    inv = a > 1.0
    b = tl.where(inv, 1.0 / a, a)
    if a.dtype == tl.float64:
        s3_hi: tl.constexpr = 1.7320508075688772
        s3_lo: tl.constexpr = 1.0035084221806903e-16
    else:
        s3_hi: tl.constexpr = 1.7320507764816284
        s3_lo: tl.constexpr = 3.10872488755587e-08
    shift = b > 0.2679491924311227
    t = tl.where(shift, (tl.fma(b, s3_hi, -1.0) + b * s3_lo) / (b + s3_hi), b)
    r = _ldt_atan_core(t)
    r = tl.where(shift, 0.5235987755982989 + r, r)
    r = tl.where(inv, 1.5707963267948966 - r, r)
    return tl.where(a == 1.0, 0.7853981633974483, r)


@triton.jit
def _ld_atan(x):
    v = _ldt_in(x)
    return _ldt_out(_ld_copysign(_ldt_atan_abs(tl.abs(v)), v), x)


@triton.jit
def _ld_atan2(y, x):
    yv = _ldt_in(y)
    xv = tl.to_tensor(x).to(yv.dtype)
    yv, xv = tl.broadcast(yv, xv)
    ay = tl.abs(yv)
    ax = tl.abs(xv)
    both_inf = (ay == float("inf")) & (ax == float("inf"))
    both_zero = (ay == 0.0) & (ax == 0.0)
    r = _ldt_atan_abs(tl.where(both_zero | both_inf, 1.0, ay / ax))
    r = tl.where(both_zero, 0.0, r)
    r = tl.where(_ld_signbit(xv) != 0, 3.141592653589793 - r, r)
    r = _ld_copysign(r, yv)
    return _ldt_out(tl.where((xv != xv) | (yv != yv), xv + yv, r), y)


@triton.jit
def _ld_asin(x):
    v = _ldt_in(x)
    a = tl.abs(v)
    r = _ldt_atan_abs(a / tl.sqrt((1.0 - a) * (1.0 + a)))
    return _ldt_out(_ld_copysign(r, v), x)


@triton.jit
def _ld_acos(x):
    v = _ldt_in(x)
    return _ldt_out(2.0 * _ldt_atan_abs(tl.sqrt((1.0 - v) / (1.0 + v))), x)


@triton.jit
def _ld_tan(x):
    v = _ldt_in(x)
    return _ldt_out(tl.sin(v) / tl.cos(v), x)


@triton.jit
def _ldt_sinpi_reduced(r):
    # sin(pi * r) for |r| <= 1, through |r| <= 1/2 (sin(pi (1 - r)) = sin(pi r)).
    r = tl.where(r > 0.5, 1.0 - r, tl.where(r < -0.5, -1.0 - r, r))
    return tl.sin(3.141592653589793 * r)


@triton.jit
def _ldt_mod2(v):
    # v - 2 * round(v / 2): exact, in [-1, 1].
    return v - 2.0 * _ld_rint(v * 0.5)


@triton.jit
def _ld_sinpi(x):
    v = _ldt_in(x)
    r = _ldt_sinpi_reduced(_ldt_mod2(v))
    return _ldt_out(tl.where(tl.floor(v) == v, v * 0.0, r), x)


@triton.jit
def _ld_cospi(x):
    v = _ldt_in(x)
    r = _ldt_sinpi_reduced(0.5 - tl.abs(_ldt_mod2(v)))
    return _ldt_out(r, x)


@triton.jit
def _ld_cbrt(x):
    v = _ldt_in(x)
    a = tl.abs(v)
    r = tl.exp2(tl.log2(a) * (1.0 / 3.0))
    r = r - (r * r * r - a) / (3.0 * r * r)
    r = tl.where((a == 0.0) | (a == float("inf")), a, r)
    return _ldt_out(_ld_copysign(r, v), x)


@triton.jit
def _ld_rcbrt(x):
    return _ldt_out(1.0 / _ldt_in(_ld_cbrt(x)), x)


@triton.jit
def _ld_hypot(x, y):
    xv = _ldt_in(x)
    yv = tl.to_tensor(y).to(xv.dtype)
    ax = tl.abs(xv)
    ay = tl.abs(yv)
    hi = tl.maximum(ax, ay)
    lo = tl.minimum(ax, ay)
    q = lo / tl.where(hi == 0.0, 1.0, hi)
    r = hi * tl.sqrt(1.0 + q * q)
    r = tl.where((ax != ax) | (ay != ay), ax + ay, r)
    return _ldt_out(tl.where((ax == float("inf")) | (ay == float("inf")), float("inf"), r), x)


@triton.jit
def _ld_rhypot(x, y):
    return 1.0 / _ld_hypot(x, y)


@triton.jit
def _ld_ldexp(x, n):
    v = _ldt_in(x)
    k = tl.minimum(tl.maximum(tl.to_tensor(n).to(tl.int32), -2200), 2200)
    if v.dtype != tl.float64:
        k = tl.minimum(tl.maximum(k, -300), 300)
    k1 = (k // 3).to(v.dtype)
    k3 = k.to(v.dtype) - 2.0 * k1
    return _ldt_out(v * tl.exp2(k1) * tl.exp2(k1) * tl.exp2(k3), x)


@triton.jit
def _ld_float_as_int(x):
    return tl.to_tensor(x).to(tl.float32).to(tl.int32, bitcast=True)


@triton.jit
def _ld_float_as_uint(x):
    return tl.to_tensor(x).to(tl.float32).to(tl.uint32, bitcast=True)


@triton.jit
def _ld_int_as_float(x):
    return tl.to_tensor(x).to(tl.int32).to(tl.float32, bitcast=True)


@triton.jit
def _ld_uint_as_float(x):
    return tl.to_tensor(x).to(tl.uint32).to(tl.float32, bitcast=True)


@triton.jit
def _ld_double_as_longlong(x):
    return tl.to_tensor(x).to(tl.float64).to(tl.int64, bitcast=True)


@triton.jit
def _ld_longlong_as_double(x):
    return tl.to_tensor(x).to(tl.int64).to(tl.float64, bitcast=True)
)PRELUDE";
}

} // namespace trident::frontend
