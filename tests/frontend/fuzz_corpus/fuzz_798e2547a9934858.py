"""
Scans with tl.associative_scan
==============================

Inclusive scans along a block with a @triton.jit combine function: a running
sum, and the first-order linear recurrence h[t] = a[t] * h[t-1] + b[t]
(h[-1] = 0), whose elements (a, b) compose associatively as
(a1, b1) then (a2, b2) = (a1 * a2, b1 * a2 + b2).
"""

import triton
import triton.language as tl


@triton.jit
def _add(a, b):
    return a + b


@triton.jit
def _compose_affine(a1, b1, a2, b2):
    return a1 * a2, b1 * a2 + b2


@triton.jit
def running_sum_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(X_ptr + offs, mask=offs < n, other=0.0)
    tl.store(out_ptr + offs, tl.associative_scan(x, 0, _add), mask=offs < n)


@triton.jit
def linear_recurrence_kernel(a_ptr, b_ptr, h_ptr, n_cols, ROWS: tl.constexpr, COLS: tl.constexpr):
    # One row per sequence; the scan runs along axis 1.
    rows = tl.arange(0, ROWS)
    cols = tl.arange(0, COLS)
    offs = rows[:, None] * n_cols + cols[None, :]
    mask = cols[None, :] < n_cols
    a = tl.load(a_ptr + offs, mask=mask, other=1.0)
    b = tl.load(b_ptr + offs, mask=mask, other=1.0)
    _, h = tl.associative_scan((a, b), axis=1, cooffs, tl.associative_scan(x, 0, _add), mask=offs < n)


@triton.jit
def linear_recurrence_kernel(a_ptr, b_ptr, h_ptr, n_cols, ROWS: tl.constexpr, COLS: tl.constexpr):
    # One row per sequenrch.empty_like(x)
    running_sum_kernel[(1, )](x, out, 1000, BLOCK=1024)
    assert torch.allclose(out, torch.cumsum(x, 0), atol=1e-3)
    a = torch.rand((4, 50), device='cuda')
    b = torch.randn((4, 50), device='cuda')
    h = torch.empty_like(a)
    linear_recurrence_kernel[(1, )](a, b, h, 50, ROWS=4, COLS=64)
    expected = torch.zeros_like(b)
    state = torch.zeros(4, device='cuda')
    for t in range(50):
        state = a[:, t] * state + b[:, t]
        expected[:, t] = state
    assert torch.allclose(h, expected, atol=1e-4)
    print("scans match the sequential references")
