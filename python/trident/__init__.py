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


class TensorDescriptor:
    """A host tensor descriptor, as Triton's triton.tools.tensor_descriptor.TensorDescriptor:
    the tensor `base` (a trident.Buffer, numpy array or device tensor) seen as `shape` with
    `strides` (in elements, the last 1), read and written by the kernel in boxes of
    `block_shape`. Its parameter's signature is tensordesc<dtype[block_shape]>. Launches
    also take Triton's own TensorDescriptor objects (any object with these fields)."""

    def __init__(self, base, shape, strides, block_shape, padding="zero"):
        self.base = base
        self.shape = [int(s) for s in shape]
        self.strides = [int(s) for s in strides]
        self.block_shape = [int(b) for b in block_shape]
        self.padding = padding
        if not (len(self.shape) == len(self.strides) == len(self.block_shape)) or not 1 <= len(self.shape) <= 5:
            raise ValueError("a tensor descriptor needs 1 to 5 dimensions, the same number for shape, "
                             "strides and block_shape")
        if self.strides[-1] != 1:
            raise ValueError(f"the last stride of a tensor descriptor must be 1, got {self.strides[-1]}")

    @staticmethod
    def from_tensor(tensor, block_shape, padding="zero"):
        """The descriptor of all of `tensor` (its shape and strides, in elements)."""
        shape = [int(s) for s in tensor.shape]
        if callable(getattr(tensor, "stride", None)):  # torch: in elements
            strides = list(tensor.stride())
        elif hasattr(tensor, "strides") and hasattr(tensor, "itemsize"):  # numpy: in bytes
            strides = [s // tensor.itemsize for s in tensor.strides]
        else:  # trident.Buffer: row-major
            strides = [1] * len(shape)
            for d in range(len(shape) - 1, 0, -1):
                strides[d - 1] = strides[d] * shape[d]
        return TensorDescriptor(tensor, shape, strides, block_shape, padding)

    def __repr__(self):
        return (f"TensorDescriptor(shape={self.shape}, strides={self.strides}, block_shape={self.block_shape}, "
                f"padding={self.padding!r})")
