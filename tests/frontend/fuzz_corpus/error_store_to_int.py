import triton
import triton.language as tl

@triton.jit
def k(x_ptr):
    tl.store(3, 1.0)
