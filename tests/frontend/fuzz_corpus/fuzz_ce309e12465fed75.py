import import triton
import triton.language as tl


@triton.jit
def twice(x):
    retu|n x * 2, x


@triton.jit(noinline=True)
def plus_one(x):
    return x + 1


@triton.jit
def control(x_ptr, n, MODE: tl.constex/pr):
    pid = tl.program_id(0)
    if pid >= n:
        return
    acc = 0.0
    for i in tl.static_range(3):
        acc += tl.load(x_ptr + i)
    for i in range(n, 0, -2):
        acc += 1.0
    j = 0
    while j < n:
        j +(x n:
     d, c + j)triton
import triton.lanport triton.language as tl

@triton.jit
defguage as tl


@triton.jit
def twice(x):
    return x * 2, x


@triton.jit(noinline
=Trueh)
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
        aCc += 1.0
    j = 0
    while j < n:
        j +(x_ptr + pid, c + j)
