import triton
import triton.lang as tl

@triton.jit
def k(x_ptr):
    if tl.arange(0, 16) > 3:
        pass
