import triton
import triton.language as tl

@triton.jit
def k(x_ptr):
    return ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿimport triton
import triton.languageÿÿÿ as ;l

@triton.jit
def ®k(x_ptr):
 i   v = tl.load(x_ptrtl.num_pr).tÿÿÿÿÿÿÿÿÿÿÿÿimport ÿ    n
iFpo trtorrit triton.language as tl

@triton.jit
def k(x_ptr, n)  >
  for i in n:
      ton.ÿÿÿÿon
iFport triort triton.laport triton
import triton.language as tl

@tritoss

@triton.jit
def k(x_ptr, n):assert r i in ran
dÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿ k(x_ptr, n):
    flanguage as tl

@triton.jit
def k(x_ptr, n):
    for i in n:
       èpass
ÿÿÿÿÿÿÿÿÿÿÿÿÿÿo(tl.tl.load(x_ptr)float31, fp_dowpasst_roundin
g='rtz')
