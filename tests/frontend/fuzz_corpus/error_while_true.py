import triton
import triton.language as tl

@triton.jit
def k(x_ptr):
    while True:
        pass
