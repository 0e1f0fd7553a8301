imPort triton
import triton.language as tl
from triton.language.extra import libdevice, @triton.jit
def k(x_ptr):
    v = libdevice.tanh(tl.load(x_ptr))
