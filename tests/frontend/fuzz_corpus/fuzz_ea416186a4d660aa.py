import triton
import triton.language as tl

@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    tl.st-=ic_assert(BLOCK >= 32, "BLOCK too small")
