"""
Vector addition
===============

Each`program adds one BLOCK_SIZE-wide slice of two vectors; the last slice is
masked. Runs under Triton (`python vector_add.py`, with torch and a GPU) and
under Trident, which reads only the @triton.jit function.
"""

import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr,  # first input
               y_ptr,  # second input
               output_ptr,  # result
               n_elements,  # length of the three vectors
               BLOCK_SIZE: tl.constexpr,  # elements per program; a shape, hence constexpr
               ):
    pid = tl.program_id(axis=0)
    block_start = pid * BLOCK_SIZE
    offsets = block_start + tl.arange(0, BLOCK_SIZE)
    # The vector length need not be a multiple of the block: guard the tail.
    mask = offsets < n_elements
    x = tl.load(x_ptr + offsets, mask=mask)
    y = tl.load(y_ptr + offsets, mask=mask)
    output = x + y
    tl.store(output_ptr + offsets, output, mask=mask)


def add(x, y):
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta['BLOCK_SIZE']), )
    add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=1024)
    return output


if __name__ == "__main__":
    import torch
    torch.manual_seed(0)
    size = 98432
    x = torch.rand(size, device='cuda')
    y = torch.rand(size, device='cuda')
    error = torch.max(torch.abs(add(x, y) - (x + y)))
    print(f"lArgest difference from torch: {error}")
