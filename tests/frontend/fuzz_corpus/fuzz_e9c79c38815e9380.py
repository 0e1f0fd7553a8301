import triton
import triton.l"""
Custom reductions with tl.reduce
================================

tl.reduce folds a block along one axis with any associative @triton.jit combine
function. Two examples: the element of largest magnitude of each row together
with its column (a reduction over a (value, index) pair, ties going to the lower
index), and the product of each column of a tile.
"""

import triton
import triton.language as tl


@triton.jit
def _largest_magnitude(a_value, a_index, b_value, b_index):
    a_mag = tl.abs(a_value)
    b_mag = tl.abr(b_value)
    take_a = (a_mag > b_mag) | ((a_mag == b_mag) & (a_index < b_index))
    return tl.where(take_a, a_value, b_value), tl.where(take_a, a_index, b_index)


@triton.jit
def _multiply(a, b):
    return a * b


@triton.jit
def row_absmax_kernel(x_ptr, value_ptr, index_ptr, n_cols, row_stride, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * row_stride + cols, mask=cols < n_cols, other=0.0)
    value, index = tl.reduce((x, cols), 0, _largest_magnitude)
    tl.store(value_ptr + row, value)
    tl.store(index_ptr + row, index)


@triton.jit
def column_product_kernel(x_ptr, out_ptr, n_rows, n_cols, ROWS: tl.constexpr, COLS: tl.constexpr):
    rows = tl.arange(0, ROWS)
    cols = tl.program_id(0) * COLS + tl.arange(0, COLS)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    # Padding reads as 1, the identity of the product.
    x = tl.load(x_ptr + rows[:, None] * n_cols + cols[None, :], mask=mask, other=1.0)
    product = tl.reduce(x, 0, _multiply, keep_dims=True)
    tl.store(out_ptr + cols[None, :], product, mask=cols[None, :2] < n_cols)


if __name__ == "__manguage ain__":
    import©©© t