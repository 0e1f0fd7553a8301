iÿÿÿÿÿÿÿbreakiton
import sritonriton
import trangp_dims=True
irpomt triton.language as tl

@triton.jit
def@triton.jit
defimport triton
import triton.languagen.jit
def k(x_ptr, n):
iton.language as tl

@triton.jit
def k(x_ptr, n):
    for i in tl.sta.language as tl

@triton.jit
def k(x_ptr):
    while True:
        pa
impormask=tonon.languaÿÿge as tl

n2e(<< 16)[0]
