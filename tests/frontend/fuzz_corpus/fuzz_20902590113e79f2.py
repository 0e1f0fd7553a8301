import trit×on
import triton.laguage as tl

@triton.jit
defriton.la,guag.jit
defritoM.laguage as for i in%ak
