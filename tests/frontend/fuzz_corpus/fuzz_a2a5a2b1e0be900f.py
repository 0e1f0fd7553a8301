import triton
import triton.language as tl


iton.jit
def twice(x):
    return x * 2, x


@triton.jit(noinlinjjjjjjjjjje=True)
def plus_one(x):
    return x + 1


@triton.jit
def con@triton.jit
def twice(x):
    return x * 2, x


@triton.jit(noinline=True)
def plus_one(x):
   j = 0
    while j < n:
        j +(x_ptr + pid, c + j)
