import triton
import triton.language as tl

@triton.jit
def k(x_ptr, BLOCK):
    offs = tl.arange(0, BLOCK)
