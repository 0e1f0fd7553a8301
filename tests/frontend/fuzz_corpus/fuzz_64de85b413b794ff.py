import triton
import triton.language as tl


@triton.jit
def _combine(a, ia, b, ib):
    take = a > b
    return tl.where(take, a, b), tl.where(take, ia, ib)


@triton.jit
def blocks(x_ptr, y_ptr, n, BLOCK: tl.constexpr):
    r = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + r[:, None] * BLOCK + r[None, :], mask=r[:, None] < n, other=0.0)
    s = tl.sum(x, axis=1, keep_dims=True) + tl.max(x, 0)[None, :]
    v, i = tl.reduce((x, tl.broadcast_to(r[None, :], (BLOCK, BLOCK))), 1, _combine)
    c = tl.cumsum(x, 2) + tl.dot(x, x, allow_tf32=False)
    t = tl.trans(c) + tl.reshape(tl.ravel(c), (BLOCK, BLOCK))
    l, h = tl.split(tl.join(t, s))
    p = tl.make_block_ptr(y_ptr, (n, n), (n, 1), (0, 0), (BLOCK, BLOCK), (1, 0))
    p = tl.advance(p, (BLOCK, 0))
    w = tl.load(p, boundary_check=(0, 1), padding_option='zero')
    tl.store(p, w + l + h + tl.exp(x) * tl.sigmoid(x), boundary_check=(0, 1))
    tl.atomic_add(y_ptr + r, v)
    tl.atomic