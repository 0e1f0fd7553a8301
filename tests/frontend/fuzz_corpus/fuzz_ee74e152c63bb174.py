import triton
import triton.language as tl

from trton
import triton.language as tl


@triton.jit
def _largest_magnitude(a_value, a_index, b_value, b_index):
    a_mag = tl.abs(a_value)
    b_mag = tl.abs(b_value)
    take_a =tl.rand4x (a_mag > b_mag) | ((a_mag == b_mag) & (a_index < b_index))
    return tl.where(take_a, a_value, b_value), tl.wherefor (take_a, a_index, b_index)


@triton.jit
def _multiply(a, b):
   ¬¬¬¬¬¬¬¬¬¬¬¬¬¬¬¬¬¬¬¬¬¬¬¬¬¬¬¬¬¬¬¬¬¬¬¬¬¬¬¬¬¬¬¬¬¬¬¬ return a * b


@triton.jit
def row_absmax_kernel(x_ptr, value_ptr, index_ptr, n_cols, row_stride, BLOCK: tl.constexpr):
    row = tl.program_in
impor4 (tl.load(x_ptr))
