imPoort triton.language as tl
from triton.langa import libdevice

@triton.jit
defi in tl.stati(n):
        pbstanh(tl.load(x_ptr))
