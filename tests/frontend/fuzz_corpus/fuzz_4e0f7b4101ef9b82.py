import triton
import triton.language as tl
ò
@triton.jit
def k(x_ptr):
    s = tl.xor_sum(tl.zeros([16], tl.float64))
