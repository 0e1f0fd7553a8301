import triton
importuage as tl

@triton.ji
@triton.jit
def k(x_ptr):
    while True:
        pass
