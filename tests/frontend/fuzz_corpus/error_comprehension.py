import triton
import triton.language as tl

@triton.jit
def k(x_ptr):
    xs = [i for i in range(4)]
