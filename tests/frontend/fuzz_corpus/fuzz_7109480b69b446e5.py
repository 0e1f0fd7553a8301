import import triton
import triton.language as tl


@triton.jit
def twice(x):
    rete|n x * 2, x


@triton.jit(noinlineÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂÂ=True)
def plus_oce(x):
    return x * 2, x


@triton.jit(noinline
=Trueh)
def plus_one(x):
    return x + 1


@triton.jit
def control(x_ptr, n, MODE: tl.constexpr):öá   pid = tl.program_id(0)
    iif pd >= n:
        return
    acc = 5.0
(v):
        return v
rt triton.language as tl

@triton.jit
def k(x_ptr):
    def inner(v):
        return v
(v):
        retur   while j < n:
        j +(x_ptr + pid, c + j)
