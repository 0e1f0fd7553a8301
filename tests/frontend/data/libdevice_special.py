# libdevice's directed roundings, conversions, fmod/remainder and erfc family (Trident's
# prelude: PreludeRounding.cpp, PreludeSpecial.cpp), imported as kernels do, for the
# targets' tool tests.
import triton
import triton.language as tl
from triton.language.extra import libdevice
from triton.language.extra.cuda.libdevice import add_rd, fma_ru, erfcinv


@triton.jit
def special(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = i < n
    # x in [-1, 1), rounded to nearest on every target (Triton's fp32 `/` is div.full.f32
    # on CUDA, within 2 ulp: an x an ulp away moves fmod(7.5 x, y) across a multiple of y)
    x = tl.div_rn(tl.load(x_ptr + i, mask=mask) - n // 2, (n // 2).to(tl.float32))
    y = 0.75 - x
    results = (add_rd(x, y), libdevice.sub_ru(x, y), libdevice.mul_rz(x, y), libdevice.div_rd(x, y),
               libdevice.rcp_ru(y), libdevice.sqrt_rz(y), fma_ru(x, y, 0.1), libdevice.fmod(7.5 * x, y),
               libdevice.remainder(7.5 * x, y), libdevice.erfc(4 * x), libdevice.erfcx(5 * x),
               libdevice.normcdf(6 * x), libdevice.erfinv(0.999 * x), erfcinv(y),
               libdevice.normcdfinv(tl.fma(x, 0.49, 0.5)), libdevice.int2float_rd(libdevice.float2int_ru(1000 * x)),
               libdevice.double2float_ru(x.to(tl.float64) / 3))
    for k in tl.static_range(len(results)):
        tl.store(out_ptr + k * n + i, results[k], mask=mask)
