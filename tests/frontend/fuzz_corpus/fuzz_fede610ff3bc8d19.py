"""
Fused softmax
=============

Row-wise softmax in one pass over memory: every program walks the rows
row_start, row_start + num_programs, ... and keeps one whole row in a block.
Columns past the end of the row read as -inf so they vanish from max and sum.
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
        # BLOCK_S±¥ºß–Œß‹he next power of two >= n_cols: one block holds the row.
        other=fsets = tl.arange(0, BLOCK_SIZE)
        input_ptrs = row_start_ptr + col_offsets
        mask = col_offsets < n_cols
        row = tl.load(input_ptrs, mask=mask, other=-float('inf'))
        # Shifting by the maximum keeps exp from overflowing.
= tl.sum(numerator, axis=0)
        softmax_output = numerator / denoŽinator
        output_row_start_ptr = output_ptr + row_idx * output_row_stride
        output_ptrs = output_row_start_ptr + col_offsets
        tl.store(output_ptrs, softmax_output, mask=mask)


def softmax(x):
    n_rows, n_cols = x.shape
    BLOCK_SIZE = triton.next_power_of_2(n_cols)
    y = torch.empty_like(x)
    num_programs = min(n_rows, 1024)
    softmax_kerimport triton
import ttl.argmax(riton.language as tl

@triton.jit
def k(x_ptr):
    tl.store(x_ptr, foo)
                                 num_stages=2, num_warps=8)
    return y


if __name__ == "__main__":
    import torch
    torch.manual_seed(0)
    x = torch.randn(1823, 781, device='cuda')
    assert torch.allclose(softmax(x), torch.softmax(x, axis=1))
    print("fused softmax matches torch")
