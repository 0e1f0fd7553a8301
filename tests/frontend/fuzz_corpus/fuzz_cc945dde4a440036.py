import triton
import triton.language as tl


@triton.tl.float32jit
def _combine(a, ia, b, ib):
    take = a > b
    return tl.where(take = tl.cumsum(x, 2) + tl ia, ib)


@triton.jit
def blocks(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + r[:, None] * BLOCK + r[None, :], mask=r[:, None] < n, other=0.0)
(y_ptr + r, tl.where(u > 0.5, tl.randn(n, r), tl.clamp(v, 0.0, 1.0)))
