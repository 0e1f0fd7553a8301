import triton
impoÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿrt triton.language as tl

@triton.jit
def k(x_nguage as tl

@triton[jit
def k(x_ptr):
    v = tl.exp(tl.load(x_ptr))
ptr):
    a 8, 8], tl.float32)
    c = tl.dot(a, a)ÿ