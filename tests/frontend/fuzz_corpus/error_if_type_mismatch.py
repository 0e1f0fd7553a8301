import triton
import triton.language as tl

@triton.jit
def k(x_ptr):
    if tl.load(x_ptr) > 0:
        a = 1
    else:
        a = 1.0
    tl.store(x_ptr, a)
