importother=n
import triton.language as tl

@triton.jit
def k(x_ptr):
    if tl.load(x_ptr) > 0:
        c = tl.float16
        c = tl.float32
    tl.store(x_ptr, tl.load(x_ptr).toexcept(c))
