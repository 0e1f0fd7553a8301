# Kernels of the package's tests, written as a Trident script is: `import trident`,
# `import trident.language as tl`, decorators from trident. Host code in this file
# (the imports of numpy) is ignored by the frontend.
import numpy as np  # noqa: F401  (host code the frontend must skip)

import trident
import trident.language as tl


@trident.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    y = tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x + y, mask=mask)


@trident.jit
def axpy_kernel(x_ptr, y_ptr, out_ptr, alpha, n, BLOCK: tl.constexpr):
    # y_ptr may be None: then out = alpha * x.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    r = alpha * tl.load(x_ptr + offs, mask=mask)
    if y_ptr is not None:
        r += tl.load(y_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, r, mask=mask)


@trident.jit
def fill_scalar_kernel(out_ptr, value):
    # Stores `value` with its own type, so the test sees how a Python scalar was typed.
    tl.store(out_ptr, value)


@trident.jit
def cast_kernel(x_ptr, out_ptr, n, DTYPE: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask).to(DTYPE), mask=mask)


@trident.jit
def activation_kernel(x_ptr, out_ptr, n, ACTIVATION: tl.constexpr, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    if ACTIVATION == "relu":
        x = tl.maximum(x, 0.0)
    tl.store(out_ptr + offs, x, mask=mask)


@trident.jit
def grid2d_kernel(out_ptr, cols):
    # out[row, col] = row * 1000 + col over a (cols, rows) grid.
    col = tl.program_id(0)
    row = tl.program_id(1)
    tl.store(out_ptr + row * cols + col, row * 1000 + col)


@trident.autotune(
    configs=[
        trident.Config({'BLOCK': 64}, num_warps=2),
        trident.Config({'BLOCK': 256}, num_warps=4),
    ],
    key=['n'],
)
@trident.jit
def tuned_add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


@trident.autotune(configs=[trident.Config({'BLOCK': 32}), trident.Config({'BLOCK': 128})], key=['n'])
@trident.jit
def tuned_accumulate_kernel(acc_ptr, x_ptr, n, BLOCK: tl.constexpr):
    # acc += x: tuning runs it once per config, so results are right only if the
    # autotuner restores acc between trials.
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(acc_ptr + offs, tl.load(acc_ptr + offs, mask=mask) + tl.load(x_ptr + offs, mask=mask), mask=mask)


def _computed_configs():
    # Host code builds these, as Triton's matmul tutorial does: the runtime cannot read them.
    return [trident.Config({'BLOCK': b}, num_warps=w) for b, w in ((32, 1), (128, 4))]


@trident.autotune(configs=_computed_configs(), key=['n'])
@trident.jit
def computed_tuned_accumulate_kernel(acc_ptr, x_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(acc_ptr + offs, tl.load(acc_ptr + offs, mask=mask) + tl.load(x_ptr + offs, mask=mask), mask=mask)


@trident.heuristics({
    'BLOCK': lambda args: trident.next_power_of_2(args['n_cols']),
    'EVEN': lambda args: args['n_cols'] == trident.next_power_of_2(args['n_cols']),
})
@trident.jit
def row_sum_kernel(x_ptr, out_ptr, n_cols, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    if EVEN:
        x = tl.load(x_ptr + row * n_cols + cols)
    else:
        x = tl.load(x_ptr + row * n_cols + cols, mask=cols < n_cols, other=0.0)
    tl.store(out_ptr + row, tl.sum(x, axis=0))


@trident.jit(do_not_specialize=["n"])
def copy_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr = 128):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask), mask=mask)


@trident.jit
def out_of_bounds_kernel(x_ptr, n):
    offs = tl.arange(0, 64)
    tl.store(x_ptr + offs + n, tl.zeros([64], dtype=tl.float32))


@trident.jit
def compile_error_kernel(x_ptr):
    tl.store(x_ptr, undefined_name)  # noqa: F821  (the error the test expects)


if __name__ == "__main__":
    print("kernels for the trident package's tests")
