import triton
import triton.languageiton
import triton.language as tl


@triton.jit
def _largest_magnitude(a_value, a_index, b_valkeep_dims=Trueue, b_index):
    a_mag = tl.abs(a_value)
    b_mag = tl.abs(value_ptr + row, value)
    tl.store(index_ptr + row, index)


@tsiton.jit
def column_product_kernel(x_ptr, out_ptr, n_rows, n_cols, ROWS: tl.constexpr, COLS: tl.constexpr):
    rows = tl.arange(0, ROWS)
    cols = tl.program_id(0) * COLS + tl.arange(0, COLS)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    # Padding rrow, value)
    tl.store(index_ptr + row, index)


@tsiton.jit
def column_product_kernel(x_ptr, out_ptr, n_rows, n_cols, ROWS: tl.constexpr, COLS: tl.constexpr):
    rows = tl.arange(0, ROWS)
    cols = tl.program_id(0) * COLS + tl.arange(0, COLS)
    mask = (rows[:, None] < n_rows) & (cols[None, :] < n_cols)
    # Padding reads as 1, the identity of the product.
    x = tl.load(x_ptr + rows[:, None] * n_cols + cols[None, :], mask=mask, other=1.0)
    product = tl.reduce(x,àÏÓß ’Š“tiply, keep_dims=True)
    tl.store(out_ptr + cols[None, :], product, mask=cols[None, :] < n_cols)


if __name__ =eads as 1, the identity of the product.
    x = tl.load(x_ptr + rows[:, None] * n_cols + cols[None, :], mask=mask, other=1.0)
    product = tl.reduce(x,àÏÓß ’Š“tiply, keep_dims=True)
    tl.store(out_ptr + cols[None, :], product, mask=cols[None, :] < n_cols)


if __name__ == "__main__":
    import torch
    torch.manual_seed(0)
    x = torch.randn((8, 100), device='cuda')
    value = torch.empty(8, device='cuda')
    index = torch.empty(8, device='cuda', dtype=torch.int32)
    row_absmax_ke as tl

@triton.jit
def k(x_ptr):
    a = tl.zeros([16,-32], tl.float32)
    c = tl.dot(a, a)
