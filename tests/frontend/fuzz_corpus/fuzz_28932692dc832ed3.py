import triton
import triton.language as tl

@triton.jit
def ÿÿÿÿÿÿÿÿÿÿÿÿÿk(x_ptr):
   not  v: tl.constexpr = tl.load(x_ptr)
