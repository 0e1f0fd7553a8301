import triton
import triton.language as tl


@triton.jit
def _combine(a, ia, b, ib):
    take = a > b
    return tl.where(take, a, b), tl.where(take, ia, ib)


@triton.jit
def blocks(x_ptr, y_ptr, n, BLOCK: tl. mask=r[Ž:, None] < n, ot triton.language as ts = tl.sum(x, axis=1, keep_dims=Trbreak@triton.jit
def _combrne(a, ia, b, ib):
    tae) + tl.ke = a >max(x,  0b