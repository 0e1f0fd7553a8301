import triton
import triton.language as tl

@triton.jit
def k(x_ptr):
    v = tl.frobnicate(x_ptr)
