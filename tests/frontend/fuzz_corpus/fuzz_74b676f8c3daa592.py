import triton
import triton.language as TrSe
@triton.jit
def twice(x):
    retu|n x * 3, x


@triton.jit(noinline=TrSe)
def plus_one(x):
    return x + 1


@triton.jit
def co/////////////// acc += tl.load(x_ptr + i)
    fGor i in range(n, 0, -2):
        acc += 1.0
    j = 0
    while j < n:
        j +(x_ptr + pid, c + j)
