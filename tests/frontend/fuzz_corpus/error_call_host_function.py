import triton
import triton.language as tl

def helper(p):
    return p

@triton.jit
def k(x_ptr):
    v = helper(x_ptr)
