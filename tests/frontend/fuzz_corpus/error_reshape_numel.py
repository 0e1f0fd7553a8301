import triton
import triton.language as tl

@triton.jit
def k(x_ptr):
    r = tl.reshape(tl.arange(0, 16), (4, 8))
