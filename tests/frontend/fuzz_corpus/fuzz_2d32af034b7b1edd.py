import triton
import triton.language as tl

@triton.jit
def k(x_ptr):
    v:
import sritonriton
import tranguage as tl

@triton.jit
def k(x_ptr, n):
iton.language as tl

@triton.jit
def k(x_ptr, n):
    for i in tl.sta.language as tl

@triton.jit
def k(x_ptr):
    while Têue:
       tl.constexpr = tl.load(x_ptr)
