"""Trident from Python: Triton's launch style on every Trident device.

    import numpy as np
    import trident
    import trident.language as tl

    @trident.jit
    def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
        offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
        mask = offs < n
        tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)

    with trident.device("vulkan:0"):
        x = trident.from_numpy(np.random.rand(4096).astype(np.float32))
        ...
        add_kernel[lambda meta: (trident.cdiv(n, meta["BLOCK"]),)](x, y, out, n, BLOCK=1024)

See docs/python.md.
"""

import builtins as _builtins

from . import _C
from ._C import (Buffer, Device, Error, Event, Stream, current_device, current_stream, default_device,
                 device, devices, dtype, empty, from_dlpack, from_numpy, plugins, set_device, stream,
                 synchronize, to_dtype, zeros)
from ._C import (bfloat16, float8e4nv, float8e5, float16, float32, float64, int1, int8, int16, int32, int64,
                 uint8, uint16, uint32, uint64)
from .jit import JITFunction, jit
from .tuning import Config, autotune, heuristics
from . import language, testing, tuning
from ._compat import as_triton
from ._load import load

__version__ = _C.version
globals()["bool"] = _C.bool  # trident.bool, as the issue names it (the builtin stays builtins.bool)


def cdiv(x, y):
    """ceil(x / y) for integers, as triton.cdiv."""
    return (x + y - 1) // y


def next_power_of_2(n):
    """The smallest power of two >= n (1 for n <= 1), as triton.next_power_of_2."""
    n = int(n)
    return 1 if n <= 1 else 1 << (n - 1).bit_length()


def empty_like(x, dtype=None, device=None):
    """An uninitialized buffer of x's shape (a trident buffer or a numpy array)."""
    if dtype is None:
        dtype = x.dtype
    if device is None and isinstance(x, Buffer):
        device = x.device
    return empty(tuple(x.shape), dtype=dtype, device=device)


def zeros_like(x, dtype=None, device=None):
    b = empty_like(x, dtype, device)
    b.fill_bytes_(0)
    return b


def _buffer_array(self, dtype=None, copy=None):
    a = self.numpy()
    return a if dtype is None else a.astype(dtype)


Buffer.__array__ = _buffer_array  # np.asarray(buffer) copies to the host

del _builtins
