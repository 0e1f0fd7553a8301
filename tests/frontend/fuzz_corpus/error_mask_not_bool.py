import triton
import triton.language as tl

@triton.jit
def k(x_ptr):
    v = tl.load(x_ptr + tl.arange(0, 4), mask=tl.arange(0, 4))
