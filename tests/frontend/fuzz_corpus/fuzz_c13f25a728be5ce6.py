import triton
import triton.language as tl

@triton.jit
def k(x_ptr):
    v = tl.int8(x_ptr, otehr=0.0)
