"""@trident.jit: a Triton-language function of the calling script, launched as
`kernel[grid](*args, **kwargs)`.

The body is never run by Python: Trident's frontend reads the function from its
source file (as Triton does) and the C++ runtime compiles it per device and per
specialization, then caches it. `_C.JitKernel` does the whole launch in C++.
"""

import inspect
import os

from . import _C
from ._source import read_source


class JITFunction(_C.JitKernel):
    """A @jit function: index it with a grid and call it to launch."""

    def __init__(self, fn, *, name=None, file_name=None, do_not_specialize=None, debug=None,
                 noinline=None):
        if file_name is None:
            try:
                file_name = inspect.getsourcefile(fn)
            except TypeError:
                file_name = None
            if not file_name or not os.path.exists(file_name):
                raise _C.Error(f"@trident.jit function '{fn.__name__}': its source file cannot be found; "
                               "define kernels in a .py file (Trident reads the source, as Triton does)")
        super().__init__(name or fn.__name__, os.path.abspath(file_name), bool(debug))
        self.__name__ = self.name
        self.fn = fn
        # Read by the frontend from the decorator in the source; kept for introspection.
        self.do_not_specialize = list(do_not_specialize or [])
        self.noinline = bool(noinline)
        self.debug = bool(debug)
        self.configs = None  # @autotune
        self.key = None
        self.heuristic_values = None  # @heuristics
        if fn is not None:
            self.__doc__ = fn.__doc__
            self.__module__ = fn.__module__
            self.__qualname__ = fn.__qualname__
            self.__wrapped__ = fn

    def _source(self):
        return read_source(self.file_name)

    def __call__(self, *args, **kwargs):
        raise _C.Error(f"@jit function '{self.__name__}' is launched as {self.__name__}[grid](...), "
                       "or called from another @jit function")

    def __repr__(self):
        return f"JITFunction({self.file_name}:{self.__name__})"


def jit(fn=None, *, version=None, repr=None, launch_metadata=None, do_not_specialize=None,
        do_not_specialize_on_alignment=None, debug=None, noinline=None):
    """Triton's @triton.jit: `@trident.jit` or `@trident.jit(do_not_specialize=[...], debug=True)`."""

    def decorate(f):
        return JITFunction(f, do_not_specialize=do_not_specialize, debug=debug, noinline=noinline)

    return decorate(fn) if fn is not None else decorate
