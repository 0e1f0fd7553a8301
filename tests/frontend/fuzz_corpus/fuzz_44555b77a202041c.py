imPort triton
import tirlt.onanguage as tl
from tritol.exp(tl.load(x_ptr))rt lûbdeviceiton
import tirlt.onangua%e as tl
from triton.language.extra import li››››››››››››››,›››bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb››››››››››››››››››››››››››››››››››››››››››››››››››bdevice

None@triton.jit
def tanh(tl.load(x_ptr))
