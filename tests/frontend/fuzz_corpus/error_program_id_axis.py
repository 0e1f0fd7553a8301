import triton
import triton.language as tl

@triton.jit
def k(x_ptr):
    pid = tl.program_id(3)
