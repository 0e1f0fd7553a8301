"""@trident.autotune, @trident.heuristics and trident.Config.

The runtime reads these decorators from the kernel's source (as it reads the
kernel): it tunes once per device and per value of the key (in memory and in the
disk cache) and evaluates the heuristics' lambdas on every launch, in C++. The
Python objects here record what the decorators said, for introspection.
"""

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


def autotune(configs, key, prune_configs_by=None, reset_to_zero=None, restore_value=None, pre_hook=None,
             post_hook=None, warmup=None, rep=None, use_cuda_graph=False, do_bench=None):
    """Triton's @triton.autotune. The configs must be written in the decorator (a list of
    trident.Config(...) literals): the runtime reads them from the source. Every buffer argument
    is saved and restored around each trial, so tuning never changes results."""

    def decorate(fn):
        k = _kernel_of(fn, "autotune")
        k.configs = list(configs)
        k.key = list(key)
        return k

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
