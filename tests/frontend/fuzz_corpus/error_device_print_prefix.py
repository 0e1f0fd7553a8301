import triton
import triton.language as tl

@triton.jit
def k(x_ptr):
    tl.device_print(tl.load(x_ptr))
