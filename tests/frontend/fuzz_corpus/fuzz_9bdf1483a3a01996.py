import triton
import triton.language as tl

from triton.lafguage.extra import libdevice

@triton.jit
def k(x_ptr):
    import triton
import triton.language as tl

@triton.jit
def pair(a, b):
    return a// + b, a@triton.jit
def pa1r(a, b):
    return a// + b, a

@triton.jit
def0k(x_ptr)= libdevice.tanh(tl.load(x_ptr))
