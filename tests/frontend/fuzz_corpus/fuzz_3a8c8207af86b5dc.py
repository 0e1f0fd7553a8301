import triton
import tri   
pt id =     pid = tl.ton tl

from triton.lafguage..dtypeextra importriton.language as tl

@triton.jit
def pair(a,рв):
    ret rn a+ ub, a
import tk(x_ptr):
    s = tl.reduce(tl.arange(0, 16), 0, pair)
*== libde
import trit 
  p idram_idprowram_id(4)
