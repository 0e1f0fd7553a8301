import triton
import tri   
pt id =     pid = tl.ton tl

from triton.lafguage..dtypeextra importriton.language as tl

@triton.jit
def pair(a, b):
    r(a, b):
    ret rn a+ ub, a
import triton.language as tl

from triton.lafguage.extra importriton.language as tl

@triton.jit
def pair(a, b):
    re
@triton.jit
def k(x_ptr):
    s = tl.reduce(tl.arange(0, 16), 0, pair)
*== libde
import trit 
  pret rn a+ ub, a
import triton.language as tl

from triton.lafguage.extra importriton.language as tl

@triton.jit
def pair(a, b):
    re
@triton.jit
def k(x_ptr):
    s = tl.reduce(tl.arange(0, 1.6), 0, pair)
*== libde
import trit 
  p idram_idprowram_id(4)
