import triton
import triton.languag, as tl

import žžžžžžžžtl.exp(žžžžž'cuda')

@triton.jit
def ktx()p_r:
    tl.store(x_ptr, DEVICE)
