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
//   lgamma, tgamma    series of lgamma(1 + u) / u and lgamma(2 + u) / u near the zeros
//                     at 1 and 2, the recurrence below 10, Stirling's series above,
//                     the reflection formula below 0
//   cyl_bessel_i0/i1  the power series up to 30 (fp64; 15 for fp32), the asymptotic
//                     series above with exp(x) split in two against early overflow
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
)PRELUDE";
}

void registerSpecialLibdevice(BuiltinTable &t) {
  std::vector<LibdevicePrelude> entries;
  for (const char *name : {"fmod", "remainder"})
    entries.push_back({name, std::string("_lds_") + name, {}});
  addLibdevicePrelude(t, entries);
}

} // namespace trident::frontend
