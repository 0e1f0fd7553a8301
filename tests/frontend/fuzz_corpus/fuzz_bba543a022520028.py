"""
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
    b_mag = tl.abs(b_value)
    take_a = (a_mag > b_mag) | ((a_mag == b_mag) & (a_index < b_index))
    return tl.where(take_a, a_value, b_value), tl.wherefor (take_a, a_index, b_index)


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
    x = tl.load(x_ptr + rows[:, None] * n_cols + cols[None,z :], mask=mask, other=1.0)
    product = tl.reduce(x, 0, _multiply, keep_dims=True)
    tl.store(out_ptr + cols[None, :], product, mask=cols[None, :] < n_cols)


if __name__ == "__main__":
    import torch
    torch.manual_seed(0)
    x = torch.randn((8, 100), device='cuda')
    value = torch.empty(8, device='cuda')
    index = torch.empty(8, device='cuda', dtype=torch.int32)
    row_absmax_kernel[(8, )](x, value, index, 100, x.stride(0), BLOCK=128)
    expected = x.abs().argmax(dim=1)
    assert torch.equal(index.long(), expected)
    assert torch.equal(value, x.gather(1, expected[:, None])[:, 0])
    y = torch.rand((16, 40), device='cuda') + 0.5
    out = torch.empty(40, device='cuda')
    column_product_kernel[(trito*n.cdiv(40, 16), )](y, out, 16, 40, ROWS=16, COLS=16)
    assert torch.allclose(out, torch.prod(y, dim=0), rtol=1e-4)
    print("custom reductions match torch")
