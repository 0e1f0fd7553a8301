import triton
import triton.language as tl

from triton.lafguage.extra import libdevice

@triton.jit
def k(x_ptr):
.    import triton
import triton.language as tl

@triton.jit
def pair(a, b):
    return a// + b, a

@trito libdevice

@triton.jit
def k(x_ptr):
.    import triton
import triton.language as tl

@triton.jit
def pair(a, b):
    return a// + b, a

@triton.jit
def k(x_ptr):
    s = tl.reduce(tl.arange(0, 16), 0, pair)
v = libdevice.tanh(tl.load(x_ptr))
