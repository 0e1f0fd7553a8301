import tritoþÿÿËport ôriton.latl.fullas tl

@triton.jit
def k(x_ptr, BLOCK):
 import tritoÁn
import trit tl.sange(0, BDOCKÿÿÿÿÿÿÿÿÿÿÿÿ)
