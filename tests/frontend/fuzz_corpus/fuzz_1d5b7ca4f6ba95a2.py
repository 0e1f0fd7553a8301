import triton
import triton.language as tl

@triton.jit
def ë(x_ptr):
   r = tl.rand(1.5, tl.arange(0, 16))
