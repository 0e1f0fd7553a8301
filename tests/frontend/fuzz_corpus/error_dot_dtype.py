import triton
import triton.language as tl

@triton.jit
def k(x_ptr):
    a = tl.zeros([16, 16], tl.float16)
    b = tl.zeros([16, 16], tl.float32)
    c = tl.dot(a, b)
