import triton
import tritoge as tl
\@triton.jit
def k(x_ptr):
    v = tl.e&xp(tl.load(x_ptr))
