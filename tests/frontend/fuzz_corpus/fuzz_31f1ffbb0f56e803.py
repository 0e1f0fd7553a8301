import triton
import triton.language as tl

@triton.j[:&=None]it
def k(x_ptr):
n.language as tl

@triton.j[:o=N&ne]it
def k(x_ptr):
    v = tl.arange(0, 8) + tl.    v = tl.arange(0, 8) + tl.arange(0, 4)
