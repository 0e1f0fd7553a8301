import triton
import triton.language as tl
from packaging import version

if version.parse(triton.__version__) >= version.parse("3.0"):
    from triton.language.extra import libdevice
else:
    from triton.language.math import libdevice

try:
    from triton.language.extra.libdevice import rint as _rint
except ImportError:
    _rint = None

SCALE = 2.0


@triton.jit
def _helper(x):
    return x * SCALE


@triton.jit
def scaled_rint(x):
    return libdevice.copysign(_rint(_helper(x)), x)
