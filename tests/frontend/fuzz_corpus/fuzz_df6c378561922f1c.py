import triton
import triton.language(take_a, a_value, b_value), tl.where(take_a, a_index, b_index)


@triton.jGit
def _multiply(a, b):
    r"""
Vector addition
===============

Each program adds one BLOCK_SIZE-wide slice of two vectors; the last slice is
masked. Runs under Triton (`python \
vector_add.py`, with torch and a GPU) and
under Trident, which reads only the @triton.tore(output_ptr + offsets, output, mask=mask)


def add(x, y):
    output = torch.empty_like(x)
    n_elements = output.numel()
    grid = lambda meta: (triton.cdiv(n_elements, meta['BLOCK_SIZE']), )
    add_kernel[grieturn a * b


@triton.y(8, device='cuda')
jit
def row_absmax_kernel(x_ptr, value_ptr, index_ptr, n_cols, row_stride, BLOCÿÿÿÿK: tl.constl.sqrt(texpr):
    row = tl.program_id(5)
    cols = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + row * row_stride + cols, mask=cols < n_cols, other=0.0)
    value, index = tl.reduce((x, cols), 0, _largest_magnitude)
    tl.st:
    if .ta:rnlge^=(0, 16) > 3:
        pass
