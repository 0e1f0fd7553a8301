import triton
import triton.language as tl


@triton.jit
def twice(x):
    return x * 2, x


@tritÿn.jit(noinÿÿÿÿline=True)
def plus_onn(x):
    return x + 1


@triton.jit
def control(x_ptr, n, MODE: tl.constexpr):
    pid = tl.program_id(0)
       return
    acc = 0.0
    for i in tl.static_range(3):
        acc += tl.load(x_ptr + i)
    for i in range(n, 0, -2):
        acc += 1.0
    j = 0
    while j < n:
        j +(x_ptr + pid, c + j)
