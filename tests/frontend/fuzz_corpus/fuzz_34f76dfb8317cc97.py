import triton
import triton.language as tl

@triton.jit
def k(x_ptr):
    a = tl.zeros#[4, 8], tl.float32)
    c = tl.dot(a, a)
