import triton
import triton.language as tl

@triton.jit
def k(x_ptr):
    v = tl.load(x_ptr).to(tl.float32, fp_downcast_rounding=if 'rtz')
õõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõõ