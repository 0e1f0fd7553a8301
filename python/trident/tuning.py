"""@trident.autotune, @trident.heuristics and trident.Config.

The runtime reads these decorators from the kernel's source (as it reads the
kernel): it tunes once per device and per value of the key (in memory and in the
disk cache) and evaluates the heuristics' lambdas on every launch, in C++. The
Python objects here record what the decorators said, for introspection.
"""

import ast
import sys

from . import _C
from .jit import JITFunction


class Config:
    """One autotuning configuration: meta-parameter values and launch options."""

    def __init__(self, kwargs, num_warps=4, num_stages=3, num_ctas=1, maxnreg=None, pre_hook=None):
        self.kwargs = dict(kwargs)
        self.num_warps = num_warps
        self.num_stages = num_stages
        self.num_ctas = num_ctas
        self.maxnreg = maxnreg
        self.pre_hook = pre_hook

    def all_kwargs(self):
        return {**self.kwargs, "num_warps": self.num_warps, "num_stages": self.num_stages,
                "num_ctas": self.num_ctas}

    def __repr__(self):
        items = [f"{k}: {v}" for k, v in self.kwargs.items()]
        items += [f"num_warps: {self.num_warps}", f"num_stages: {self.num_stages}"]
        return ", ".join(items)


def _kernel_of(fn, decorator):
    if not isinstance(fn, JITFunction):
        raise _C.Error(f"@trident.{decorator} applies to a @trident.jit function (put it above @trident.jit)")
    return fn


def _configs_are_literal(kernel):
    """Whether the @autotune decorator of `kernel` in its source writes its configs as a list of
    Config(...) calls (directly, or through a module-level name bound to one): then the runtime
    reads and tunes them itself."""
    try:
        with open(kernel.file_name, encoding="utf-8") as f:
            tree = ast.parse(f.read())
    except (OSError, SyntaxError):
        return False
    constants = {}
    for node in tree.body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            constants[node.targets[0].id] = node.value

    def literal_list(e):
        if isinstance(e, ast.Name):
            e = constants.get(e.id)
        return isinstance(e, (ast.List, ast.Tuple)) and all(isinstance(c, ast.Call) for c in e.elts)

    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name == kernel.name:
            for d in node.decorator_list:
                if isinstance(d, ast.Call) and getattr(d.func, "attr", getattr(d.func, "id", "")) == "autotune":
                    arg = next((k.value for k in d.keywords if k.arg == "configs"), d.args[0] if d.args else None)
                    return literal_list(arg)
    return False


class Autotuner:
    """@autotune for configs computed by host code (`configs=make_configs()`), which the runtime
    cannot read from the source: tuned here, once per value of the key and the arguments'
    dtypes, by timing each config with testing.do_bench; every buffer argument (trident
    buffers, numpy arrays, torch tensors) is saved before and restored after each trial.
    Configs that fail to compile or run are skipped."""

    def __init__(self, kernel, configs, key, warmup=None, rep=None):
        self.kernel = kernel
        self.fn = kernel
        self.configs = list(configs)
        self.key = list(key)
        self.warmup = 5 if warmup is None else warmup
        self.rep = 20 if rep is None else rep
        self.cache = {}
        self.best_config = None
        self.__name__ = kernel.__name__

    def __getitem__(self, grid):
        return lambda *args, **kwargs: self.run(*args, grid=grid, **kwargs)

    def _bound(self, args, kwargs):
        names = [name for name, _ in self.kernel.params]
        bound = dict(zip(names, args))
        bound.update(kwargs)
        return bound

    @staticmethod
    def _dtype_of(v):
        d = getattr(v, "dtype", None)
        return None if d is None else str(d)

    def run(self, *args, grid, **kwargs):
        bound = self._bound(args, kwargs)
        key = tuple(bound.get(k) for k in self.key) + tuple(self._dtype_of(v) for v in args)
        config = self.cache.get(key)
        if config is None:
            config = self._tune(grid, args, kwargs)
            self.cache[key] = config
        self.best_config = config
        return self.kernel[grid](*args, **kwargs, **config.kwargs, num_warps=config.num_warps,
                                 num_stages=config.num_stages)

    @staticmethod
    def _save(args):
        import numpy as np
        saved = []
        for a in args:
            if isinstance(a, _C.Buffer):
                saved.append((a, _C.empty(a.shape, a.dtype, a.device).copy_(a)))
            elif isinstance(a, np.ndarray) and a.flags.writeable:
                saved.append((a, a.copy()))
            elif hasattr(a, "clone") and hasattr(a, "copy_") and hasattr(a, "data_ptr"):
                saved.append((a, a.clone()))
        return saved

    @staticmethod
    def _restore(saved):
        import numpy as np
        for target, copy in saved:
            if isinstance(target, np.ndarray):
                np.copyto(target, copy)
            else:
                target.copy_(copy)

    def _tune(self, grid, args, kwargs):
        from . import testing
        saved = self._save(args)
        timings = []
        for config in self.configs:
            def launch(config=config):
                self.kernel[grid](*args, **kwargs, **config.kwargs, num_warps=config.num_warps,
                                  num_stages=config.num_stages)
            try:
                timings.append((testing.do_bench(launch, warmup=self.warmup, rep=self.rep), config))
            except _C.Error as e:
                print(f"trident: autotune {self.kernel.__name__}: skipping {config}: {e}", file=sys.stderr)
            finally:
                self._restore(saved)
        if not timings:
            raise _C.Error(f"autotune {self.kernel.__name__}: no config compiles and runs")
        return min(timings, key=lambda t: t[0])[1]


def autotune(configs, key, prune_configs_by=None, reset_to_zero=None, restore_value=None, pre_hook=None,
             post_hook=None, warmup=None, rep=None, use_cuda_graph=False, do_bench=None):
    """Triton's @triton.autotune. Configs written in the decorator (a list of trident.Config(...)
    literals) are read from the source and tuned by the runtime, in C++ (the kernel object is
    returned); configs computed by host code are tuned in Python by an Autotuner. Either way every
    buffer argument is saved and restored around each trial, so tuning never changes results."""

    def decorate(fn):
        k = _kernel_of(fn, "autotune")
        k.configs = list(configs)
        k.key = list(key)
        if _configs_are_literal(k):
            return k
        return Autotuner(k, configs, key, warmup=warmup, rep=rep)

    return decorate


def heuristics(values):
    """Triton's @triton.heuristics({'NAME': lambda args: ...}), evaluated by the runtime on every
    launch (numbers, args['name'], arithmetic, comparisons, and/or/not, if-else,
    next_power_of_2, cdiv, min, max, abs, int, float, bool)."""

    def decorate(fn):
        k = _kernel_of(fn, "heuristics")
        k.heuristic_values = dict(values)
        return k

    return decorate
