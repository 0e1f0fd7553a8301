import triton
import triton.language as tl

@triton.jit
def k(x_ptcontinue: tl.constexpr):
    pass
