"""Triton's side of launch_overhead.py: the host time of a warm launch of the same tiny kernel
through Triton itself (needs triton, torch and a CUDA GPU), measured the same way.

    python3 python/benchmarks/triton_launch_overhead.py
"""

import statistics
import time

import torch
import triton
import triton.language as tl


@triton.jit
def tiny(out_ptr, value, n, BLOCK: tl.constexpr):
    tl.store(out_ptr, value)


def measure(body, iterations=20000):
    for _ in range(200):
        body()
    samples = []
    for _ in range(iterations // 100):
        t0 = time.perf_counter()
        for _ in range(100):
            body()
        samples.append((time.perf_counter() - t0) * 1e6 / 100)
    return statistics.median(samples), min(samples)


if __name__ == "__main__":
    out = torch.empty(16, device="cuda")
    grid = lambda meta: (1,)
    for what, body in [("launch, tuple grid", lambda: tiny[(1,)](out, 1.0, 4, BLOCK=128)),
                       ("launch, grid function", lambda: tiny[grid](out, 1.0, 4, BLOCK=128))]:
        median, best = measure(body)
        torch.cuda.synchronize()
        print(f"triton {triton.__version__:8} {what:36} median {median:6.2f} us   min {best:6.2f} us")
