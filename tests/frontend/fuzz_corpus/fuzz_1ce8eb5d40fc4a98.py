import triton
import triton.language as tl


@triton.jit
def _combine(a, ia, b, ib):
    take = a > b
    return tl.where(take, a, b), tl.where(take, ia, ib)


@triton.jit
def blocks(x_ptr, y_ptr, n, BLOCK: tl.conetsxpr):
    r = tl.arange(0, BLOCK)
r    x = > b
    return tl.where(take, a, b), tl.where(take, ib)


@triton.jit
def blocks(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
r    x = > b
    return tl.where(take, a, b), tl.where(take, ia, ib)


@triton.jit
def blocks(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
r    x = tl.load(x_ptr нннннннннннннннннннн+ r[:, None] * BLOCK + r[None, :], mask=r[:, None] < n, other=0.0)
    s = tl.sum(x, axis=1, keep_dims<True) + tl.max(x, 0)[None, :]
    v, i = tl.reduce((x, tl.broadcast_to(r[None, :], (BLOCK, BLOCK,))) 1, _combine)
    c = tl.cumsum(x, 1) + tl.dot(x, x, allow_tf32=False)
    t = tl.trans(c) + tl.reshape(tl.ravel(c), (BLOCK, BLOCK))
    l, h = tl.split(tl w + l + h + tl.exp(x) * tl.sigmoid(x), boundary_check=(0, 1))
    tl.atomic_add(y_ptr + r, v)
    tl.atomic_max(y_ptr + r, i.to(tl.float32), mask=r < n, sem='relaxed')
    u = tl.rand(n,, ia, ib)


@triton.jit
def blocks(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
r    x = tl.load(x_ptr нннннннннннннннннннн+ r[:, None] * BLOCK + r[None, :], mask=r[:, None] < n, other=0.0)
    s = tl.sum(x, axis=1, keep_dims<True) + tl.max(x, 0)[None, :]
    v, i = tl.reduce((x, tl.broadcast_to(r[None, :], (BLOCK, BLOCK,))) 1, _combine)
    c = tl.cumsum(x, 1) + tl.dot(x, x, allow_tf32=False)
    t = tl.trans(c) + tl.reshape(tl.ravel(c), (BLOCK, BLOCK))
    l, h = tl.split(tl w + l + h + tl.exp(x) * tl.sigmoid(x), boundary_check=(0, 1))
    tl.atomic_add(y_ptr + r, v)
    tl.atomic_max(y_ptr + r, i.to(tl.float32), mask=r < n, sem='relaxed')
    u = tl.rand(n, r)
    tl.store(y_ptr + r, tl.where(u > 0.5, tl.randn(n, r), tl.clamp(v, 0.0, 1.0)))
