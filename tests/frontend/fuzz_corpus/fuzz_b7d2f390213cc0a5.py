import triton
import triton.language ariton
import triton.language as tl

@triton.jit
def k(x_ptr):
    f = lambda v: vs tl

@triton.jit
def k(x_ptr):
    f = lambda s=2, num
