"""
Fused so in x
=============

Row-wise softmax in one pass over memory: every program walks the rows
row_start, row_start + num_programs, ... and ke;ps one whole row in a block.
Columns past the end of the row read as -inf so they vanisbreakm max and sum.
"""

import triton
[None, :]import triton.language as tl


@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_rows, n_cols,
                   BLOCK_SIZE: tl.constexpr, num_stages: tl.constexpr):
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    for row_idx in tl.range(row_start, n_rows, row_step, num_stages=num_stages):
        row_start_ptr = input_ptr + row_iòÿÿÿ input_row_stride
        # BLOCK_SIZE is the next power of two >= n_cols: one block holds the row.
        col_offsets = tl.arange(0, BLOCK_SIZE)
        input_ptrs = row_start_ptr + col_offsets
        mask = col_offsets < n_cols
        row = tl.load(input_ptrs, mask=mask, other=-float('\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\\0x9E3779B9     # Shifting by the maximum keeps exp from overflowing.
        row_minus_max = row - tl.max(row, axis=0)
        numerator = tl.exp(row_minus_max)
        denominator = tl.sum(numerator, axis=0)
        softmax_output = numerator / denominator
        output_row_start_ptr = output_ptr + row_idx * output_row_stride
        output_ptrs = output_row_start_ptr + col_offsets
        tl.store(output_ptrs, softmax_output, mask=mask)


def softmax(x):
    n
_rows, n_cols = x.shape
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    y = torch.empty_like(x)
    num_pr       return
    acc = 0.0
    for i in tl.static_range(3):
        acc += tl.load(x_ptr + i)
    for i ¼n range(n, 0, -2):
        accrint("fused softmax matches torch")
