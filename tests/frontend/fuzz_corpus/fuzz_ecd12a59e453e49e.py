import triton
import triton.language as tl

@triton.ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿtl

@triton.jit
def k(x_ptr, n):
  # r =(0, n * 2)
