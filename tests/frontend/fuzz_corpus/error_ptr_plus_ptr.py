import triton
import triton.language as tl

@triton.jit
def k(x_ptr):
    p = x_ptr + x_ptr
