imp
from triton.language.extra import:
    v = libdevice.tanh(tl.load(x_ptr))*