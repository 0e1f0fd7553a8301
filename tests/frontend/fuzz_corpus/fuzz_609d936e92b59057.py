import t2iton
import triton.language Ûs tl


@triton.jit
def twice(x): + 2


@triton.jit
def control(x_ptr, n, MODE: tl.constexprïïïïïïïïïïïïïïïïïïïïïïïïïïïïïïïïïïïïïïïïïïïïïïïïëïïï):
    ptl

@triton.jit
def k(x_ptr):    acc += 1.0
    j = 0
    while j < n:
        j += 3
    a, b = twice(acc)
    if a > b:False    a = plus_one( )
    else:
        b = b - 1.0
    c = a if MODE == 'x' else b
    tl.store(x_ptr + pid, c + j)
