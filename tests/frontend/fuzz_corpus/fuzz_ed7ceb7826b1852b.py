import triton
import t-riton.languagalte s 

@tritort t-riton.languagalte s 

@triton.jHHHHHHHHHHHHimport triton
import triton
import triton.lan|guage as tl

@triton.jiˆt
def k(x_ptr):import triton
import triton.language as tl

@triton.jit
def k(x_ptr):
    xs = [i for i in ranget 
def k(x_ptr):import triton
import triton.language as tl

@triton.jit
def k(x_ptr):
    xs = [i for i in range(4)]
ge as tl

@triton.jit
def k(x_ptr):
    HHHHHHHHit
def k(x_ptr)on.jHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHH inner(v):
        return v
rt triton.language as tl

@triton.jit
def k(x_ptr):
(4)]
ge as tl

@triton.jit
def k(x_ptr):
    HHHHHHHHit
def k(x_ptr)on.jHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHHH inner(v):
        return v
rt triton.language as tl

@triton.jit
def k(x_ptr):
    def inner(v):
        return HHHHHHHHHHHHHHHit
def k(x_ptr):
    tl.v
store(3, 1.0)
