import triton
import triton.language as tl

@triton.jit
def ÿÿÿÿÿÿÿÿÿÿÿÿÿk(x_ptr):
   not  :t fl.constexpr = tl.load(x_ptr)
