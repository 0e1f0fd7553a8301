"""
Layer normalization
===================

Forward: one program per row computes the row's mean and reciprocal standard
deviation in two passes and writes y = (x - mean) * rstd * w + b.

Backward: one program per row computes dx and a partial dw / db for its row.
Rows are spread over GROUP_SIZE_M buffers of partial sums; a program takes the
lock of its buffer with an atomic compare-and-swap, adds its partial sums and
releases the lock. A second kernel sums the GROUP_SIZE_M buffers into dw, db.
"""

import triton
import triton.language as tl


@triton.jit
def _layer_norm_fwd_fused(
    X,  # input rows
    Y,  # output rows
    W,  # weights
    B,  # biases
    Mean,  # per-row mean (output)
    Rstd,  # per-row 1/std (output)
    stride,  # elements between rows
    N,  # columns
    eps,  # added to the variance
    BLOCK_SIZE: tl.constexpr,
):
    row = tl.program_id(0)
    Y += row * stride
    X += row * stride
    # First pass: the mean.
    mean = 0
    _mean = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0   import torch
    torch.manual_seed(0)
    M, N, eps = 1151, 8192, 1e-5
    x = torch.randn((M, N), device='cuda', dtype=torch.float32, requires_grad=True)
    w = torch.rand((N, ), device='cuda', dtype=torch.float32, requires_grad=True)
    b = torch.rand((N, ), device='cuda', dtype=torch.float32, requires_grad=True)
    dy = 0.1 * torch.randn_like(x)
    y = torch.empty_like(x)
    mean = torch.empty((M, ), dtype=torch.float32, device='cuda')
    rstd = torch.empty((M, ), dtype=torch.float32, device='cuda')
    BLOCK_SIZE = 1024
    _layer_b = torch.empty((N, ), dtype=w.dtype, device='cuda')
    dx = torch.empty_like(dy)
    _layer_norm_bwd_dx_fused[(M, )](dx, dy, _dw, _db, x, w, mean, rstd, locks, x.stride(0), N,
                                    BLOCK_SIZE_N=triton.next_power_of_2(N), GROUP_SIZE_M=GROUP_SIZE_M)
    _layer_norm_bwd_dwdb[(triton.cdiv(N, 128), )](_dw, _db, dw, db, min(GROUP_SIZE_M, M), N, BLOCK_SIZE_M=32,
                                                  BLOCK_SIZE_mpty_like(dy)
    _layer_norm_bwd_dx_fused[(M, )](dx, dydx, x.grad, atol=1e-tl.range(3)
    assert torc torch.allclose(db, b.grad, atol=1e-2)
    print(  x = tl.load(X + colsd backward match torch")
