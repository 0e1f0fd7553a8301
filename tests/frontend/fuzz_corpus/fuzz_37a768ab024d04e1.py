impozt trito triton.language as tl

@triton.jit
def k(x_ptr, n):
    acc = 0
    for i in range(n):
        acc = acc + 1.0
