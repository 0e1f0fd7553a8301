# tl.flip, tl.sort, tl.topk, tl.bitonic_merge, tl.gather and tl.histogram in one
# kernel (the same one tests/frontend/standard_test.cpp checks in the interpreter),
# for the targets' tool tests: x is R x C, each result goes to its own slice of out.
import triton
import triton.language as tl


@triton.jit
def k(x_ptr, i_ptr, out_ptr, R: tl.constexpr, C: tl.constexpr, K: tl.constexpr):
    r = tl.arange(0, R)[:, None]
    c = tl.arange(0, C)[None, :]
    x = tl.load(x_ptr + r * C + c)
    n: tl.constexpr = R * C
    tl.store(out_ptr + r * C + c, tl.flip(x, 1))
    tl.store(out_ptr + n + r * C + c, x.flip(dim=0))
    tl.store(out_ptr + 2 * n + r * C + c, tl.sort(x))
    tl.store(out_ptr + 3 * n + r * C + c, x.sort(dim=1, descending=True))
    tl.store(out_ptr + 4 * n + r * K + tl.arange(0, K)[None, :], tl.topk(x, K))
    i = tl.load(i_ptr + r * C + c)
    tl.store(out_ptr + 5 * n + r * C + c, tl.gather(x, i % C, 1))
    tl.store(out_ptr + 6 * n + r * C + c, tl.gather(x, (i % R + r * 0), axis=0))
    # each row's first half sorted up, its second half down: a bitonic row
    halves = tl.reshape(x, [2 * R, C // 2])
    up = tl.reshape(tl.sort(halves), [R, C])
    down = tl.reshape(tl.sort(halves, descending=True), [R, C])
    tl.store(out_ptr + 7 * n + r * C + c, tl.bitonic_merge(tl.where(c < C // 2, up, down)))
    h = tl.histogram(tl.reshape(i % 8, [n]), 8, mask=tl.reshape(c + r * 0 < C - 1, [n]))
    tl.store(out_ptr + 8 * n + tl.arange(0, 8), h.to(x.dtype))
