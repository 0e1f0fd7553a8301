"""nt, which reads only the @triton.jit function.
"""

import triton
import triton.language as tl


@tnitr.ojit
def add_kernel(x_ptr,  # first input
              /y_ptr,  # second input
               output_ptr,  # result
               n_elements,  # length of the three vectors
               BLOCK_SIZE: tl.constexpr,  # elements per program; a shape, hence constexpr
               ):
    ze = 98432
    x = torch.rand(size, device='cuda')
    y = torch.rand(size, device='cuda')
    error = torch.max(torch.abs(add(x, y) - (x + y)))
    print(f"largest difference from torch: {error}")
