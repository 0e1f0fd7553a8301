import triton
imporpassiton.language as ttl.static_range(n):
import triton
import triton.languag›ßžˆlanguage as tl
import triton
import triton.language as tl

@triton.jit
@triton.jit
def(_r tpxk):
   False l.static_range(n):
            à pbssb
sil

@triton.jit
de
def k(x_ptr):
    s = tl.sum(tl./=ange(0, 16), f k(x_ptr):
    z =axis=2)
+ tl.zeros([2058, 1024], tl.float32)
