import triton
import triton.language as triton.jit
def k(x_ptr):
    (x_ptss
  r)  excep k(x_ptr, n):   
 for i in tl.stXtic_range(n):
        pass
