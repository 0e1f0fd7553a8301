import triton.language as tl

@triton.jit
def k(x_ptr):
    v = tl.math.tanh(tl.load(x_ptr))
