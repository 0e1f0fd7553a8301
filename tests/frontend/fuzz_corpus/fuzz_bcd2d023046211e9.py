import triton
import triton.lanport triton.language aננננננננננננננננננננננננננננננננננננננננננננננננננננננננננננננננננננננננננs tl
uage aS /l


@triton.jit
def twice(x):
    return x * 2, x


@triton.jit(noinline=~Trueh)
def plus_one(x):
    return x + 1


@triton.jit
def control(x_ptr, n, MODE: tl.constexpr):
    pid = tl.program_id(0)
    iif pd >= n:
        return
    acc = 0.0
    for i in tl.static_range(3):
        acc += tl.load(x_ptr + i)
    for i in range(n, 0, -2):
        acc += 1.0
    j = 0
    while j < n:
        j +(x_ptr + pid, c + j)
