"""Reference numbers from Triton itself, for the same sample kernels and sizes that
Trident's benchmark runs, measured on the same GPU in the same run.

    python3 benchmarks/triton_reference.py [--json out.json]

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


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--json")
    args = parser.parse_args()
    torch.manual_seed(0)
    rows = []

    def report(kernel, size, seconds, nbytes=None, flops=None):
        row = {"kernel": kernel, "size": size, "time_us": seconds * 1e6}
        if nbytes is not None:
            row["gbps"] = nbytes / seconds / 1e9
        if flops is not None:
            row["tflops"] = flops / seconds / 1e12
        rows.append(row)
        rate = f"{row['gbps']:8.0f} GB/s" if nbytes is not None else f"{row['tflops']:8.1f} TFLOP/s"
        print(f"{kernel:28s} {size:22s} {row['time_us']:10.1f} us {rate}", flush=True)

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

    mm = load_sample("matmul")
    for s in (4096, 8192):
        a = torch.randn(s, s, device="cuda", dtype=torch.float16)
        b = torch.randn(s, s, device="cuda", dtype=torch.float16)
        report("matmul (cuBLAS)", f"{s}^3 f16", bench(lambda: torch.matmul(a, b)), flops=2 * s**3)
        report("matmul", f"{s}^3 f16", bench(lambda: mm.matmul(a, b)), flops=2 * s**3)
        if s == 4096:
            report("matmul +leaky", f"{s}^3 f16", bench(lambda: mm.matmul(a, b, "leaky_relu")), flops=2 * s**3)
    s = 4096
    for name, dtype in (("bf16", torch.bfloat16), ("tf32", torch.float32)):
        torch.backends.cuda.matmul.allow_tf32 = True
        a = torch.randn(s, s, device="cuda", dtype=dtype)
        b = torch.randn(s, s, device="cuda", dtype=dtype)
        report("matmul (cuBLAS)", f"{s}^3 {name}", bench(lambda: torch.matmul(a, b)), flops=2 * s**3)
        report("matmul", f"{s}^3 {name}", bench(lambda: mm.matmul(a, b)), flops=2 * s**3)
    a8 = torch.randint(-128, 127, (s, s), device="cuda", dtype=torch.int8)
    b8 = torch.randint(-128, 127, (s, s), device="cuda", dtype=torch.int8).t().contiguous().t()
    try:
        report("matmul (cuBLAS)", f"{s}^3 int8", bench(lambda: torch._int_mm(a8, b8)), flops=2 * s**3)
    except RuntimeError as e:
        print(f"int8 cuBLAS: {e}")
    spec = importlib.util.spec_from_file_location("matmul_typed", os.path.join(HERE, "matmul_typed.py"))
    mmt = importlib.util.module_from_spec(spec)
    mmt.torch = torch
    spec.loader.exec_module(mmt)
    a8 = a8.contiguous()
    b8 = b8.contiguous()
    try:
        assert torch.equal(mmt.matmul_typed(a8, b8, torch.int32), torch._int_mm(a8, b8)), "triton int8 matmul mismatch"
        report("matmul int8", f"{s}^3 int8", bench(lambda: mmt.matmul_typed(a8, b8, torch.int32)), flops=2 * s**3)
    except Exception as e:  # report and go on to the next rows
        print(f"matmul int8 (Triton): {type(e).__name__}: {str(e).splitlines()[-1] if str(e) else ''}")
    b8k = b8.t().contiguous().t()  # k-major, as cuBLAS takes it above
    try:
        assert torch.equal(mmt.matmul_typed(a8, b8k, torch.int32), torch._int_mm(a8, b8k)), "triton int8 mismatch"
        report("matmul int8 kmajor", f"{s}^3 int8", bench(lambda: mmt.matmul_typed(a8, b8k, torch.int32)),
               flops=2 * s**3)
    except Exception as e:
        print(f"matmul int8 kmajor (Triton): {type(e).__name__}: {str(e).splitlines()[-1] if str(e) else ''}")
    # fp8 e4m3 with B stored k-major (the layout cuBLAS and Triton's fp8 tutorial use).
    af = (torch.randint(-16, 17, (s, s), device="cuda") / 8).to(torch.float8_e4m3fn)
    bf = (torch.randint(-16, 17, (s, s), device="cuda") / 8).to(torch.float8_e4m3fn).t().contiguous().t()
    one = torch.ones((), device="cuda")
    try:
        report("matmul (cuBLAS)", f"{s}^3 fp8e4m3",
               bench(lambda: torch._scaled_mm(af, bf, scale_a=one, scale_b=one, out_dtype=torch.float32)),
               flops=2 * s**3)
    except Exception as e:
        print(f"fp8 cuBLAS: {type(e).__name__}: {e}")
    try:
        ref = af.float() @ bf.float()
        assert torch.allclose(mmt.matmul_typed(af, bf, torch.float32), ref, atol=1e-2), "triton fp8 matmul mismatch"
        report("matmul fp8e4m3", f"{s}^3 fp8e4m3", bench(lambda: mmt.matmul_typed(af, bf, torch.float32)),
               flops=2 * s**3)
    except Exception as e:
        print(f"matmul fp8e4m3 (Triton): {type(e).__name__}: {str(e).splitlines()[-1] if str(e) else ''}")
    a64 = torch.randn(s, s, device="cuda", dtype=torch.float64)
    b64 = torch.randn(s, s, device="cuda", dtype=torch.float64)
    report("matmul (cuBLAS)", f"{s}^3 f64", bench(lambda: torch.matmul(a64, b64)), flops=2 * s**3)
    try:
        assert torch.allclose(mmt.matmul_typed(a64, b64, torch.float64), a64 @ b64), "triton f64 matmul mismatch"
        report("matmul f64", f"{s}^3 f64", bench(lambda: mmt.matmul_typed(a64, b64, torch.float64)), flops=2 * s**3)
    except Exception as e:
        print(f"matmul f64 (Triton): {type(e).__name__}: {str(e).splitlines()[-1] if str(e) else ''}")

    att = load_sample("attention")
    Z, H, N = 4, 32, 4096
    for D in (64, 128):
        q, k, v = (torch.randn((Z, H, N, D), device="cuda", dtype=torch.float16) for _ in range(3))
        for causal in (False, True):
            flops = 4 * Z * H * N * N * D * (0.5 if causal else 1.0)
            size = f"{Z}x{H}x{N}x{D}"
            tag = " causal" if causal else ""
            report("attention" + tag, size, bench(lambda: att.attention(q, k, v, causal, 0.5)), flops=flops)
            if D == 128:  # the tutorial's launch with 8 warps, as trident-bench also measures it
                report("attention w8" + tag, size, bench(lambda: attention_warps(att, q, k, v, causal, 0.5, 8)),
                       flops=flops)
            sdpa = lambda: torch.nn.functional.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=0.5)
            report("attention (torch sdpa)" + tag, size, bench(sdpa), flops=flops)

    # The backward (samples/attention_bwd.py), after the forward, checked against torch's
    # autograd of SDPA; flops as Triton's tutorial counts them (2.5 times the forward's).
    bwd = load_sample("attention_bwd")
    for D in (64, 128):
        q, k, v, do = (torch.randn((Z, H, N, D), device="cuda", dtype=torch.float16) for _ in range(4))
        for causal in (False, True):
            flops = 2.5 * 4 * Z * H * N * N * D * (0.5 if causal else 1.0)
            tag = " causal" if causal else ""
            try:
                o, M = attention_forward_m(att, q, k, v, causal, 0.5)
                dq, dk, dv = bwd.attention_backward(q, k, v, o, do, M, causal, 0.5)
                qr, kr, vr = (t.detach().clone().requires_grad_() for t in (q, k, v))
                torch.nn.functional.scaled_dot_product_attention(qr, kr, vr, is_causal=causal, scale=0.5).backward(do)
                for got, want in ((dq, qr.grad), (dk, kr.grad), (dv, vr.grad)):
                    assert torch.allclose(got.float(), want.float(), atol=2e-2, rtol=2e-2), "triton attention bwd mismatch"
                report("attention bwd" + tag, f"{Z}x{H}x{N}x{D}",
                       bench(lambda: bwd.attention_backward(q, k, v, o, do, M, causal, 0.5)), flops=flops)
            except Exception as e:  # report and go on
                print(f"attention bwd{tag} D={D} (Triton): {type(e).__name__}: {str(e).splitlines()[-1] if str(e) else ''}")

    if args.json:
        with open(args.json, "w") as f:
            json.dump({"device": torch.cuda.get_device_name(), "triton": triton.__version__, "rows": rows}, f,
                      indent=1)


if __name__ == "__main__":
    sys.exit(main())
