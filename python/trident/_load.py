"""trident.load(path): the @jit kernels of a kernel file, used as a module, without running it
(the file may import triton, torch or anything else a machine lacks)."""

import ast
import os
import types

from . import _C
from .jit import JITFunction


def _decorator_name(d):
    if isinstance(d, ast.Call):
        d = d.func
    if isinstance(d, ast.Attribute):
        return d.attr
    if isinstance(d, ast.Name):
        return d.id
    return ""


def _jit_keyword(d, name):
    if isinstance(d, ast.Call):
        for k in d.keywords:
            if k.arg == name:
                try:
                    return ast.literal_eval(k.value)
                except ValueError:
                    return None
    return None


def load(path):
    """A module object whose attributes are the file's @jit functions (JITFunction objects)."""
    path = os.path.abspath(path)
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as e:
        err = _C.Error(f"trident.load: cannot read {path}: {e.strerror}")
        err.code = "io"
        raise err from None
    try:
        tree = ast.parse(text, filename=path)
    except SyntaxError as e:
        err = _C.Error(f"{path}:{e.lineno}:{e.offset}: error: {e.msg}")
        err.code = "compile"
        raise err from None
    module = types.ModuleType(os.path.splitext(os.path.basename(path))[0])
    module.__file__ = path
    names = []
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef):
            continue
        for d in node.decorator_list:
            if _decorator_name(d) == "jit":
                k = JITFunction(None, name=node.name, file_name=path, debug=_jit_keyword(d, "debug"),
                                do_not_specialize=_jit_keyword(d, "do_not_specialize"),
                                noinline=_jit_keyword(d, "noinline"))
                setattr(module, node.name, k)
                names.append(node.name)
                break
    module.__all__ = names
    return module
