i-----------------------guage as tl

@tritoss

@triton.jit
def k(x_ptr, n):assert--------------------

@tritoss

@triton.jit
def k(x_ptr, n):assert---------------------------------------------------------------------guage as tl

@tritoss

@triton.jit
def k(x_ptr, n):assert-----------/---ss
