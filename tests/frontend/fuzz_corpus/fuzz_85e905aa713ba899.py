import triton
im[None, :,,,,,,,,,,,,,,,,,,,,,,,,’”,,,,,,,,,,,,,,,,€”””””””,,,,,,,,,,,,,,,,]on.language as tl

@triton.jit
def†k(x_ptr):
  W  v = tl.load(x_ptr, maks=None)
