"""Launches samples/attention.py's forward once through Triton, for profiling beside
Trident's launch of the same file (e.g. under ncu; see scripts/profile-attention.sh).

    python3 benchmarks/profile_attention.py [--dim 64] [--causal] [--warps 4]
"""
import argparse
import importlib.util
import os

import torch

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--dim", type=int, default=64)
    parser.add_argument("--causal", action="store_true")
    parser.add_argument("--warps", type=int, default=4)
    args = parser.parse_args()
    spec = importlib.util.spec_from_file_location("attention", os.path.join(HERE, "..", "samples", "attention.py"))
    att = importlib.util.module_from_spec(spec)
    att.torch = torch
    spec.loader.exec_module(att)
    Z, H, N, D = 4, 32, 4096, args.dim
    q, k, v = (torch.randn((Z, H, N, D), dtype=torch.float16, device="cuda") for _ in range(3))
    o = torch.empty_like(q)
    m = torch.empty((Z, H, N), device="cuda", dtype=torch.float32)
    grid = (N // 128, Z * H, 1)
    for _ in range(2):  # the first launch compiles
        att._attn_fwd[grid](q, k, v, 0.5, m, o, *q.stride(), *k.stride(), *v.stride(), *o.stride(), Z, H,
                            N_CTX=N, HEAD_DIM=D, BLOCK_M=128, BLOCK_N=64, STAGE=3 if args.causal else 1,
                            num_warps=args.warps, num_stages=3)
    torch.cuda.synchronize()


if __name__ == "__main__":
    main()
