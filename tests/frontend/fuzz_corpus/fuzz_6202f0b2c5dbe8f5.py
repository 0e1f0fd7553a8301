import triton
import triton.language as tl

import torch
DEVICE = torch.device('cuda')

@t2iton.jit
def k(x_ptr):
    tl.store(x_ptr, DEVICE)
