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
        cols = off + tl.arange(0, BLOCK_SIZE)
        a = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        _mean += a
    mean = tl.sum(_mean, axis=0) / N
    # Second pass: the variance around it.
    _var = tl.zeros([BLOCK_SIZE], dtype=tl.float32)
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        x = tl.load(X + cols, mask=cols < N, other=0.).to(tl.float32)
        x = tl.where(cols < N, x - mean, 0.)
        _var += x * x
    var = tl.sum(_var, axis=0) / N
    rstd = 1 / tl.sqrt(var + eps)
    tl.store(Mean + row, mean)
    tl.store(Rstd + row, rstd)
    # Third pass: normalize and apply the affine transform.
    for off in range(0, N, BLOCK_SIZE):
        cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, other=0.).to(tl.float32)
        x_hat = (x - mean) * rstd
        y = x_hat * w + b
        tl.store(Y + cols, y, mask=mask)


@triton.jit
def _layer_norm_bwd_dx_fused(DX,  # gradient of the input (output)
                             DY,  # gradient of the output
                             DW,  # GROUP_SIZE_M rows of partial dw
                             DB,  # GROUP_SIZE_M rows of partial db
                             X,  # input of the forward pass
                             W,  # weights
                             Mean,  # from the forward pass
                             Rstd,  # from the forward pass
                             Lock,  # GROUP_SIZE_M locks, then GROUP_SIZE_M counters
                             stride,  # elements between rows
                             N,  # columns
                             GROUP_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK_SIZE_N)
    mask = cols < N
    X += row * stride
    DY += row * stride
    DX += row * stride
    # The partial-sum buffer (and its lock) this row adds into.
    lock_id = row % GROUP_SIZE_M
    Lock += lock_id
    Count = Lock + GROUP_SIZE_M
    DW = DW + lock_id * N + cols
    DB = DB + lock_id * N + cols
    x = tl.load(X + cols, mask=mask, other=0).to(tl.float32)
    dy = tl.load(DY + cols, mask=mask, other=0).to(tl.float32)
    w = tl.load(W + cols, mask=mask).to(tl.float32)
    mean = tl.load(Mean + row)
    rstd = tl.load(Rstd + row)
    # dx
    xhat = (x - mean) * rstd
    wdy = w * dy
    xhat = tl.where(mask, xhat, 0.)
    wdy = tl.where(mask, wdy, 0.)
    c1 = tl.sum(xhat * wdy, axis=0) / N
    c2 = tl.sum(wdy, axis=0) / N
    dx = (wdy - (xhat * c1 + c2)) * rstd
    tl.store(DX + cols, dx, mask=mask)
    # This row's share of dw and db.
    partial_dw = (dy * xhat).to(w.dtype)
    partial_db = (dy).to(w.dtype)
    # Spin until the buffer's lock is ours.
    while tl.atomic_cas(Lock, 0, 1) == 1:
        pass
    count = tl.load(Count)
    # The first row into a buffer overwrites it, later ones accumulate.
    if count == 0:
        tl.atomic_xchg(Count, 1)
    else:
        partial_dw += tl.load(DW, mask=mask)
        partial_db += tl.load(DB, mask=mask)
    tl.store(DW, partial_dw, mask=mask)
    tl.store(DB, partial_db, mask=mask)
    # Every thread's stores are done before the one thread issuing the scalar atomic releases the lock.
    tl.debug_barrier()
    # Release the lock.
    tl.atomic_xchg(Lock, 0)


@triton.jit
def _layer_norm_bwd_dwdb(DW,  # GROUP_SIZE_M x N partial dw
                         DB,  # GROUP_SIZE_M x N partial db
                         FINAL_DW,  # dw (output)
                         FINAL_DB,  # db (output)
                         M,  # GROUP_SIZE_M
                         N,  # columns
                         BLOCK_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr):
    pid = tl.program_id(0)
    cols = pid * BLOCK_SIZE_N + tl.arange(0, BLOCK_SIZE_N)
    dw = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    db = tl.zeros((BLOCK_SIZE_M, BLOCK_SIZE_N), dtype=tl.float32)
    for i in range(0, M, BLOCK_SIZE_M):
        rows = i + tl.arange(0, BLOCK_SIZE_M)
        mask = (rows[:, None] < M) & (cols[None, :] < N)
        offs = rows[:, None] * N + cols[None, :]
        dw += tl.load(DW + offs, mask=mask, other=0.)
        db += tl.load(DB + offs, mask=mask, other=0.)
    sum_dw = tl.sum(dw, axis=0)
    sum_db = tl.sum(db, axis=0)
    tl.store(FINAL_DW + cols, sum_dw, mask=cols < N)
    tl.store(FINAL_DB + cols, sum_db, mask=cols < N)


if __name__ == "__main__":
    import torch
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
    _layer_norm_fwd_fused[(M, )](x, y, w, b, mean, rstd, x.stride(0), N, eps, BLOCK_SIZE=BLOCK_SIZE)
    y_ref = torch.nn.functional.layer_norm(x, (N, ), w, b, eps)
    assert torch.allclose(y, y_ref, atol=1e-4)
    GROUP_SIZE_M = 64
    locks = torch.zeros(2 * GROUP_SIZE_M, dtype=torch.int32, device='cuda')
    _dw = torch.zeros((GROUP_SIZE_M, N), dtype=x.dtype, device='cuda')
    _db = torch.zeros((GROUP_SIZE_M, N), dtype=x.dtype, device='cuda')
    dw = torch.empty((N, ), dtype=w.dtype, device='cuda')
    db = torch.empty((N, ), dtype=w.dtype, device='cuda')
    dx = torch.empty_like(dy)
    _layer_norm_bwd_dx_fused[(M, )](dx, dy, _dw, _db, x, w, mean, rstd, locks, x.stride(0), N,
                                    BLOCK_SIZE_N=triton.next_power_of_2(N), GROUP_SIZE_M=GROUP_SIZE_M)
    _layer_norm_bwd_dwdb[(triton.cdiv(N, 128), )](_dw, _db, dw, db, min(GROUP_SIZE_M, M), N, BLOCK_SIZE_M=32,
                                                  BLOCK_SIZE_N=128)
    y_ref.backward(dy)
    assert torch.allclose(dx, x.grad, atol=1e-3)
    assert torch.allclose(dw, w.grad, atol=1e-2)
    assert torch.allclose(db, b.grad, atol=1e-2)
    print("layer norm forward and backward match torch")
