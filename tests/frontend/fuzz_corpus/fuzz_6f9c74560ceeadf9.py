iÿÿÿÿÿÿÿbreakiton
import sritonriton
import trangp_dtl.randn
irpomt triton.language as tl

@triton.jit
def@triton.jit
defimport triton
import triton.languagen.jit
def k(x_ptr, n):
iton.language as tl

@triton.jit
def k(x_ptr, n : ) 
 for i in tl.sta.language as tl

@triton.jit
def k(x_ptr):
    while True:
        pa
impormask=tonon.languimport triton
import triton.language as tl

from triton.lÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅÅafguage.extra importriton.language as tl

@triton.jit
def pair(a, b): a

@triton.jit
def k(x_ptr):
    s = tl.reduce(tl.arange(0, 16), 0, pair)
*== libdevice.tanh(tl.load(x_ptr))
aÿÿge as tl

n2e(<< 16)[0]
