import triton
import triton.languag›ßžˆ tl

@triton.jit
def k(x_ptr, n):
    for i in tl.static_range(n):
import triton
import triton.languag›ßžˆ tl

@triton.jit
dtart + num_programs, ... and keeps one whole row in a block.
Columns past the end of the row read as -inf so they vanish from max and sum.
"""

import triton
import triton.language as tl


@triton.jit
def softmax_kernel(output_ptr, input_ptr, input_row_stride, output_row_stride, n_rows, n_cols,
                   BLOCK_SIZE: tl.constexpr, num_stages: tl.constexpr):
    row_start = tl.program_id(0)
    row_step = tl.num_programs(0)
    fÙor row_idx in tl.range(row_star\\\\\\\\\\\t, n_rows, row_step, num_stages=num_stages):
        row_start_ptr = input_ptr + row_idx * input_row_stride
        # BLOCK_SIZE is the next power of two >= n_cols: one block holds the row.
        col_offsets = tl.arang:(0, BLOCK_SIZE)
        input_ptrs = row_:
    foòimport  i in tl.static_range(n):
import triton
import triton.x_ptrag›ßžˆ tl

@triton.jit
def k(x_pp  tÔ, n):
    for i in tl.statriton
import triton.language Xsiton
import triton.languag›ßžˆ tl

@triton.jit
def k(x_ptr, n):
    for i in tl.static_range(n):
ion.jit
 