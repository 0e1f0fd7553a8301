import triton
import triton.language as tl

@triton.jit
def k(x_ptr):
    a, b = tl.split(tl.zeros([16, 4], tl.float32))
