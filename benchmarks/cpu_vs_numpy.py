"""The CPU plugin (cpu:0) beside numpy in one run: vector add of 2^25 f32, softmax of
4096x1024 f32 rows, f32 matmul 1024^3 (numpy's BLAS: OpenBLAS with libopenblas0-pthread),
and the cold compile time of each kernel (the first launch, with the kernel cache off).
Not part of CTest's default run (docs/status.md has the numbers and the machine).

    TRIDENT_CACHE=0 PYTHONPATH=build-rel/python /usr/bin/python3 benchmarks/cpu_vs_numpy.py [--device cpu:0]

OpenBLAS picks its kernels by the CPU it detects, and Debian's 0.3.21 takes some newer
CPUs for an old core ("Prescott": SSE3 kernels, about a fifth of its AVX-512 speed). The
script asks the loaded libopenblas which core it chose (`openblas_get_corename`) and, where
that is older than what the CPU's flags allow, runs itself again with `OPENBLAS_CORETYPE`
set to the right core (read at the library's load, so before numpy is imported again);
`--blas-as-is` keeps OpenBLAS's own choice. The output names the machine (CPU model,
cores, load average at the start and the end) and the BLAS core, as the load of a shared
machine moves both sides' numbers.
"""

import argparse
import ctypes
import os
import statistics
import sys
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


# OpenBLAS's x86-64 cores by the newest instructions their kernels use: a core of a lower
# rank than the CPU allows is a misdetection. Cores not listed (Prescott, Core2, Nehalem,
# Opteron, Bulldozer, Sandybridge, ...) rank 0.
CORE_RANK = {"haswell": 1, "zen": 1, "skylakex": 2, "cooperlake": 3, "sapphirerapids": 3}
REEXEC_MARK = "TRIDENT_BENCH_BLAS_CORE_SET"


def cpu_info():
    """(model name, flags) of the first CPU in /proc/cpuinfo; empty where there is none."""
    model, flags = "unknown CPU", set()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, value = line.partition(":")
                key = key.strip()
                if key == "model name" and model == "unknown CPU":
                    model = value.strip()
                elif key == "flags" and not flags:
                    flags = set(value.split())
    except OSError:
        pass
    return model, flags


def wanted_core(flags):
    """The OpenBLAS core this CPU's flags allow (the names OPENBLAS_CORETYPE takes), or None."""
    if {"avx512f", "avx512vl", "avx512bw", "avx512dq", "avx512cd"} <= flags:
        return "Cooperlake" if "avx512_bf16" in flags else "SkylakeX"
    if {"avx2", "fma"} <= flags:
        return "Haswell"
    return None


def loaded_openblas():
    """numpy's loaded OpenBLAS as a ctypes library, or None (another BLAS, or not Linux)."""
    try:
        with open("/proc/self/maps") as f:
            paths = sorted({line.split()[-1] for line in f if "openblas" in line.lower() and "/" in line})
    except OSError:
        return None
    for path in paths:
        try:
            lib = ctypes.CDLL(path)
            lib.openblas_get_corename.restype = ctypes.c_char_p
            lib.openblas_get_config.restype = ctypes.c_char_p
            return lib
        except (OSError, AttributeError):
            continue
    return None


def blas_description(flags, as_is):
    """A line naming numpy's BLAS and its core. Re-executes the script with OPENBLAS_CORETYPE
    set where OpenBLAS chose a core below the CPU's, unless `as_is` or done once already."""
    lib = loaded_openblas()
    if lib is None:
        return "BLAS: not OpenBLAS (no openblas_get_corename in the process)"
    core = lib.openblas_get_corename().decode()
    config = lib.openblas_get_config().decode().split()
    version = config[1] if len(config) > 1 and config[0] == "OpenBLAS" else "?"
    want = wanted_core(flags)
    below = want is not None and CORE_RANK.get(core.lower(), 0) < CORE_RANK[want.lower()]
    if os.environ.get(REEXEC_MARK):
        return (f"BLAS: OpenBLAS {version}, core {core} (OPENBLAS_CORETYPE={os.environ.get('OPENBLAS_CORETYPE')} "
                f"set by this script: OpenBLAS chose {os.environ[REEXEC_MARK]})")
    if below and not as_is:
        env = dict(os.environ, OPENBLAS_CORETYPE=want, **{REEXEC_MARK: core})
        print(f"OpenBLAS chose core {core} on a CPU with {want}'s instructions: running again with "
              f"OPENBLAS_CORETYPE={want} (--blas-as-is keeps {core})", flush=True)
        os.execve(sys.executable, [sys.executable] + sys.argv, env)
    given = os.environ.get("OPENBLAS_CORETYPE")
    how = f"OPENBLAS_CORETYPE={given} from the environment" if given else "chosen by OpenBLAS"
    note = f"; below this CPU's {want}: --blas-as-is kept it" if below else ""
    return f"BLAS: OpenBLAS {version}, core {core} ({how}{note})"


def machine_description(model):
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    return f"machine: {model}, {cores} cores, load average {load_average()}"


def load_average():
    return " ".join(f"{v:.2f}" for v in os.getloadavg())


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
    p.add_argument("--matmul-block", default="128,256,32", help="BM,BN,BK of the matmul kernel")
    p.add_argument("--blas-as-is", action="store_true",
                   help="keep the core OpenBLAS chose, even one older than the CPU's (no OPENBLAS_CORETYPE)")
    a = p.parse_args()
    model, flags = cpu_info()
    blas = blas_description(flags, a.blas_as_is)
    dev = trident.device(a.device)
    rng = np.random.default_rng(0)
    print(machine_description(model))
    print(f"device {a.device}; numpy {np.__version__}; {blas}")
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
    print(f"load average at the end {load_average()}")


if __name__ == "__main__":
    main()
