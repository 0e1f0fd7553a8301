"""trident.language: the names of triton.language that a script's host code sees.

Kernel bodies are read by Trident's frontend, not run by Python, so this module only
needs what Python evaluates when it defines a kernel (annotations such as
`BLOCK: tl.constexpr`, default values) and what host code passes (dtypes). Any other
name is a placeholder that refuses to be called outside a kernel.
"""

from . import _C

dtype = _C.dtype
int1 = _C.int1
int8, int16, int32, int64 = _C.int8, _C.int16, _C.int32, _C.int64
uint8, uint16, uint32, uint64 = _C.uint8, _C.uint16, _C.uint32, _C.uint64
float16, bfloat16, float32, float64 = _C.float16, _C.bfloat16, _C.float32, _C.float64
float8e4nv, float8e5 = _C.float8e4nv, _C.float8e5


class constexpr:
    """A compile-time value: `BLOCK: tl.constexpr` marks a parameter; `tl.constexpr(8)` wraps a value."""

    def __init__(self, value=None):
        self.value = value.value if isinstance(value, constexpr) else value

    def __repr__(self):
        return f"constexpr[{self.value!r}]"

    def __index__(self):
        return self.value

    def __bool__(self):
        return bool(self.value)

    def __eq__(self, other):
        return self.value == (other.value if isinstance(other, constexpr) else other)

    def __hash__(self):
        return hash(self.value)


class _KernelOnly:
    """A triton.language name used outside a kernel."""

    def __init__(self, name):
        self._name = name

    def __getattr__(self, attr):
        if attr.startswith("__"):
            raise AttributeError(attr)
        return _KernelOnly(f"{self._name}.{attr}")

    def __call__(self, *args, **kwargs):
        raise _C.Error(f"tl.{self._name} can only be used inside a @trident.jit function")

    def __repr__(self):
        return f"<triton.language.{self._name}>"


tensor = _KernelOnly("tensor")
math = _KernelOnly("math")
extra = _KernelOnly("extra")


def __getattr__(name):
    if name.startswith("__"):
        raise AttributeError(name)
    return _KernelOnly(name)
