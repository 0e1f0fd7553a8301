import triton
import triton.language as tl

@triton.jit
def k(x_ptr):
    a, b = 1, 2, 3
