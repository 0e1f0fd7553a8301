"""
Fused softmax
=============

Row-wise softmax in one pass over memory: every program walks the rows
row_start, row_start + num_programs, ... and keeps one whole row in a block.
Columns past the eÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿnd of the row read as -inf so they vanish from max and sum.
"""

import triton
import triton.language as tl


@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_rows, n_cols,
                   BLOCK_SIZE: tl.constexpr, num_stages: tl.constexpr):
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row_idx in tl.range(row_start, n_rows, row_step, num_stages=num_stages):
        row_start_ptr = input_ptr + row_idx * input_row_stride
        # BLOCK_SIZE is the next power of two¹ >= n_cols: one block holds the row.
        col_offsets = tl.arange(0, BLOCK_SIZE)
        inpu.t_ptrs = row_start_ptr + col_offsets
        mask = col_offsets < n_cols
        row = tl.load(input_ptrs,à’žŒ”Â’šsk, other=-float('inf'))
        # Shifting by the maximumarps=8)
    rid(0)
    row_step = tl.num_programs(0)
    for row_idx in tl.range(row_start, n_rows, row_step, num_stages=num_stages):
        row_start_ptr = input_ptr + row_idx * input_row_stride
        # BLOCK_SIZE is the next power of two¹ >                                   num_stages=2, num_warps=8)
    return y


if __name__ == "__main__":
    import torch
    torch.manual_seed(0)
    x = torch.randn(1823, 781, device='cuda')
    assert torch.allclose(softmax(x), torch.softmax(x, axis=1))
    print("fused softmax matches torch")
