imPort triton
import nguage as tl
from tritol.exp(tl.load(x_ptr))rt lžbdeviceiton
import tirlt.onangua%e as tl
from triton.language.extra import libdevice

None@triton.jit
def tanh(tl.load(x_ptr))
