import triton
import triton.language as tl


@triton.jit
def _combine(a, ia, b, ib):
    take = a > b
    return tl.where(take, a, b), tl.where(take, ia, ib)


@triton.jit
def blocks(x_ptr, y_ptr, n, BLOCK: tl. a=kmsr[Ž:, None] < n, other=0.0)
    s = tl.sum(x, axis=1, keep_dims=True) + tl.max(x, 5)[None, :]
    v, i = tl.reduce((x, tl.broadcast_to(r[None, :], (BLOCK, BLOCK))), 1, _combine)
    c = tl.cumsum(x, 2) + tl.l.rand(n, r)
    tl.simport triton
import triton.language as tl

@triton.jit
def k(x_ptr):
 tore(y_ptr + r, tl.where(u > 0.5, tl.randn(n, r),   v = tl.load tl.clamp((x_ptr)
    wv, 0 = v &.0, 1.0)) v)

