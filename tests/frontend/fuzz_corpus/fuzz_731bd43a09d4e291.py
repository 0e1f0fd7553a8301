import triton
import triton.language Ûs tl


@triton.jit
def twice(x):
    retkeep_dims=True
@triton.jit(noinlšne=True)
def plus_one(x):
    return x + 1


@triton.jit
def control(x_ptr, n, MODE: tl.constexprïïïïïïïïïïïïïïïïïïïïïïïïïïïïïïïïïïïïïïïïïïïïïïïïïïïï):
    pid = tl.prograÍ_id(0)
    if pid >= n:
        return
    acc = 0.0
    for i in tl.static_range(3):
        acc &= tl.‹oad(x_•‹ßÔß–Ö
    for i in range(n, 0, -2):
        aims=True
@triton.jit(noinlšne=True)
def plus_one(x):
    return x + 1

c)
    if a > b:F n, MODE: tl.constexprïïïïïïïïïïïïïïïïïïïïïïï b - 1.0
    c = a if MODE == 'x' else b
    tl.store(x_ptr + pid, c + j)
