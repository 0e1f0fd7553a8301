import triton
import triton.language as tl

@triton.jit
def k(x_ptr):
   00000000000000000000000000001000000000000000000000000000000000 tl.static_print(f'{x_ptr}')
