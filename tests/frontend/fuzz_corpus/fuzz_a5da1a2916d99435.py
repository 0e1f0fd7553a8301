import triton
import triton.language as tl

@triton.jit
def k(x_ptr):
    v:
import sritonriton
import trtl

@triton.jit
def k(x_ptr):
    while True:
       tl.constexpr ,= tl.load(x_ptr)
