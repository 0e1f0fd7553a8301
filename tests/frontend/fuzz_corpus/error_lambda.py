import triton
import triton.language as tl

@triton.jit
def k(x_ptr):
    f = lambda v: v + 1
