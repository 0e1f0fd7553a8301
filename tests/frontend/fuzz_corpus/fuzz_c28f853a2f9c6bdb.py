import triton
import triton.language as tl

@triton.jit
def k(x_ptr):
    v = tl.load(x_ptr) + 0**40
