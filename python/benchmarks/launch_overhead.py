"""Host-side time of a warm Python launch of a tiny kernel, beside the C++ runtime's own
(trident-bench-launch measures that): `kernel[grid](...)` with a tuple grid and with a grid
function, and `kernel.warmup(...)`, which binds the arguments and finds the compiled
specialization without launching (the Python and runtime part alone; on host:0 a launch also
runs the program in the interpreter).

    PYTHONPATH=build/python python3 python/benchmarks/launch_overhead.py [--device D] [--torch]
"""

import argparse
import statistics
import time

import trident
import trident.language as tl


@trident.jit
def tiny(out_ptr, value, n, BLOCK: tl.constexpr):
    tl.store(out_ptr, value)


def measure(body, iterations):
    for _ in range(200):
        body()
    samples = []
    batch = 100
    for _ in range(max(1, iterations // batch)):
        t0 = time.perf_counter()
        for _ in range(batch):
            body()
        samples.append((time.perf_counter() - t0) * 1e6 / batch)
    return statistics.median(samples), min(samples)


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--device", default=None)
    p.add_argument("--iterations", type=int, default=20000)
    p.add_argument("--torch", action="store_true", help="also launch with a torch CUDA tensor (DLPack)")
    a = p.parse_args()
    dev = trident.device(a.device)
    out = trident.empty(16, device=dev)
    grid = lambda meta: (1,)
    rows = [
        ("launch, tuple grid", lambda: tiny[(1,)](out, 1.0, 4, BLOCK=128)),
        ("launch, grid function", lambda: tiny[grid](out, 1.0, 4, BLOCK=128)),
        ("warmup (bind + lookup, no launch)", lambda: tiny.warmup(out, 1.0, 4, BLOCK=128)),
    ]
    if a.torch:
        import torch
        t = torch.empty(16, device="cuda")
        rows.append(("launch, torch tensor (DLPack)", lambda: tiny[(1,)](t, 1.0, 4, BLOCK=128)))
    for what, body in rows:
        median, best = measure(body, a.iterations)
        dev.synchronize()
        print(f"{dev.name:10} {what:36} median {median:6.2f} us   min {best:6.2f} us")


if __name__ == "__main__":
    main()
