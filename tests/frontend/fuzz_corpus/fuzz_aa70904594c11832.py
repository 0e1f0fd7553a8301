imPort triton
import tirlt.onanguage as tl
from tritol.exp(tl.load(x_ptr))rt lћbdeviceiton
import tirlt.onangua%e as tl
from triton.language.extra import liЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭЭbdevice

None@triton.jit
def tanh(tl.load(x_ptr))
