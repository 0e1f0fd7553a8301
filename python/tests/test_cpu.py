"""The CPU plugin (cpu:0) on what only it splits into loops over threads: scf.while loops
holding barriers, and barriers it keeps or drops (plugins/cpu/ThreadLoops.cpp), against
the interpreter and numpy.
Skipped, with a message, where cpu:0 is absent (a build without LLVM)."""

import os
import sys
import unittest

import numpy as np

import trident
from support import HERE, SAMPLES, rng

cpu_kernels = trident.load(os.path.join(HERE, "cpu_kernels.py"))
cpu_barriers = trident.load(os.path.join(HERE, "cpu_barriers.py"))
layer_norm = trident.load(os.path.join(SAMPLES, "layer_norm.py"))
present = {d.name: d for d in trident.devices()}
if "cpu:0" not in present:
    print(f"SKIP cpu:0: not present here (devices: {', '.join(present) or 'none'})", file=sys.stderr)


@unittest.skipUnless("cpu:0" in present, "no cpu:0 here")
class CpuWhileTest(unittest.TestCase):
    def run_halving(self, dev, x, limit, block):
        rows, n = x.shape
        out = np.zeros_like(x)
        steps = np.full(rows, -1, dtype=np.int32)
        with present[dev]:
            cpu_kernels.halve_until_kernel[(rows,)](x, out, steps, n, limit, BLOCK=block)
        return out, steps

    def test_while_with_reductions_matches_the_interpreter(self):
        x = rng(7).random((5, 300), dtype=np.float32) * np.arange(1, 6, dtype=np.float32)[:, None]
        for limit in (1.0, 40.0, 1e6):
            with self.subTest(limit=limit):
                want, want_steps = self.run_halving("host:0", x, limit, 512)
                got, got_steps = self.run_halving("cpu:0", x, limit, 512)
                self.assertTrue((want_steps >= 0).all())
                np.testing.assert_array_equal(got_steps, want_steps)
                np.testing.assert_allclose(got, want, rtol=1e-6, atol=1e-7)

    def test_layer_norm_backward_spin_lock(self):
        # samples/layer_norm.py's dx kernel: a while loop around a scalar atomic_cas (one
        # thread's atomic, broadcast through shared memory between barriers); 8 programs per lock.
        M, N, G = 64, 300, 8
        x = rng(8).standard_normal((M, N)).astype(np.float32)
        w = rng(9).random(N, dtype=np.float32)
        dy = (0.1 * rng(10).standard_normal((M, N))).astype(np.float32)
        x64 = x.astype(np.float64)
        mean = x64.mean(axis=1)
        rstd = 1 / np.sqrt(x64.var(axis=1) + 1e-5)
        xhat = (x64 - mean[:, None]) * rstd[:, None]
        wdy = w * dy.astype(np.float64)
        c1 = (xhat * wdy).sum(axis=1, keepdims=True) / N
        c2 = wdy.sum(axis=1, keepdims=True) / N
        locks = np.zeros(2 * G, dtype=np.int32)
        part_dw = np.full((G, N), np.nan, dtype=np.float32)
        part_db = np.full((G, N), np.nan, dtype=np.float32)
        dx = np.full_like(x, np.nan)
        with present["cpu:0"]:
            layer_norm._layer_norm_bwd_dx_fused[(M,)](dx, dy, part_dw, part_db, x, w, mean.astype(np.float32),
                                                      rstd.astype(np.float32), locks, N, N, GROUP_SIZE_M=G,
                                                      BLOCK_SIZE_N=512)
        np.testing.assert_allclose(dx, (wdy - (xhat * c1 + c2)) * rstd[:, None], atol=1e-4)
        np.testing.assert_allclose(part_dw.sum(axis=0), (dy * xhat).sum(axis=0), atol=1e-3)
        np.testing.assert_allclose(part_db.sum(axis=0), dy.astype(np.float64).sum(axis=0), atol=1e-3)
        np.testing.assert_array_equal(locks, [0] * G + [1] * G)


@unittest.skipUnless("cpu:0" in present, "no cpu:0 here")
class CpuBarrierTest(unittest.TestCase):
    # Barriers that ThreadLoops.cpp keeps or drops (StretchEffects.h); their thread loops
    # are checked in tests/lit/stages/cpu.tir.
    def test_two_sums_in_the_same_shared_bytes(self):
        # The second sum's partials overwrite the first's: the barrier between reading
        # those and writing these must stay (one loop would mix the two sums' partials).
        x = rng(11).random(1024, dtype=np.float32)
        got = {}
        for dev in ("host:0", "cpu:0"):
            out = np.zeros_like(x)
            with present[dev]:
                cpu_barriers.two_sums_kernel[(1,)](x, out, BLOCK=1024)
            got[dev] = out
        x64 = x.astype(np.float64)
        want = x64 + (x64 * x64.sum()).sum()
        np.testing.assert_allclose(got["host:0"], want, rtol=1e-5)
        np.testing.assert_allclose(got["cpu:0"], got["host:0"], rtol=1e-5)

    def test_matmul_with_loads_and_stores_in_one_loop(self):
        # The barrier between the K loop's global loads and its stores to shared memory
        # is dropped; the tiles still read what every thread stored.
        rows, cols, inner = 128, 256, 96
        a = rng(12).standard_normal((rows, inner)).astype(np.float32)
        b = rng(13).standard_normal((inner, cols)).astype(np.float32)
        c = np.zeros((rows, cols), dtype=np.float32)
        with present["cpu:0"]:
            cpu_barriers.matmul_kernel[(rows // 64, cols // 128)](a, b, c, rows, cols, inner, BM=64, BN=128, BK=32)
        np.testing.assert_allclose(c, a.astype(np.float64) @ b.astype(np.float64), rtol=1e-4, atol=1e-4)


if __name__ == "__main__":
    unittest.main()
