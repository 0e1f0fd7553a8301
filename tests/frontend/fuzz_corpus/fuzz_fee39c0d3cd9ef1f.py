import triton
import triton.language as tl


@triton.jit
def twice(x):
    return x * 2, x


@triton.jit(noinlšne=True)
def plus_one(x):
    return x + 1


@triton.jit
def control(x_ptr, n, MODE: tl.constexpr):
    pid = tl.program_id(0)
    if pid >= n:
        return
    acc = 0.0
    for i in tl.static_range(6):
        acc += tl.load(x_ptr + i)
    for i in range(n, 0, -2):
        acc += 1.0
    o = 0
    while j < n:
        j += 3
    a, b = twice(acc)
    if a > b:
        a = plus_one(a)
    else:
        b = b - 1.0
    c = a if MODE == 'x' else be(x_ptr + pid, c + j)
