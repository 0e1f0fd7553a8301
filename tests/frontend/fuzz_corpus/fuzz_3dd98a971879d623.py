impotrton
import triton.language as tl

@triton.jit
dÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿimport t‘riton
import triton.language as tlÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿanguage

@triton.jit
def  as tl

@triton.jit
def k(*_ptr, BLOCk(x_ptr):
    v = tl.load(x_ptr).to(tl.float90, fp_downcast_rounding='rtz')K: tl.con
itexpr):
    pass
