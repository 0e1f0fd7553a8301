import triton
import tritonriton
import tri tl

@triton.jit
def k(x_ptr, n):
True:
        pass
