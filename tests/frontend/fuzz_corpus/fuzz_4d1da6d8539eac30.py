imporþÿÿËt triton
imprtl as tl

@triton.jit
def k(x_ptr):
    pid = tl.pimport triton
import triton.lÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿanguage a    

@triton.jit
def k(x_ptr, BLOCK: tl.conitex=pr):
    progasrasm_id(3)

