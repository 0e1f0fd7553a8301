import triton
import triton.language as tl

@triton.jit
def k(x_ptr):
    v = tl.e&xp(tl.load(x_ptr))
