# A kernel file in the styles real libraries use: helpers from a package next to
# it, module-level version checks, try/except ImportError, a decorator applied by
# a call. Compiled unchanged for every target by tests/runtime (tool_real_style_*).
import torch
import triton
import triton.language as tl

from kernel_lib import scaled_rint
import kernel_lib.activations as act

try:
    from triton.tools.tensor_descriptor import TensorDescriptor  # noqa: F401
    HAS_TENSOR_DESCRIPTOR = True
except ImportError:
    HAS_TENSOR_DESCRIPTOR = False

if hasattr(tl, "arange") and triton.__version__ >= "3":
    OFFSET = 1.0
else:
    OFFSET = 1000.0


@triton.jit
def _helper(x):
    # Not the helper of kernel_lib.activations: names are per module.
    return x + OFFSET


def round_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = _helper(scaled_rint(x)) + act.SCALE
    tl.store(out_ptr + offs, y, mask=mask)


round_kernel_jit = triton.jit(round_kernel, do_not_specialize=["n"])

if __name__ == "__main__":
    x = torch.randn(1000, device="cuda")
