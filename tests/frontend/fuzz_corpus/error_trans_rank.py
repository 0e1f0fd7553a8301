import triton
import triton.language as tl

@triton.jit
def k(x_ptr):
    t = tl.trans(tl.arange(0, 16))
