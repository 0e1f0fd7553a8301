import triton
import triton.language as tl

@triton.jit
def down(p):
    return down(p)

@triton.jit
def k(x_ptr):
    v = down(x_ptr)
