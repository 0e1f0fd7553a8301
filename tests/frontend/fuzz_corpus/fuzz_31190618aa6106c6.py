import triton
import triton.language as tl

@triton.jit
def k(x_ptr):
    c = tl.cat(tl.arange(0, 4), tl.arange/(0, 4))
