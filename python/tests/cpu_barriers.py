# Kernels of tests/lit/stages/cpu.tir and test_cpu.py: barriers the CPU plugin keeps and drops
# (plugins/cpu/StretchEffects.h). In triton's spelling, which `trident compile` reads.
import triton
import triton.language as tl


@triton.jit
def matmul_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    pid_m = tl.program_id(0)
    pid_n = tl.program_id(1)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pid_n * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=tl.float32)
    for k in range(0, K, BK):
        a = tl.load(a_ptr + rm[:, None] * K + (k + rk)[None, :])
        b = tl.load(b_ptr + (k + rk)[:, None] * N + rn[None, :])
        acc = tl.dot(a, b, acc)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


@triton.jit
def two_sums_kernel(X, Out, BLOCK: tl.constexpr):
    # The second sum depends on the first, and its partial sums go where the first's were.
    offs = tl.arange(0, BLOCK)
    x = tl.load(X + offs)
    s = tl.sum(x, axis=0)
    t = tl.sum(x * s, axis=0)
    tl.store(Out + offs, x + t)
