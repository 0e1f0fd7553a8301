// libdevice's directed roundings (add/sub/mul/div/rcp/sqrt/fma _rz _rd _ru) and its
// conversions with a rounding mode (double2float_rd, ll2float_ru, float2int_rz ...),
// written in the Triton language so that they are exact on every target. Each one
// computes the round-to-nearest result r and the sign of the exact error v - r with an
// error-free transformation, then steps r to its neighbour where the mode asks:
//   add, sub   TwoSum's error (exact for any operands)
//   mul        the operands scaled into [1, 2) by powers of two, r scaled alike, and
//              fma(a', b', -r'): exact sign even when r is subnormal or zero
//   div, rcp   the residual fma(-q', b', a') of the scaled operands
//   sqrt       the residual fma(-s', s', x') with x scaled by an even power of two
//   fma        Boldo and Muller's ErrFma ("Exact and approximated error of the FMA",
//              2011), with the small operands scaled by 2^S where a*b would underflow
//   conversions  the rounded value converted back exactly and compared
// Overflow follows IEEE (toward zero and away from the overflow: the largest finite
// value), and an exact zero sum rounds down to -0. Inexact products that feed a
// TwoSum are computed as fma(a, b, 0) so that no backend contracts them.

#include "CodeGen.h"

#include <initializer_list>
#include <tuple>

namespace trident::frontend {

const char *roundingPreludeSource() {
  return R"PRELUDE(

@triton.jit
def _ldr_in(x):
    x = _ld_float(x)
    tl.static_assert((x.dtype == tl.float32) | (x.dtype == tl.float64),
                     "libdevice's directed roundings take fp32 or fp64")
    return x


@triton.jit
def _ldr_pow2(n, x):
    # 2^n in x's type, n an int32 tensor in the normal exponent range.
    if x.dtype == tl.float64:
        return ((n.to(tl.int64) + 1023) << 52).to(tl.float64, bitcast=True)
    else:
        return ((n + 127) << 23).to(tl.float32, bitcast=True)


@triton.jit
def _ldr_scale(x, n):
    # x * 2^n, exact when the result is normal or zero: three powers of two of one
    # direction, so that the partial products lie between x and the result.
    if x.dtype == tl.float64:
        lim: tl.constexpr = 1000
    else:
        lim: tl.constexpr = 120
    n1 = tl.minimum(tl.maximum(n, -lim), lim)
    n2 = tl.minimum(tl.maximum(n - n1, -lim), lim)
    return x * _ldr_pow2(n1, x) * _ldr_pow2(n2, x) * _ldr_pow2(n - n1 - n2, x)


@triton.jit
def _ldr_finite(x):
    return tl.abs(x) < float("inf")


@triton.jit
def _ldr_norm(x):
    # x scaled to a magnitude in [1, 2) and its exponent (0 for zero, infinities, NaN).
    ok = (x != 0) & _ldr_finite(x)
    e = tl.where(ok, _ld_ilogb(tl.where(ok, x, 1.0)), 0)
    return _ldr_scale(x, -e), e


@triton.jit
def _ldr_round(r, e, mode: tl.constexpr):
    # r = rn(v) and e of the sign of v - r (0 when r is exact): v rounded toward zero
    # (mode 0), down (1) or up (2).
    if mode == 0:
        step = ((r > 0) & (e < 0)) | ((r < 0) & (e > 0))
        return tl.where(step, _ld_nextafter(r, 0.0), r)
    elif mode == 1:
        return tl.where(e < 0, _ld_nextafter(r, -float("inf")), r)
    else:
        return tl.where(e > 0, _ld_nextafter(r, float("inf")), r)


@triton.jit
def _ldr_two_sum_err(a, b, s):
    t = s - a
    return (a - (s - t)) + (b - t)


@triton.jit
def _ldr_signed_zero(neg, like):
    return (tl.where(neg, -1.0, 1.0) * 0.0).to(like.dtype)


@triton.jit
def _ldr_add(x, y, mode: tl.constexpr):
    a = _ldr_in(x)
    b = tl.to_tensor(y).to(a.dtype)
    a, b = tl.broadcast(a, b)
    s = a + b
    finite = _ldr_finite(a) & _ldr_finite(b)
    e = tl.where(tl.abs(s) == float("inf"), -s, _ldr_two_sum_err(a, b, s))
    r = _ldr_round(s, tl.where(finite, e, 0.0), mode)
    if mode == 1:
        # An exact zero sum is -0 when rounding down unless both operands are +0.
        r = tl.where(s == 0, _ldr_signed_zero((_ld_signbit(a) | _ld_signbit(b)) != 0, s), r)
    return r


@triton.jit
def _ldr_sub(x, y, mode: tl.constexpr):
    a = _ldr_in(x)
    # (0 - y would turn -0 into +0.)
    return _ldr_add(a, tl.to_tensor(y).to(a.dtype) * -1.0, mode)


@triton.jit
def _ldr_mul_err(a, b, p):
    # The sign of a * b - p for p = rn(a * b) and finite a, b: the product of the scaled
    # operands, near [1, 4), minus p scaled alike (exact: p is subnormal or 0 at worst).
    an, ea = _ldr_norm(a)
    bn, eb = _ldr_norm(b)
    return tl.fma(an, bn, -_ldr_scale(p, -(ea + eb)))


@triton.jit
def _ldr_mul(x, y, mode: tl.constexpr):
    a = _ldr_in(x)
    b = tl.to_tensor(y).to(a.dtype)
    a, b = tl.broadcast(a, b)
    p = a * b
    finite = _ldr_finite(a) & _ldr_finite(b)
    return _ldr_round(p, tl.where(finite, _ldr_mul_err(a, b, p), 0.0), mode)


@triton.jit
def _ldr_div(x, y, mode: tl.constexpr):
    a = _ldr_in(x)
    b = tl.to_tensor(y).to(a.dtype)
    a, b = tl.broadcast(a, b)
    q = tl.div_rn(a, b)
    an, ea = _ldr_norm(a)
    bn, eb = _ldr_norm(b)
    # a/b - q has the sign of (a' - q' b') * b'.
    e = tl.fma(-_ldr_scale(q, eb - ea), bn, an)
    e = tl.where(bn < 0, -e, e)
    ok = _ldr_finite(a) & _ldr_finite(b) & (b != 0)
    return _ldr_round(q, tl.where(ok, e, 0.0), mode)


@triton.jit
def _ldr_rcp(x, mode: tl.constexpr):
    a = _ldr_in(x)
    return _ldr_div((a != a).to(a.dtype) * 0.0 + 1.0, a, mode)


@triton.jit
def _ldr_sqrt(x, mode: tl.constexpr):
    a = _ldr_in(x)
    s = tl.sqrt_rn(a)
    ok = (a > 0) & (a < float("inf"))
    e = tl.where(ok, _ld_ilogb(tl.where(ok, a, 1.0)), 0)
    k = e - (e & 1)
    r = tl.fma(-_ldr_scale(s, -(k >> 1)), _ldr_scale(s, -(k >> 1)), _ldr_scale(a, -k))
    return _ldr_round(s, tl.where(ok, r, 0.0), mode)


@triton.jit
def _ldr_fma_err(a, b, c, r):
    # ErrFma: a * b + c - r = g2 + (a rest below half its ulp) for r = rn(a * b + c), when
    # |a * b| is far enough above the subnormals for a * b - p to be a float.
    p = tl.fma(a, b, 0.0)
    pe = tl.fma(a, b, -p)
    a1 = c + pe
    a2 = _ldr_two_sum_err(c, pe, a1)
    b1 = p + a1
    b2 = _ldr_two_sum_err(p, a1, b1)
    g = (b1 - r) + b2
    return g + a2


@triton.jit
def _ldr_fma(x, y, z, mode: tl.constexpr):
    a = _ldr_in(x)
    b = tl.to_tensor(y).to(a.dtype)
    c = tl.to_tensor(z).to(a.dtype)
    a, b = tl.broadcast(a, b)
    a, c = tl.broadcast(a, c)
    b, c = tl.broadcast(b, c)
    r = tl.fma(a, b, c)
    if a.dtype == tl.float64:
        t1: tl.constexpr = 3.2066693760143564e-291  # 2^-965
        t2: tl.constexpr = 2.310648801106982e-274  # 2^-909
        big: tl.constexpr = 1.0715086071862673e+301  # 2^1000
        huge: tl.constexpr = 8.98846567431158e+307  # 2^1023
        tiny: tl.constexpr = 3.5601181736115222e-307  # 2^-1018
    else:
        t1: tl.constexpr = 3.1554436208840472e-30  # 2^-98
        t2: tl.constexpr = 4.235164736271502e-22  # 2^-71
        big: tl.constexpr = 1.2676506002282294e+30  # 2^100
        huge: tl.constexpr = 1.7014118346046923e+38  # 2^127
        tiny: tl.constexpr = 1.8807909613156600e-37  # 2^-122
    p = tl.fma(a, b, 0.0)
    # |a * b| >= 2^t1: ErrFma as it is.
    e = _ldr_fma_err(a, b, c, r)
    # c = 0: the product's error.
    e = tl.where((tl.abs(p) < t1) & (c == 0), _ldr_mul_err(a, b, p), e)
    # |a * b| below an eighth of c's ulp: r = c, the error is a * b.
    prod_sign = tl.where((a == 0) | (b == 0), 0.0, tl.where((a < 0) != (b < 0), -1.0, 1.0))
    e = tl.where((tl.abs(p) < t1) & (tl.abs(c) >= t2), prod_sign, e)
    # Both small: the smaller operand and c, r scaled by 2^S; then r differs from the
    # scaled rn result (giving the sign) or equals it (ErrFma's sign).
    small_a = tl.abs(a) < tl.abs(b)
    a2 = tl.where(small_a, a * big, a)
    b2 = tl.where(small_a, b, b * big)
    c2 = c * big
    r2 = r * big
    r1 = tl.fma(a2, b2, c2)
    e2 = tl.where(r1 != r2, r1 - r2, _ldr_fma_err(a2, b2, c2, r1))
    e2 = tl.where(tl.abs(tl.fma(a2, b2, 0.0)) < t1, prod_sign, e2)
    e = tl.where((tl.abs(p) < t1) & (c != 0) & (tl.abs(c) < t2), e2, e)
    # a * b, c or r near the overflow (where TwoSum could overflow): the larger operand, c and r scaled by 1/16, all
    # exactly (r is far from the subnormals); a c below 2^(emin + 4) rounds a * b + c as
    # any c of its sign that small does, and 2^(emin + 4) scales exactly.
    large_a = tl.abs(a) >= tl.abs(b)
    a3 = tl.where(large_a, a * 0.0625, a)
    b3 = tl.where(large_a, b, b * 0.0625)
    c3 = tl.where((tl.abs(c) < tiny) & (c != 0), _ld_copysign(c * 0.0 + tiny, c), c)
    near_overflow = (tl.abs(p) >= huge) | (((tl.abs(c) >= huge) | (tl.abs(r) >= huge)) & (tl.abs(p) >= t1))
    e = tl.where(near_overflow, _ldr_fma_err(a3, b3, c3 * 0.0625, r * 0.0625), e)
    finite = _ldr_finite(a) & _ldr_finite(b) & _ldr_finite(c)
    e = tl.where(finite & (tl.abs(r) == float("inf")), -r, e)
    res = _ldr_round(r, tl.where(finite, e, 0.0), mode)
    if mode == 1:
        # An exact zero (e = 0 and r = 0) is -0 unless a * b and c are both +0 or positive.
        neg = (_ld_signbit(c) != 0) | ((_ld_signbit(a) ^ _ld_signbit(b)) != 0)
        res = tl.where((r == 0) & (e == 0) & finite, _ldr_signed_zero(neg, r), res)
    return res


@triton.jit
def _ldr_d2f(x, mode: tl.constexpr):
    # fp64 to fp32: the difference to the rounded value is exact in fp64 (-inf past the
    # largest float, which rounds back to it where the mode says).
    v = tl.to_tensor(x).to(tl.float64)
    f = v.to(tl.float32)
    if mode == 3:
        return f
    return _ldr_round(f, tl.where(v != v, 0.0, v - f.to(tl.float64)), mode)


@triton.jit
def _ldr_float_to_int(x, mode: tl.constexpr, bits: tl.constexpr, signed: tl.constexpr):
    # Rounded to an integer by the mode (3: to nearest even), then saturated as PTX's cvt:
    # NaN gives 0. Unsigned results come as the signed type of their width, as in Triton.
    v = _ldr_in(x)
    if mode == 0:
        r = _ld_trunc(v)
    elif mode == 1:
        r = tl.floor(v)
    elif mode == 2:
        r = tl.ceil(v)
    else:
        r = _ld_rint(v)
    if signed:
        lo: tl.constexpr = -(2.0 ** (bits - 1))
        top: tl.constexpr = 2.0 ** (bits - 1)
    else:
        lo: tl.constexpr = 0.0
        top: tl.constexpr = 2.0 ** bits
    big = r >= top
    small = r < lo
    safe = tl.where(big | small | (r != r), 0.0, r)
    if bits == 64:
        if signed:
            n = safe.to(tl.int64)
            return tl.where(big, 9223372036854775807, tl.where(small, -9223372036854775808, n))
        else:
            n = safe.to(tl.uint64).to(tl.int64, bitcast=True)
            return tl.where(big, -1, n)
    else:
        if signed:
            n = safe.to(tl.int32)
            return tl.where(big, 2147483647, tl.where(small, -2147483648, n))
        else:
            n = safe.to(tl.uint32).to(tl.int32, bitcast=True)
            return tl.where(big, -1, n)


@triton.jit
def _ldr_int_to_float(x, mode: tl.constexpr, bits: tl.constexpr, signed: tl.constexpr, f64: tl.constexpr):
    # The rounded value converted back (exactly: it is an integer within range, or the
    # power of two just past it) and compared.
    if bits == 64:
        src: tl.constexpr = tl.int64 if signed else tl.uint64
    else:
        src: tl.constexpr = tl.int32 if signed else tl.uint32
    v = tl.to_tensor(x).to(src, bitcast=tl.to_tensor(x).dtype.primitive_bitwidth == bits)
    f = v.to(tl.float64 if f64 else tl.float32)
    if mode == 3:
        return f
    if signed:
        top: tl.constexpr = 2.0 ** (bits - 1)
    else:
        top: tl.constexpr = 2.0 ** bits
    over = f >= top
    back = tl.where(over, 0.0, f).to(src)
    e = tl.where(over | (v < back), -1.0, tl.where(v > back, 1.0, 0.0))
    return _ldr_round(f, e, mode)


@triton.jit
def _ld_hiloint2double(hi, lo):
    h = tl.to_tensor(hi).to(tl.int32).to(tl.int64)
    l = tl.to_tensor(lo).to(tl.int32).to(tl.uint32, bitcast=True).to(tl.int64)
    return ((h << 32) | l).to(tl.float64, bitcast=True)


@triton.jit
def _ld_double2loint(x):
    return (tl.to_tensor(x).to(tl.float64).to(tl.int64, bitcast=True) & 0xFFFFFFFF).to(tl.int32)


@triton.jit
def _ld_double2hiint(x):
    return (tl.to_tensor(x).to(tl.float64).to(tl.int64, bitcast=True) >> 32).to(tl.int32)
)PRELUDE";
}

void registerRoundingLibdevice(BuiltinTable &t) {
  // The rounding modes of the prelude functions: 0 toward zero, 1 down, 2 up, 3 nearest.
  const char *modes[] = {"rz", "rd", "ru", "rn"};
  std::vector<LibdevicePrelude> entries;
  for (int m = 0; m < 3; ++m) {
    std::string suffix = std::string("_") + modes[m];
    for (const char *op : {"add", "sub", "mul", "div", "rcp", "sqrt", "fma"})
      entries.push_back({op + suffix, std::string("_ldr_") + op, {m}});
  }
  for (int m = 0; m < 4; ++m) {
    std::string suffix = std::string("_") + modes[m];
    entries.push_back({"double2float" + suffix, "_ldr_d2f", {m}});
    // Floating point to integers: {name, bits, signed}.
    using ToInt = std::tuple<const char *, int, int>;
    for (auto [name, bits, isSigned] : std::initializer_list<ToInt>{{"double2int", 32, 1},
                                                                    {"double2uint", 32, 0},
                                                                    {"float2int", 32, 1},
                                                                    {"float2uint", 32, 0},
                                                                    {"double2ll", 64, 1},
                                                                    {"double2ull", 64, 0},
                                                                    {"float2ll", 64, 1},
                                                                    {"float2ull", 64, 0}})
      entries.push_back({name + suffix, "_ldr_float_to_int", {m, bits, isSigned}});
    // Integers to floating point: {name, bits, signed, f64}; int32 to fp64 is exact.
    using ToFloat = std::tuple<const char *, int, int, int>;
    for (auto [name, bits, isSigned, f64] : std::initializer_list<ToFloat>{{"int2float", 32, 1, 0},
                                                                           {"uint2float", 32, 0, 0},
                                                                           {"ll2float", 64, 1, 0},
                                                                           {"ull2float", 64, 0, 0},
                                                                           {"ll2double", 64, 1, 1},
                                                                           {"ull2double", 64, 0, 1}})
      entries.push_back({name + suffix, "_ldr_int_to_float", {m, bits, isSigned, f64}});
  }
  entries.push_back({"int2double_rn", "_ldr_int_to_float", {3, 32, 1, 1}});
  entries.push_back({"uint2double_rn", "_ldr_int_to_float", {3, 32, 0, 1}});
  for (const char *name : {"hiloint2double", "double2loint", "double2hiint"})
    entries.push_back({name, std::string("_ld_") + name, {}});
  addLibdevicePrelude(t, entries);
}

} // namespace trident::frontend
