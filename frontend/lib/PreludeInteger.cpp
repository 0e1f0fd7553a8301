// libdevice's integer helpers and the last float ones, written in the Triton language:
//   mul24, hadd, rhadd, sad, byte_perm   exact, as CUDA documents them (through 64-bit
//                   intermediates, so that nothing overflows); the unsigned forms
//                   (umul24, uhadd, urhadd, usad) when the first operand is unsigned
//   rsqrt_rn        1 / sqrt(x) correctly rounded (fp32): a candidate from fp64's sqrt, then
//                   the midpoints next to it tested exactly (m^2 x - 1 with m^2 exact in
//                   fp64 and one fma, whose sign is exact)
//   norm3d, norm4d, rnorm3d, rnorm4d   the operands scaled by a power of two (exact),
//                   the squares summed with fma, infinities before NaN (as hypot)
// rcp64h (PreludeLibdevice.cpp) is the hardware's approximation (PTX rcp.approx.ftz.f64):
// that instruction on cuda targets, refused with the target's name elsewhere.

#include "CodeGen.h"

namespace trident::frontend {

const char *integerPreludeSource() {
  return R"PRELUDE(

@triton.jit
def _ldi_args(x, y):
    x = _ld_int(x)
    y = tl.to_tensor(y)
    tl.static_assert(x.dtype.primitive_bitwidth == 32, "this libdevice function takes 32-bit integers")
    return x, y.to(x.dtype)


@triton.jit
def _ld_mul24(x, y):
    # The low 32 bits of the product of the low 24 bits (sign-extended for int32).
    x, y = _ldi_args(x, y)
    if x.dtype.is_int_signed():
        a = ((x << 8) >> 8).to(tl.int64)
        b = ((y << 8) >> 8).to(tl.int64)
        return ((a * b) & 0xFFFFFFFF).to(tl.uint32).to(tl.int32, bitcast=True)
    else:
        a = (x & 0xFFFFFF).to(tl.uint64)
        b = (y & 0xFFFFFF).to(tl.uint64)
        return ((a * b) & 0xFFFFFFFF).to(tl.uint32)


@triton.jit
def _ldi_half_sum(x, y, r):
    # (x + y + r) >> 1 without overflow.
    x, y = _ldi_args(x, y)
    if x.dtype.is_int_signed():
        return ((x.to(tl.int64) + y.to(tl.int64) + r) >> 1).to(tl.int32)
    else:
        return ((x.to(tl.uint64) + y.to(tl.uint64) + r) >> 1).to(tl.uint32)


@triton.jit
def _ld_hadd(x, y):
    return _ldi_half_sum(x, y, 0)


@triton.jit
def _ld_rhadd(x, y):
    return _ldi_half_sum(x, y, 1)


@triton.jit
def _ld_sad(x, y, z):
    # |x - y| + z modulo 2^32.
    x, y = _ldi_args(x, y)
    if x.dtype.is_int_signed():
        d = x.to(tl.int64) - y.to(tl.int64)
    else:
        d = x.to(tl.uint64).to(tl.int64) - y.to(tl.uint64).to(tl.int64)
    zb = tl.to_tensor(z).to(tl.int32).to(tl.uint32, bitcast=True).to(tl.int64)
    r = ((tl.where(d < 0, -d, d) + zb) & 0xFFFFFFFF).to(tl.uint32)
    if x.dtype.is_int_signed():
        return r.to(tl.int32, bitcast=True)
    else:
        return r


@triton.jit
def _ld_byte_perm(x, y, s):
    # Byte n of the result is byte ((s >> 4n) & 7) of the 8 bytes y:x (x's bytes 0 to 3).
    xb = tl.to_tensor(x).to(tl.int32).to(tl.uint32, bitcast=True).to(tl.uint64)
    yb = tl.to_tensor(y).to(tl.int32).to(tl.uint32, bitcast=True).to(tl.uint64)
    sb = tl.to_tensor(s).to(tl.int32).to(tl.uint32, bitcast=True)
    v = (yb << 32) | xb
    r = xb * 0
    for n in tl.static_range(4):
        sel = ((sb >> (4 * n)) & 7).to(tl.uint64)
        r = r | (((v >> (sel * 8)) & 0xFF) << (8 * n))
    return r.to(tl.uint32).to(tl.int32, bitcast=True)


@triton.jit
def _ld_rsqrt_rn(x):
    v = _ld_float(x)
    tl.static_assert(v.dtype != tl.float64, "libdevice.rsqrt_rn takes fp32 (libdevice has no fp64 one)")
    v = v.to(tl.float32)
    d = v.to(tl.float64)
    c = tl.div_rn(1.0, tl.sqrt_rn(tl.where(d > 0, d, 1.0))).to(tl.float32)
    b = c.to(tl.uint32, bitcast=True)
    up = (b + 1).to(tl.float32, bitcast=True).to(tl.float64)
    dn = (b - 1).to(tl.float32, bitcast=True).to(tl.float64)
    cd = c.to(tl.float64)
    # 1 / sqrt(x) > m exactly when m^2 x < 1.
    m_hi = 0.5 * (cd + up)
    m_lo = 0.5 * (cd + dn)
    r = tl.where(tl.fma(m_hi * m_hi, d, -1.0) < 0, up, tl.where(tl.fma(m_lo * m_lo, d, -1.0) > 0, dn, cd))
    r = r.to(tl.float32)
    r = tl.where(v == float("inf"), 0.0, r)
    r = tl.where(v == 0, tl.div_rn(1.0, v), r)
    r = tl.where((v < 0) | (v != v), float("nan"), r)
    return _ldt_out(r, x)


@triton.jit
def _ldi_norm(a, b, c, d, recip: tl.constexpr):
    # sqrt(a^2 + b^2 + c^2 + d^2) (or its reciprocal), scaled by 2^-e for the largest
    # exponent e so that nothing overflows or underflows early.
    m = tl.maximum(tl.maximum(tl.abs(a), tl.abs(b)), tl.maximum(tl.abs(c), tl.abs(d)))
    fine = (m > 0) & (m < float("inf"))
    e = _ld_ilogb(tl.where(fine, m, 1.0))
    a = _ldr_scale(a, -e)
    b = _ldr_scale(b, -e)
    c = _ldr_scale(c, -e)
    d = _ldr_scale(d, -e)
    s = tl.fma(a, a, tl.fma(b, b, tl.fma(c, c, d * d)))
    if recip:
        r = _ldr_scale(tl.div_rn(1.0, tl.sqrt_rn(s)), -e)
        r = tl.where(m == 0, float("inf"), r)
        r = tl.where(m != m, m, r)
        return tl.where(m == float("inf"), 0.0, r)
    else:
        r = _ldr_scale(tl.sqrt_rn(s), e)
        r = tl.where(m == 0, 0.0, r)
        r = tl.where(m != m, m, r)
        return tl.where(m == float("inf"), m, r)


@triton.jit
def _ldi_norm_in(a, b, c, d):
    a = _ldt_in(a)
    return a, tl.to_tensor(b).to(a.dtype), tl.to_tensor(c).to(a.dtype), tl.to_tensor(d).to(a.dtype)


@triton.jit
def _ld_norm3d(a, b, c):
    x, y, z, w = _ldi_norm_in(a, b, c, 0.0)
    return _ldt_out(_ldi_norm(x, y, z, w, False), a)


@triton.jit
def _ld_rnorm3d(a, b, c):
    x, y, z, w = _ldi_norm_in(a, b, c, 0.0)
    return _ldt_out(_ldi_norm(x, y, z, w, True), a)


@triton.jit
def _ld_norm4d(a, b, c, d):
    x, y, z, w = _ldi_norm_in(a, b, c, d)
    return _ldt_out(_ldi_norm(x, y, z, w, False), a)


@triton.jit
def _ld_rnorm4d(a, b, c, d):
    x, y, z, w = _ldi_norm_in(a, b, c, d)
    return _ldt_out(_ldi_norm(x, y, z, w, True), a)
)PRELUDE";
}

void registerIntegerLibdevice(BuiltinTable &t) {
  std::vector<LibdevicePrelude> entries;
  for (const char *name : {"mul24", "hadd", "rhadd", "sad", "byte_perm", "rsqrt_rn", "norm3d", "rnorm3d", "norm4d",
                           "rnorm4d"})
    entries.push_back({name, std::string("_ld_") + name, {}});
  addLibdevicePrelude(t, entries);
}

} // namespace trident::frontend
