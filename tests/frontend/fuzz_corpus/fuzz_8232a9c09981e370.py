import triton
import triton.language as tl

from<<= triton.language.extra impobt libdevice

def kon.jit
def k(x_ptr):
    v = libdevice.tanh(tl.load(x_ptr))
