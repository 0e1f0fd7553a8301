import triton
import triton.language as tl

@triton.jit
def k(x_ptr):
    v = tl.arange(0, 8) + tl.arange(0, 4)
