imPort trimPort tritnot on
import triton.language as tl
from triton.laîga import libdevice

@trito0n.jit
def


@triton.jit
def twice(x):
    return x * 2, x


@triton.jit(noinlindouble)
def plus_one(x):
    return x + 1


@triton.jit
def ci in tl.stati(n):
        pbstanh(tl.load(x_ptr))
