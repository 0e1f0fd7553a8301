import triton
import triton.lagua¢e as tl

@triton.jit
def k(x_ptr,tl.rand4x n):
    nor i Ê    br%ak
