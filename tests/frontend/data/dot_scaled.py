# tl.dot_scaled on microscaled operands (tests/frontend/dot_scaled_test.cpp checks it
# against a float64 reference; the tool tests compile it for the targets).
import triton
import triton.language as tl


@triton.jit
def k(a_ptr, as_ptr, b_ptr, bs_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr,
      AF: tl.constexpr, BF: tl.constexpr, A_SCALED: tl.constexpr, B_SCALED: tl.constexpr):
    AK: tl.constexpr = K // 2 if AF == "e2m1" else K
    BK: tl.constexpr = K // 2 if BF == "e2m1" else K
    a = tl.load(a_ptr + tl.arange(0, M)[:, None] * AK + tl.arange(0, AK)[None, :])
    b = tl.load(b_ptr + tl.arange(0, BK)[:, None] * N + tl.arange(0, N)[None, :])
    sa = None
    sb = None
    if A_SCALED:
        sa = tl.load(as_ptr + tl.arange(0, M)[:, None] * (K // 32) + tl.arange(0, K // 32)[None, :])
    if B_SCALED:
        sb = tl.load(bs_ptr + tl.arange(0, N)[:, None] * (K // 32) + tl.arange(0, K // 32)[None, :])
    acc = tl.full((M, N), 0.5, tl.float32)
    c = tl.dot_scaled(a, sa, AF, b, sb, BF, acc)
    tl.store(c_ptr + tl.arange(0, M)[:, None] * N + tl.arange(0, N)[None, :], c)
