language as tl

@triton.jit
def k(x_ptr):
    p = x_p** +p[0:] = ~1
