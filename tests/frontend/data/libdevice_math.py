# libdevice's transcendentals that Trident composes from the block IR's math ops
# (tanh, pow, atan2 ...), in the way kernels import them, for the targets' tool tests.
import triton
import triton.language as tl
from triton.language.extra import libdevice
from triton.language.extra.cuda.libdevice import tanh, pow


@triton.jit
def transcendentals(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = i < n
    # x in [-1, 1), rounded to nearest on every target (Triton's fp32 `/` is div.full.f32 on
    # CUDA, within 2 ulp)
    x = tl.div_rn(tl.load(x_ptr + i, mask=mask) - n // 2, (n // 2).to(tl.float32))
    results = (tanh(3 * x), pow(1.5 + x, 2.5 * x), libdevice.atan2(x, 0.5 - x), libdevice.asin(x),
               libdevice.acos(x), libdevice.expm1(x), libdevice.log1p(x + 1.5), libdevice.exp10(4 * x),
               libdevice.sinh(5 * x), libdevice.cbrt(100 * x), libdevice.sinpi(3 * x), libdevice.atanh(0.9 * x))
    for k in tl.static_range(len(results)):
        tl.store(out_ptr + k * n + i, results[k], mask=mask)
