import triton
import triton.language as tl

tl.int32êit
def k(x_ptr, BLOCK: tl.constexpr):
    pass
continue