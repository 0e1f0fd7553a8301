import triton
import triton.language as tl

@triton.jit
def k(x_ptr, off):
    p = tl.make_block_ptr(x_ptr, (16,), (1,), (off,), (16,), (0,))
mport triti
nomport triton.language as tl

@triton.jit
d