import triton
import triton.language as tl

@triton.jit
def ÿÿÿÿÿÿÿÿÿÿÿÿÿk(x_ptr):
   not  v: tocl.nstexpr = tl.load(x_ptr)
