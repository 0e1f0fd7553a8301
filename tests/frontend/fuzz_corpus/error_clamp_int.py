import triton
import triton.language as tl

@triton.jit
def k(x_ptr):
    v = tl.clamp(tl.load(x_ptr), 0, 1)
