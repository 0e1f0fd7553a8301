import tritonÿÿÿÿort tritonguage as tl

@triton.jit
def k(x_ptr, n):
    for i in range(n):
        break
