"""Reference numbers from Triton itself, for the same sample kernels and sizes that
Trident's benchmark runs, measured on the same GPU in the same run.

    python3 benchmarks/triton_reference.py [--json out.json] [--rows all|memory|dots] [--only NAMES]

Needs torch and triton (present on the GPU machine, not in CI). The kernels are
imported from samples/*.py, the very files Trident compiles.
"""

import argparse
import importlib.util
import json
import os
import sys

import torch
import triton

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLES = os.path.join(HERE, "..", "samples")


def load_sample(name):
    spec = importlib.util.spec_from_file_location(name, os.path.join(SAMPLES, name + ".py"))
    module = importlib.util.module_from_spec(spec)
    module.torch = torch  # the samples import torch only under __main__
    spec.loader.exec_module(module)
    return module


def attention_warps(att, q, k, v, causal, sm_scale, num_warps):
    """samples/attention.py's attention() with another warp count."""
    o = torch.empty_like(q)
    BLOCK_M, BLOCK_N = 128, 64
    grid = (triton.cdiv(q.shape[2], BLOCK_M), q.shape[0] * q.shape[1], 1)
    M = torch.empty((q.shape[0], q.shape[1], q.shape[2]), device=q.device, dtype=torch.float32)
    att._attn_fwd[grid](q, k, v, sm_scale, M, o, *q.stride(), *k.stride(), *v.stride(), *o.stride(), q.shape[0],
                        q.shape[1], N_CTX=q.shape[2], HEAD_DIM=q.shape[-1], BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N,
                        STAGE=3 if causal else 1, num_warps=num_warps)
    return o


def attention_forward_m(att, q, k, v, causal, sm_scale):
    """samples/attention.py's forward, returning its output and M (for the backward)."""
    o = torch.empty_like(q)
    M = torch.empty((q.shape[0], q.shape[1], q.shape[2]), device=q.device, dtype=torch.float32)
    grid = (triton.cdiv(q.shape[2], 128), q.shape[0] * q.shape[1], 1)
    att._attn_fwd[grid](q, k, v, sm_scale, M, o, *q.stride(), *k.stride(), *v.stride(), *o.stride(), q.shape[0],
                        q.shape[1], N_CTX=q.shape[2], HEAD_DIM=q.shape[-1], BLOCK_M=128, BLOCK_N=64,
                        STAGE=3 if causal else 1)
    return o, M


def bench(fn):
    return triton.testing.do_bench(fn, warmup=25, rep=200, return_mode="median") * 1e-3  # seconds


def load_module(name):
    """benchmarks/NAME.py, the files Trident's benchmark compiles too."""
    spec = importlib.util.spec_from_file_location(name, os.path.join(HERE, name + ".py"))
    module = importlib.util.module_from_spec(spec)
    module.torch = torch
    spec.loader.exec_module(module)
    return module


def check_close(got, want, what, tol=1e-2):
    """Largest difference at most tol times the largest |want| (fp16 and bf16 results of
    long fp32 sums round differently from cuBLAS's)."""
    got, want = got.float(), want.float()
    err = (got - want).abs().max().item()
    scale = want.abs().max().item()
    assert err <= tol * scale, f"{what}: largest difference {err:.4g} for values up to {scale:.4g}"


def attempt(what, body):
    """Runs one row; a failure (a kernel Triton refuses, a mismatch) is printed and the
    next row runs."""
    try:
        body()
    except Exception as e:
        lines = str(e).strip().splitlines()
        print(f"{what}: {type(e).__name__}: {lines[-1] if lines else ''}", flush=True)


def size_name(M, N, K):
    return f"{M}^3" if M == N == K else f"{M}x{N}x{K}"


ONLY = []  # --only: parts of trident-bench's "kernel size" names; a row runs when it has one


def selected(kernel, size):
    return not ONLY or any(part in f"{kernel} {size}" for part in ONLY)



def memory_rows(report):
    """The memory-bound samples, as trident-bench's memory rows."""
    n = 1 << 28
    x = torch.rand(n, device="cuda")
    y = torch.rand(n, device="cuda")
    out = torch.empty_like(x)
    report("device copy", "2^28 f32", bench(lambda: out.copy_(x)), nbytes=8 * n)

    va = load_sample("vector_add")
    ref = x + y
    got = va.add(x, y)
    assert torch.equal(got, ref), "triton vector add mismatch"
    report("vector_add", "2^28 f32", bench(lambda: va.add(x, y)), nbytes=12 * n)
    del x, y, out, ref, got

    sm = load_sample("fused_softmax")
    for cols in (1024, 4096, 16384):
        a = torch.randn(16384, cols, device="cuda")
        assert torch.allclose(sm.softmax(a), torch.softmax(a, dim=1), atol=1e-6)
        report("fused_softmax", f"16384x{cols} f32", bench(lambda: sm.softmax(a)), nbytes=8 * a.numel())

    ln = load_sample("layer_norm")
    m, ncols = 4096, 8192
    a = torch.randn(m, ncols, device="cuda", dtype=torch.float16)
    w = torch.rand(ncols, device="cuda", dtype=torch.float16)
    b = torch.rand(ncols, device="cuda", dtype=torch.float16)
    yln = torch.empty_like(a)
    mean = torch.empty(m, device="cuda", dtype=torch.float32)
    rstd = torch.empty(m, device="cuda", dtype=torch.float32)
    block = min(65536 // a.element_size(), triton.next_power_of_2(ncols))
    warps = min(max(block // 256, 1), 8)  # the tutorial's choice

    def layer_norm():
        ln._layer_norm_fwd_fused[(m, )](a, yln, w, b, mean, rstd, a.stride(0), ncols, 1e-5, BLOCK_SIZE=block,
                                        num_warps=warps)

    layer_norm()
    expected = torch.nn.functional.layer_norm(a.float(), (ncols, ), w.float(), b.float(), 1e-5)
    assert torch.allclose(yln.float(), expected, atol=2e-2), "triton layer norm mismatch"
    report("layer_norm_fwd", f"{m}x{ncols} f16", bench(layer_norm), nbytes=4 * a.numel())


def matmul_rows(report):
    """The matmul rows of trident-bench (benchmarks/BenchDots.cpp) on Triton, each beside
    cuBLAS (torch.matmul, torch._int_mm, torch._scaled_mm), checked against it first."""
    mm = load_sample("matmul")
    desc = load_module("matmul_descriptor")
    pers = load_module("matmul_persistent")
    mmt = load_module("matmul_typed")

    def fp(name, dtype, M, N, K, kernels, leaky=False):
        size = size_name(M, N, K)
        suffix = " +leaky" if leaky else ""
        kernels = [(label, call) for label, call in kernels if selected(f"{label} {name}{suffix}", size)]
        if not kernels:
            return
        a = torch.randn(M, K, device="cuda", dtype=dtype)
        b = torch.randn(K, N, device="cuda", dtype=dtype)
        flops = 2 * M * N * K
        want = torch.matmul(a, b)
        if not leaky:  # cuBLAS once per shape and type, beside every variant
            report("matmul (cuBLAS)", f"{size} {name}", bench(lambda: torch.matmul(a, b)), flops=flops,
                   bench=(f"matmul {name}", size), source="cublas")
        else:
            want = torch.nn.functional.leaky_relu(want, 0.01)
        for label, call in kernels:
            key = f"{label} {name}{suffix}"

            def row():
                check_close(call(a, b), want, f"triton {key} {size}", tol=2e-2 if name == "tf32" else 1e-2)
                report(label + (" +leaky" if leaky else ""), f"{size} {name}", bench(lambda: call(a, b)), flops=flops,
                       bench=(key, size))

            attempt(f"{key} {size} (Triton)", row)

    tutorial = ("matmul", mm.matmul)
    leaky = ("matmul", lambda a, b: mm.matmul(a, b, "leaky_relu"))
    variants = [tutorial, ("matmul descriptor", desc.matmul_descriptor), ("matmul persistent", pers.matmul_persistent)]
    for s in (4096, 8192):
        fp("f16", torch.float16, s, s, s, variants)
    fp("f16", torch.float16, 4096, 4096, 4096, [leaky], leaky=True)
    for s in (4096, 8192):
        fp("bf16", torch.bfloat16, s, s, s, [tutorial])
    torch.backends.cuda.matmul.allow_tf32 = True
    fp("tf32", torch.float32, 4096, 4096, 4096, [tutorial])
    # Small and skinny: 512^3 and decode-style M=16 (the tutorial kernel's rows past M wrap).
    for M, N, K in ((512, 512, 512), (16, 4096, 4096), (16, 8192, 8192)):
        fp("f16", torch.float16, M, N, K, [tutorial])

    s = 4096
    flops = 2 * s**3
    int8 = [label for label in ("matmul int8", "matmul int8 kmajor") if selected(label, f"{s}^3")]
    if int8:
        a8 = torch.randint(-128, 127, (s, s), device="cuda", dtype=torch.int8)
        b8k = torch.randint(-128, 127, (s, s), device="cuda", dtype=torch.int8).t().contiguous().t()  # k-major
        attempt("int8 cuBLAS", lambda: report("matmul (cuBLAS)", f"{s}^3 int8", bench(lambda: torch._int_mm(a8, b8k)),
                                              flops=flops, bench=("matmul int8 kmajor", f"{s}^3"), source="cublas"))
        for label in int8:
            b = b8k if label.endswith("kmajor") else b8k.contiguous()

            def row():
                assert torch.equal(mmt.matmul_typed(a8, b, torch.int32), torch._int_mm(a8, b)), "triton int8 mismatch"
                report(label, f"{s}^3 int8", bench(lambda: mmt.matmul_typed(a8, b, torch.int32)), flops=flops,
                       bench=(label, f"{s}^3"))

            attempt(f"{label} (Triton)", row)
    # fp8 e4m3 with B stored k-major (the layout cuBLAS and Triton's fp8 tutorial use).
    one = torch.ones((), device="cuda")
    for s in (4096, 8192):
        if not selected("matmul fp8e4m3", f"{s}^3"):
            continue
        flops = 2 * s**3
        af = (torch.randint(-16, 17, (s, s), device="cuda") / 8).to(torch.float8_e4m3fn)
        bf = (torch.randint(-16, 17, (s, s), device="cuda") / 8).to(torch.float8_e4m3fn).t().contiguous().t()
        key = ("matmul fp8e4m3", f"{s}^3")
        attempt(f"fp8 cuBLAS {s}", lambda: report(
            "matmul (cuBLAS)", f"{s}^3 fp8e4m3",
            bench(lambda: torch._scaled_mm(af, bf, scale_a=one, scale_b=one, out_dtype=torch.float32)), flops=flops,
            bench=key, source="cublas"))

        def row():
            ref = af.float() @ bf.float()
            assert torch.allclose(mmt.matmul_typed(af, bf, torch.float32), ref, atol=1e-2), "triton fp8 matmul mismatch"
            report("matmul fp8e4m3", f"{s}^3 fp8e4m3", bench(lambda: mmt.matmul_typed(af, bf, torch.float32)),
                   flops=flops, bench=key)

        attempt(f"matmul fp8e4m3 {s} (Triton)", row)
    s = 4096
    if not selected("matmul f64", f"{s}^3"):
        return
    flops = 2 * s**3
    a64 = torch.randn(s, s, device="cuda", dtype=torch.float64)
    b64 = torch.randn(s, s, device="cuda", dtype=torch.float64)
    report("matmul (cuBLAS)", f"{s}^3 f64", bench(lambda: torch.matmul(a64, b64)), flops=flops,
           bench=("matmul f64", f"{s}^3"), source="cublas")

    def f64_row():
        assert torch.allclose(mmt.matmul_typed(a64, b64, torch.float64), a64 @ b64), "triton f64 matmul mismatch"
        report("matmul f64", f"{s}^3 f64", bench(lambda: mmt.matmul_typed(a64, b64, torch.float64)), flops=flops,
               bench=("matmul f64", f"{s}^3"))

    attempt("matmul f64 (Triton)", f64_row)


def attention_rows(report):
    """samples/attention.py's forward at Z=4, H=32, N=4096 and Z=1, H=32, N=16384 beside
    torch's SDPA (checked against it first), and samples/attention_bwd.py's backward."""
    att = load_sample("attention")
    attd = load_module("attention_descriptor")
    for Z, H, N in ((4, 32, 4096), (1, 32, 16384)):
        for D in (64, 128):
            size = f"{Z}x{H}x{N}x{D}"
            names = {causal: [f"attention{' causal' if causal else ''}{w}" for w in ("", " w8")[:1 + (D == 128)]]
                     for causal in (False, True)}
            if N == 4096:  # benchmarks/attention_descriptor.py, at the tutorial's size
                for causal in (False, True):
                    names[causal].append("attention descriptor" + (" causal" if causal else ""))
            if not any(selected(n, size) for c in names for n in names[c]):
                continue
            q, k, v = (torch.randn((Z, H, N, D), device="cuda", dtype=torch.float16) for _ in range(3))
            for causal in (False, True):
                if not any(selected(n, size) for n in names[causal]):
                    continue
                flops = 4 * Z * H * N * N * D * (0.5 if causal else 1.0)
                tag = " causal" if causal else ""
                sdpa = lambda: torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=0.5)
                want = sdpa()
                report("attention (torch sdpa)" + tag, size, bench(sdpa), flops=flops, bench=("attention" + tag, size),
                       source="sdpa")
                # The tutorial's launch (4 warps), and 8 warps at HEAD_DIM 128 as trident-bench also measures.
                for warps in ((4, 8) if D == 128 else (4, )):
                    w = f" w{warps}" if warps != 4 else ""
                    if not selected("attention" + tag + w, size):
                        continue

                    def row():
                        call = lambda: attention_warps(att, q, k, v, causal, 0.5, warps)
                        assert torch.allclose(call(), want, atol=1e-2, rtol=0), "triton attention mismatch"
                        report("attention" + w + tag, size, bench(call), flops=flops, bench=("attention" + tag + w, size))

                    attempt(f"attention{tag}{w} {size} (Triton)", row)
                if N == 4096 and selected("attention descriptor" + tag, size):

                    def row_descriptor():
                        call = lambda: attd.attention_descriptor(q, k, v, causal, 0.5)
                        assert torch.allclose(call(), want, atol=1e-2, rtol=0), "triton attention descriptor mismatch"
                        report("attention descriptor" + tag, size, bench(call), flops=flops,
                               bench=("attention descriptor" + tag, size))

                    attempt(f"attention descriptor{tag} {size} (Triton)", row_descriptor)
            del q, k, v

    # The backward (samples/attention_bwd.py), after the forward, checked against torch's
    # autograd of SDPA; flops as Triton's tutorial counts them (2.5 times the forward's).
    bwd = load_sample("attention_bwd")
    Z, H, N = 4, 32, 4096
    for D in (64, 128):
        q, k, v, do = (torch.randn((Z, H, N, D), device="cuda", dtype=torch.float16) for _ in range(4))
        for causal in (False, True):
            flops = 2.5 * 4 * Z * H * N * N * D * (0.5 if causal else 1.0)
            tag = " causal" if causal else ""
            if not selected("attention bwd" + tag, f"{Z}x{H}x{N}x{D}"):
                continue

            def row():
                o, M = attention_forward_m(att, q, k, v, causal, 0.5)
                dq, dk, dv = bwd.attention_backward(q, k, v, o, do, M, causal, 0.5)
                qr, kr, vr = (t.detach().clone().requires_grad_() for t in (q, k, v))
                torch.nn.functional.scaled_dot_product_attention(qr, kr, vr, is_causal=causal, scale=0.5).backward(do)
                for got, want in ((dq, qr.grad), (dk, kr.grad), (dv, vr.grad)):
                    assert torch.allclose(got.float(), want.float(), atol=2e-2, rtol=2e-2), "triton attention bwd mismatch"
                report("attention bwd" + tag, f"{Z}x{H}x{N}x{D}",
                       bench(lambda: bwd.attention_backward(q, k, v, o, do, M, causal, 0.5)), flops=flops,
                       bench=("attention bwd" + tag, f"{Z}x{H}x{N}x{D}"))

            attempt(f"attention bwd{tag} D={D} (Triton)", row)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--json")
    parser.add_argument("--rows", choices=("all", "memory", "dots"), default="all",
                        help="the memory-bound rows, the matmul and attention rows, or both")
    parser.add_argument("--only", help="dot rows whose trident-bench name (kernel size) contains one of these "
                        "comma-separated parts, as trident-bench --only")
    args = parser.parse_args()
    torch.manual_seed(0)
    rows = []

    def save():
        # After every row, so that a run stopped by a time limit keeps the rows it measured.
        if args.json:
            with open(args.json + ".part", "w") as f:
                json.dump({"device": torch.cuda.get_device_name(), "triton": triton.__version__, "rows": rows}, f,
                          indent=1)
            os.replace(args.json + ".part", args.json)

    def report(kernel, size, seconds, nbytes=None, flops=None, bench=None, source="triton"):
        # bench: trident-bench's (kernel, size) for the same work, so that
        # scripts/issue20-bench.sh can put the two side by side; source: who ran it
        # ("triton", "cublas" or "sdpa").
        row = {"kernel": kernel, "size": size, "time_us": seconds * 1e6, "source": source}
        if bench is not None:
            row["bench_kernel"], row["bench_size"] = bench
        if nbytes is not None:
            row["gbps"] = nbytes / seconds / 1e9
        if flops is not None:
            row["tflops"] = flops / seconds / 1e12
        rows.append(row)
        save()
        rate = f"{row['gbps']:8.0f} GB/s" if nbytes is not None else f"{row['tflops']:8.1f} TFLOP/s"
        print(f"{kernel:28s} {size:22s} {row['time_us']:10.1f} us {rate}", flush=True)

    if args.rows != "dots":
        memory_rows(report)
    if args.rows != "memory":
        ONLY.extend(part for part in (args.only or "").split(",") if part)
        matmul_rows(report)
        attention_rows(report)

    save()


if __name__ == "__main__":
    sys.exit(main())
