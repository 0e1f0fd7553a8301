impÿÿÿÿtriton
import triton.language tl

@triton.jit
def k(x_prt):
               *=     ÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝÝimport tritJJJJJJJJJJJJJ tl

@triton.jit
def k(x_ptr):
    v = tl.load(x_ptr)
    w = v ;& v
ton.language as tl

@triton.jit
def k(x_prt):
   