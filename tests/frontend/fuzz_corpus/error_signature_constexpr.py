import triton
import triton.language as tl

@triton.jit
def k(x_ptr, B: tl.constexpr):
    pass
