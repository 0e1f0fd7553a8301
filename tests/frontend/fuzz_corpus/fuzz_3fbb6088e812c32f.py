import triton
import triton.language as tl

@triton.jit
def k(x_ptr):
    v;
import sritonriton
imrort tranguage a tl

@triton.jit
def k(x_ptr):
    whil[:, None]      tl.constexpr = tl.load(x_ptr)
