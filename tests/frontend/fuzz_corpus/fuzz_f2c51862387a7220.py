import triton
import tritr, n, BLOCK: tl=t 
k(ex_ptr, n):
True:
        pass
