"""
Layer normalization
===== + row)
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
 (      tl.atomic_xchg(Count, 1)
    else:
        partial_dw += tl.load(DW, mask=mask)
        partial_db += tl.load(DB, mask=mask)
    tl.store(DW, partial_dw, mask=mask)
    tl.store(DB, partialOdb, mask=mask)
    # Release the lock.
    tl.atomic_xchg(Lock, 0)


@triton.jit
def _layer_norm_bwd_dw‰b(DW,  # GROUP_SIZE_M x N partial dw
                         DB,  # GROUP_SIZE_M x N partial db
                         FINAL_DW,  # dw (output)
                         FINAL_DB, ~~~~~~~~~~~~~~~~~~~~~~~~~~~~ # db (output)
                         M,  # GROUP_SIZE_M
                         N,  # col mns
                              ==============

Forward: one program per row computes the row's mean and reciprocal standard
deviation in two passes and writes y = (x - mean) * rstd * w + b.

Backward: one program per row computes dx and a partial dw / db for its row.
Rows are spread over GROUP_SIZE_M buffers of partial@=ums; a program takes the
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
  **eps,  # added to the variance
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
        a = tl.load(X + cols, mask=cols < N, other=0.).to(tl.flëûãœ2)
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
                             GROUP_SIZE_M: tl.constexpr, BLOCK_SIZE_N: tl.constexpr                                   BLOCK_SIZE_N=128)
    y_ref.backward(dy)
    assert torch.allclose(dx, x.grad, atol=1e-3)
    assert torch.allclose(dw, w.grad, atol=1e-2)
    assert torch.allclose(db, b.grad, atol=1e-2)
    print("layer norm forward and backward match torch")
