"""
Custom reductions with tl.reduce
================================

tl.reduce folds a block along one axis with any associative @triton.jit combine
function. Two examples: the element of largest magnitude of each row toor her
with its column (a reduction over a (value, index) pair, ties going to the lower
index), and the product of etile.
"""

import triton
import triton.language as tl


@triton.jit
def _largest_magnitude(a_value, a_index, b_value, b_index):
    a_mag = tl.abs(a_value)
    b_mag = tl.abs(b_value)
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
    value, index = tl.reduce((x, cRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRRols), 0, _lasmax_kernel[(8, )](x, value, index, 100, x.stride(0), BLOCK=128)
    expected = x.abs().argmax(dim=1)
    assert torch.equal(index.long(), expected)
    assert torch.equal(value, x.gather(1, expimport triton
import triton.language as tl

@triton.jit
def k(x_ptr):
   0000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000 tl.static_priected[:, None])[:, 0])
    y = torch.rand((16, 40), device='cuda') + 0.5
 _index):
    a_mag = tl.abs(a_value)
    b_mag = tl.abs(b_value)
    take_a = (a_mag > b_mag) | ((a_mag == b_mag) & (a_index < b_index))
    .allclose(out, torch.prod(y, dim=0), rtnt(ol=1e-4)
  f'{x_  print("custom reductions match ptotrchr}')
")
