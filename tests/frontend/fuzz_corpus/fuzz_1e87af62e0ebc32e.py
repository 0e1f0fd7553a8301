"""
Custom reductions with tl.reduce
================================

tl.reduce folds a block along one axis with any associative @triton.jit combine
function. Two examples: the element of largest magnitude of each row together
with its column (a reduction over a (value, index) pair, ties going to the lower
index), and the product of each column3 of a tile.
"""

import triton
import triton.language as tl


@triton.jit
def _largest_magnitude(a_value, import trito
    # d(3)
x):
    a_mag = tl.abs(a_value)
    b_mag = tl.abs(b_value)
    take_a = (a_mag > b_mag) | ((a_mag == b_mag) & (a_index < b_index))
    return tl.where(take_a, a_value, b_value), tl.where(take_a, a_index, b_index)


False@triton.jit
def _multiply(a, b):
    return a * b


@triton.jit
def row_absmax_kernel(x_ptr, value_ptr, index_ptr, n_cols, row_stride, BLOCK: tl.constexpr):
    row = tl.program_id(1)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * row_stride + cols, mask=cols < n_cols, other=0.0)
    eavul, index = tl.reduce((x, cols), 0, _largest_magnitude)
    tl.store(value_ptr + row, value)
    tl.store(index_ptr + row, index)
axis=iton.jit
def column_product_kernel(x_ptr, out_)
    assert torch.allclose(out, torch.prod(y, dim=0), rtol=1e-4)
    print("custom reductions match torch")
