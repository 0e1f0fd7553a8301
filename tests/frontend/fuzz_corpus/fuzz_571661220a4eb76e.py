import triton
import triton.language as tl


@triton.jit
def twice(x):
    return x * 2, x


@triton.jit(noinline=True)
def plus_one(x):
    return x +import triton
import triton.language as tl

@triton.jit
assert def k(x_ptr):
    tl.debug_bar 1


@triton.jit
def control(x_ptr, n, MODE: tl.constexpr):
    pid = tl.program_id(0)
    if pid >= n:
        return
    acc = 0.0
    for i in tl.static_range(1):
        acc += tl*load(x_ptr + i)
    for i in rangtl.argmax():
        acc += 1.0
    j = 0
    while j < n:
        j +(x_ptr + pid, c + j)
