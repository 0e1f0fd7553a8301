# libdevice's lgamma, tgamma, Bessel functions and integer helpers (Trident's prelude:
# PreludeGamma.cpp, PreludeBessel.cpp, PreludeInteger.cpp), imported as kernels do, for
# the targets' tool tests.
import triton
import triton.language as tl
from triton.language.extra import libdevice
from triton.language.extra.cuda.libdevice import lgamma, jn, byte_perm


@triton.jit
def gamma_bessel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = i < n
    # x in (0, 20], rounded to nearest on every target (Triton's fp32 `/` is div.full.f32 on
    # CUDA, within 2 ulp, which near the Bessel functions' zeros moves them by 1e-5 and more)
    x = tl.div_rn(tl.load(x_ptr + i, mask=mask) + 1, 10.0)
    order = i % 7
    bits = i * 40503
    results = (lgamma(x), libdevice.tgamma(x), libdevice.tgamma(0.25 - x), libdevice.j0(x), libdevice.j1(x),
               libdevice.y0(x), libdevice.y1(1.07 * x), jn(order, x), libdevice.yn(order, x),
               libdevice.cyl_bessel_i0(x), libdevice.cyl_bessel_i1(-x), libdevice.rsqrt_rn(x),
               libdevice.norm3d(x, 1.5, -x), libdevice.rnorm4d(x, x, 2.0, 0.5),
               libdevice.mul24(bits, 1000 - i).to(tl.float32), libdevice.sad(bits, 77, 5).to(tl.float32),
               libdevice.hadd(bits, -i).to(tl.float32), libdevice.rhadd(bits, i).to(tl.float32),
               (byte_perm(bits, i, 0x3715) & 0xFFFF).to(tl.float32))
    for k in tl.static_range(len(results)):
        tl.store(out_ptr + k * n + i, results[k], mask=mask)
