"""The CPU plugin (cpu:0) beside numpy in one run: vector add of 2^25 f32, softmax of
4096x1024 f32 rows, f32 matmul 1024^3 (numpy's BLAS: OpenBLAS with libopenblas0-pthread),
and the cold compile time of each kernel (the first launch, with the kernel cache off).
Not part of CTest's default run (docs/status.md has the numbers and the machine).

    TRIDENT_CACHE=0 PYTHONPATH=build-rel/python python3 benchmarks/cpu_vs_numpy.py [--device cpu:0]
"""

import argparse
import statistics
import time

import numpy as np

import trident
import trident.language as tl


@trident.jit
def add_kernel(x_ptr, y_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) + tl.load(y_ptr + offs, mask=mask), mask=mask)


@trident.jit
def softmax_kernel(out_ptr, in_ptr, row_stride, n_cols, BLOCK: tl.constexpr):
    row = tl.program_id(0)
    cols = tl.arange(0, BLOCK)
    mask = cols < n_cols
    x = tl.load(in_ptr + row * row_stride + cols, mask=mask, other=-float("inf"))
    x = x - tl.max(x, axis=0)
    num = tl.exp(x)
    tl.store(out_ptr + row * row_stride + cols, num / tl.sum(num, axis=0), mask=mask)


@trident.jit
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
        acc = tl.dot(a, b, acc)  # the accumulator form (samples/matmul.py); `acc += tl.dot(a, b)` is not fused yet
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc)


def timed(body, repeats):
    body()
    samples = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        body()
        samples.append(time.perf_counter() - t0)
    return statistics.median(samples)


def cold(body):
    t0 = time.perf_counter()
    body()
    return time.perf_counter() - t0


def row(name, unit, ours, theirs, compile_s):
    print(f"{name:<16} {ours:10.2f} {theirs:10.2f} {unit:<7} {ours / theirs:6.2f}x   {compile_s * 1e3:8.0f} ms")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--device", default="cpu:0")
    p.add_argument("--repeats", type=int, default=10)
    p.add_argument("--matmul-block", default="128,128,32", help="BM,BN,BK of the matmul kernel")
    a = p.parse_args()
    dev = trident.device(a.device)
    rng = np.random.default_rng(0)
    print(f"device {a.device}; numpy {np.__version__}")
    print(f"{'kernel':<16} {'trident':>10} {'numpy':>10} {'unit':<7} {'ratio':>7}  {'cold compile':>12}")

    n = 1 << 25
    x, y = rng.random(n, dtype=np.float32), rng.random(n, dtype=np.float32)
    bx, by, bz = trident.from_numpy(x, device=dev), trident.from_numpy(y, device=dev), trident.empty(n, device=dev)
    launch = lambda: add_kernel[(trident.cdiv(n, 1024),)](bx, by, bz, n, BLOCK=1024)
    compile_s = cold(launch)
    assert np.array_equal(bz.numpy(), x + y), "vector add differs from numpy"
    z = np.empty_like(x)
    gbs = lambda s: 3 * 4 * n / s / 1e9
    row("vector add", "GB/s", gbs(timed(launch, a.repeats)), gbs(timed(lambda: np.add(x, y, out=z), a.repeats)),
        compile_s)

    rows, cols = 4096, 1024
    m = rng.standard_normal((rows, cols), dtype=np.float32)
    bm, bo = trident.from_numpy(m, device=dev), trident.empty(rows * cols, device=dev)
    launch = lambda: softmax_kernel[(rows,)](bo, bm, cols, cols, BLOCK=1024)
    compile_s = cold(launch)

    def numpy_softmax():
        e = np.exp(m - m.max(axis=1, keepdims=True))
        return e / e.sum(axis=1, keepdims=True)

    ref = numpy_softmax()
    assert np.allclose(bo.numpy().reshape(rows, cols), ref, rtol=1e-5, atol=1e-7), "softmax differs from numpy"
    gbs = lambda s: 2 * 4 * rows * cols / s / 1e9
    row("softmax", "GB/s", gbs(timed(launch, a.repeats)), gbs(timed(numpy_softmax, a.repeats)), compile_s)

    size = 1024
    bm_, bn_, bk_ = (int(v) for v in a.matmul_block.split(","))
    A = rng.standard_normal((size, size), dtype=np.float32)
    B = rng.standard_normal((size, size), dtype=np.float32)
    ba, bb, bc = trident.from_numpy(A, device=dev), trident.from_numpy(B, device=dev), trident.empty(size * size,
                                                                                                     device=dev)
    launch = lambda: matmul_kernel[(size // bm_, size // bn_)](ba, bb, bc, size, size, size, BM=bm_, BN=bn_, BK=bk_)
    compile_s = cold(launch)
    assert np.allclose(bc.numpy().reshape(size, size), A @ B, rtol=1e-3, atol=1e-3), "matmul differs from numpy"
    gflops = lambda s: 2 * size**3 / s / 1e9
    row("matmul f32", "GFLOP/s", gflops(timed(launch, max(3, a.repeats // 3))),
        gflops(timed(lambda: A @ B, a.repeats)), compile_s)


if __name__ == "__main__":
    main()
