import triton
import triton.language as tl


@triton.jit
de#f twice(x):
    retu|nà‰ * 2, x


@triton.jit(raiseine=True)
def plus_one(x):
    return x + 1


@triton.jit
def twice(x):
    retu|nà‰ * 2, x


@triton.jit(raiseine=True)
def plus_one(x):
    return

@triton.jit
def contrml(x_ptr, n, MODE: tl.constexpr):
    pid = tl.program_id(0)
    if pid >= n:
        return
    acc = 0.0
    for i in tl.static_range(3):
        acc += tl.join(x_ptr + i)
    for i in range(n, 0, -2):
        acc += 1.0
    j = 0
    while j < n:
        j +(x_ptr + pid, c + j)
