"""The layer-norm backward of samples/layer_norm.py (dx, then dw and db through
GROUP_SIZE_M partial sums behind spin locks) at the size of Triton's tutorial, on one
device, against numpy in float64. Many programs contend for each lock on a GPU, so this
is the check of the lock's release (tl.debug_barrier) and of the atomics' orderings.

  PYTHONPATH=build/python python3 scripts/check_layer_norm_bwd.py [--device cuda:0] [--m 1151] [--n 8192] [--groups 64]
"""

import argparse
import os
import sys

import numpy as np
import trident

parser = argparse.ArgumentParser()
parser.add_argument("--device", default="cuda:0")
parser.add_argument("--m", type=int, default=1151)
parser.add_argument("--n", type=int, default=8192)
parser.add_argument("--groups", type=int, default=64)
parser.add_argument("--repeat", type=int, default=3)
args = parser.parse_args()

here = os.path.dirname(os.path.abspath(__file__))
layer_norm = trident.load(os.path.join(here, "..", "samples", "layer_norm.py"))
M, N, G, eps = args.m, args.n, args.groups, 1e-5
rng = np.random.default_rng(0)
x = rng.standard_normal((M, N)).astype(np.float32)
w = rng.random(N, dtype=np.float32)
dy = (0.1 * rng.standard_normal((M, N))).astype(np.float32)
x64 = x.astype(np.float64)
mean = x64.mean(axis=1)
rstd = 1 / np.sqrt(x64.var(axis=1) + eps)
xhat = (x64 - mean[:, None]) * rstd[:, None]
wdy = w * dy.astype(np.float64)
c1 = (xhat * wdy).sum(axis=1, keepdims=True) / N
c2 = wdy.sum(axis=1, keepdims=True) / N
ref_dx = (wdy - (xhat * c1 + c2)) * rstd[:, None]
ref_dw = (dy * xhat).sum(axis=0)
ref_db = dy.astype(np.float64).sum(axis=0)

failed = False
with trident.device(args.device):
    for run in range(args.repeat):
        locks = np.zeros(2 * G, dtype=np.int32)
        part_dw = np.full((G, N), np.nan, dtype=np.float32)
        part_db = np.full((G, N), np.nan, dtype=np.float32)
        dx = np.full_like(x, np.nan)
        layer_norm._layer_norm_bwd_dx_fused[(M,)](dx, dy, part_dw, part_db, x, w, mean.astype(np.float32),
                                                  rstd.astype(np.float32), locks, N, N, GROUP_SIZE_M=G,
                                                  BLOCK_SIZE_N=trident.next_power_of_2(N))
        dw, db = np.zeros(N, dtype=np.float32), np.zeros(N, dtype=np.float32)
        layer_norm._layer_norm_bwd_dwdb[(trident.cdiv(N, 128),)](part_dw, part_db, dw, db, min(G, M), N,
                                                                  BLOCK_SIZE_M=32, BLOCK_SIZE_N=128)
        for name, got, ref, atol in (("dx", dx, ref_dx, 1e-4), ("dw", dw, ref_dw, 1e-3), ("db", db, ref_db, 1e-3)):
            err = np.abs(got.astype(np.float64) - ref)
            bad = int(np.count_nonzero(~(err <= atol)))
            print(f"run {run}: {name}: max error {np.nanmax(err):.3g}, {bad} of {err.size} beyond {atol}")
            failed |= bad > 0
print("FAILED" if failed else "layer norm backward matches numpy")
sys.exit(1 if failed else 0)
