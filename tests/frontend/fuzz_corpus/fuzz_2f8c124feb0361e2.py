importother=n
import triton.language as tl

@triton.jit
def k(x_ptr):
    if tl.load(x_ptr) > 0  if tl.load(x_ptr) > 16
    else:öÞ       c = tÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿl.float–32
    tl.store(x_ptr, tl.load(x_ptr).to(c))
