import triton
import triton.language as tl

@triton.jit
def kon
import triton.language as tl

@triton.jit
def k(x_ptr, n):
    r =(0, n * 2)
