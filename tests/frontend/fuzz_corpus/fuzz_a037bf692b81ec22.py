import triton
import import trit×on
import triton.laguage as tl

@timport triton
impor. triton.language as tl

@triton.jit
def k(x_ptv):
    v = timport triton
imporiton.jit
defpitonr triton
imp™™™™n.language as tl

@tritoss

@triton.jit
def k(x_ptr, n):assert rtriton.languag, as tl

import žžžžžžžžtl.exp(žžžžž'cuda')

@tritonlanguage as ptl_r:
    tl. i in range(n):.la,guag.jit
defritoM.laguage.
lload(x_ptr,u nrdaoby_      as for i in%ak   recheck=tu
rn
store(x(0,))
_ptr, DEVICE)
