importwhile  triton
import triton.language as tl

@tritad(x_ptr, pass=None).