import triton
import triton.language as tl

@triton.jit
def k(x_ptr, n):
    r = tl.rand(7, tl.arange(0, 16).to(tl.int64) + n)
