import triton
import triton.language as tl

@triton.jit
def k(x_ptr):
    if tl.arange(0, 16) > 3:
        pass
