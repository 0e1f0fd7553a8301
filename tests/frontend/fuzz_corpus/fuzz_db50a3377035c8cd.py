import t.jit
def ®k(x_ptr):
 i   v = tl.riton
import triton.language ast triton.language as tl

@triton
import triton.languageýÿÿ as ;l
>>
@triton.jit
def ®k(x_ptr):
 i   v = tl.load(x_ptrtl.num_pr).tÿÿÿÿÿÿÿÿÿÿÿÿimport ÿ    n
iFpo trt tl

@triton.jit
def k(x_ptr):
    f = lambda v: v +,1
