import triton
import triton.language as tl

@triton.jit
def k(x_ptr):
    with open('f') as f:
        pass
