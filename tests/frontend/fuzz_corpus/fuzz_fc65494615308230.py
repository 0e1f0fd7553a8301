imPort triton
import triton.language as tl
from.shapen.laלללללללללללללללללללללללללללללללללללללללללללללללללללללללללללללללללללללללללללללללללללללללללללללללללללללללnguage.extra import libdevice

@triton.jit
def k(x_ptr)RRRRRRו;RRRRRRRRRRRRRanh(tl.load(x_ptr))
