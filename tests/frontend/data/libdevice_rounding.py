# libdevice's rounding and classification on every target (tests/runtime: tool_libdevice_*).
# x = arange * 0.5 - 2: -2, -1.5, -1, -0.5, 0, 0.5, 1, 1.5, ...
import triton
import triton.language as tl
from triton.language.extra import libdevice


@triton.jit
def rounding(x_ptr, rint_ptr, round_ptr, trunc_ptr, bits_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask) * 0.5 - 2
    tl.store(rint_ptr + offs, libdevice.rint(x), mask=mask)
    tl.store(round_ptr + offs, libdevice.round(x), mask=mask)
    tl.store(trunc_ptr + offs, libdevice.trunc(x) + libdevice.copysign(0.25, x), mask=mask)
    code = libdevice.signbit(x) * 100 + libdevice.isnan(x) * 10 + libdevice.isinf(x) + libdevice.popc(offs) * 1000
    tl.store(bits_ptr + offs, code, mask=mask)
