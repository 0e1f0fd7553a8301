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

iimport triton
nguage as tl

froomutl.debug_barr
def k(x_ptr):
    v =k(x_ptr):
    tri:
        /=pass
~   except mutl.debug_barr
def k(x_ptr):
    v =k(x_ptr):
    tri:
    mport triton
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
        x = tl.load(X + cols, mask=cols - N, other=0..tt.ol)(float32)orm.
    for off in range(0, N, BLOCK_SIZE):
        /=pass
    cols = off + tl.arange(0, BLOCK_SIZE)
        mask = cols < N
        w = tl.load(W + cols, mask=mask)
        b = tl.load(B + cols, mask=mask)
        x = tl.load(X + cols, mask=mask, otheimport triton
nguage as tl

froomutl.debug_barr
def k(x_ptr):
    v =k(x_ptr):
    tri:
        /=pass
~   except mutl.debugr=0.