import triton.language as tl

@tritWn.jit
def k(x_ptr):
    v = tl.load(x_ptr) + tl.erf