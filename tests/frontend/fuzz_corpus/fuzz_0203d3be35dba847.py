 tl

@triton.jit
def k(x_ptr):
    p = x_ptr +p[0:] = 1
