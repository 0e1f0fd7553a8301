"""Every sample kernel (samples/*.py, files Triton runs too) launched from Python through
trident.load, on host:0 and vulkan:0, against numpy references in float64."""

import math
import os
import unittest

import numpy as np

import trident
from support import SAMPLES, DeviceTest, per_device, rng


def sample(name):
    return trident.load(os.path.join(SAMPLES, name + ".py"))


vector_add = sample("vector_add")
fused_softmax = sample("fused_softmax")
layer_norm = sample("layer_norm")
matmul = sample("matmul")
dropout = sample("dropout")
attention = sample("attention")
attention_bwd = sample("attention_bwd")
scan = sample("scan")
reduce_custom = sample("reduce_custom")


class SampleTest(DeviceTest):
    def test_every_sample_file_is_covered(self):
        files = sorted(f[:-3] for f in os.listdir(SAMPLES) if f.endswith(".py"))
        self.assertEqual(files, sorted(["vector_add", "fused_softmax", "layer_norm", "matmul", "dropout",
                                        "attention", "attention_bwd", "scan", "reduce_custom"]))

    @per_device
    def test_vector_add(self, dev):
        n = 98432
        x, y = rng(1).random(n, dtype=np.float32), rng(2).random(n, dtype=np.float32)
        out = trident.empty(n)
        grid = lambda meta: (trident.cdiv(n, meta["BLOCK_SIZE"]),)
        vector_add.add_kernel[grid](trident.from_numpy(x), trident.from_numpy(y), out, n, BLOCK_SIZE=1024)
        np.testing.assert_array_equal(out.numpy(), x + y)

    @per_device
    def test_fused_softmax(self, dev):
        rows, cols = 37, 181
        x = rng(3).standard_normal((rows, cols)).astype(np.float32)
        y = np.zeros_like(x)
        fused_softmax.softmax_kernel[(min(rows, 16), 1, 1)](y, x, x.strides[0] // 4, y.strides[0] // 4, rows, cols,
                                                            BLOCK_SIZE=trident.next_power_of_2(cols), num_stages=2,
                                                            num_warps=8)
        e = np.exp(x.astype(np.float64) - x.max(axis=1, keepdims=True))
        np.testing.assert_allclose(y, e / e.sum(axis=1, keepdims=True), atol=1e-6, rtol=1e-4)

    @per_device
    def test_layer_norm_forward(self, dev):
        M, N, eps = 9, 300, 1e-5
        x = rng(4).standard_normal((M, N)).astype(np.float32)
        w, b = rng(5).random(N, dtype=np.float32), rng(6).random(N, dtype=np.float32)
        y = trident.empty((M, N))
        mean, rstd = trident.empty(M), trident.empty(M)
        layer_norm._layer_norm_fwd_fused[(M,)](x, y, w, b, mean, rstd, N, N, eps, BLOCK_SIZE=128)
        x64 = x.astype(np.float64)
        mu = x64.mean(axis=1)
        rs = 1 / np.sqrt(x64.var(axis=1) + eps)
        np.testing.assert_allclose(mean.numpy(), mu, atol=1e-5)
        np.testing.assert_allclose(rstd.numpy(), rs, rtol=1e-4)
        np.testing.assert_allclose(y.numpy(), (x64 - mu[:, None]) * rs[:, None] * w + b, atol=1e-4)

    @per_device
    def test_layer_norm_backward(self, dev):
        # dx per row; dw and db through GROUP_SIZE_M partial sums guarded by spin locks.
        M, N, G, eps = 24, 100, 4, 1e-5
        x = rng(30).standard_normal((M, N)).astype(np.float32)
        w = rng(31).random(N, dtype=np.float32)
        dy = (0.1 * rng(32).standard_normal((M, N))).astype(np.float32)
        x64 = x.astype(np.float64)
        mean = x64.mean(axis=1)
        rstd = 1 / np.sqrt(x64.var(axis=1) + eps)
        locks = np.zeros(2 * G, dtype=np.int32)
        part_dw, part_db = np.zeros((G, N), dtype=np.float32), np.zeros((G, N), dtype=np.float32)
        dx = np.zeros_like(x)
        layer_norm._layer_norm_bwd_dx_fused[(M,)](dx, dy, part_dw, part_db, x, w, mean.astype(np.float32),
                                                  rstd.astype(np.float32), locks, N, N, GROUP_SIZE_M=G,
                                                  BLOCK_SIZE_N=trident.next_power_of_2(N))
        dw, db = np.zeros(N, dtype=np.float32), np.zeros(N, dtype=np.float32)
        layer_norm._layer_norm_bwd_dwdb[(trident.cdiv(N, 64),)](part_dw, part_db, dw, db, G, N, BLOCK_SIZE_M=4,
                                                                 BLOCK_SIZE_N=64)
        xhat = (x64 - mean[:, None]) * rstd[:, None]
        wdy = w * dy.astype(np.float64)
        c1 = (xhat * wdy).sum(axis=1, keepdims=True) / N
        c2 = wdy.sum(axis=1, keepdims=True) / N
        np.testing.assert_allclose(dx, (wdy - (xhat * c1 + c2)) * rstd[:, None], atol=1e-5)
        np.testing.assert_allclose(dw, (dy * xhat).sum(axis=0), atol=1e-4)
        np.testing.assert_allclose(db, dy.astype(np.float64).sum(axis=0), atol=1e-4)

    @per_device
    def test_matmul_autotuned(self, dev):
        M, N, K = 72, 80, 96
        a = (rng(7).standard_normal((M, K)) * 0.5).astype(np.float16)
        b = (rng(8).standard_normal((K, N)) * 0.5).astype(np.float16)
        ref = a.astype(np.float64) @ b.astype(np.float64)
        for activation in ("", "leaky_relu"):
            c = trident.empty((M, N), dtype=trident.float16)
            grid = lambda META: (trident.cdiv(M, META["BLOCK_SIZE_M"]) * trident.cdiv(N, META["BLOCK_SIZE_N"]),)
            matmul.matmul_kernel[grid](a, b, c, M, N, K, K, 1, N, 1, N, 1, ACTIVATION=activation)
            expected = np.where(ref >= 0, ref, 0.01 * ref) if activation else ref
            np.testing.assert_allclose(c.numpy().astype(np.float64), expected, atol=2e-2, rtol=1e-2)

    @per_device
    def test_dropout(self, dev):
        # tl.rand is Philox: check the contract (kept elements scaled, the drop rate, a pure
        # function of seed and offset), and that every device draws the same numbers.
        n, p = 20000, 0.3
        x = rng(9).random(n, dtype=np.float32) + 1.0
        outs = []
        for seed in (123, 123, 7):
            out = np.zeros(n, dtype=np.float32)
            dropout._seeded_dropout[lambda meta: (trident.cdiv(n, meta["BLOCK_SIZE"]),)](x, out, n, p, seed,
                                                                                         BLOCK_SIZE=1024)
            outs.append(out)
        kept = outs[0] != 0
        np.testing.assert_allclose(outs[0][kept], x[kept] / np.float32(1 - p), rtol=1e-6)
        self.assertAlmostEqual(1 - kept.mean(), p, delta=0.02)
        np.testing.assert_array_equal(outs[0], outs[1])
        self.assertFalse(np.array_equal(outs[0], outs[2]))
        if dev.name != "host:0":
            with trident.device("host:0"):
                host = np.zeros(n, dtype=np.float32)
                dropout._seeded_dropout[(trident.cdiv(n, 1024),)](x, host, n, p, 123, BLOCK_SIZE=1024)
            # The same numbers dropped; kept values within an ulp (x / (1 - p) rounds per device).
            np.testing.assert_array_equal(outs[0] != 0, host != 0)
            np.testing.assert_allclose(outs[0], host, rtol=3e-7)

    @per_device
    def test_attention(self, dev):
        Z, H, N, D = 1, 2, 128, 64
        q, k, v = ((rng(10 + i).standard_normal((Z, H, N, D)) * 0.5).astype(np.float16) for i in range(3))
        sm_scale = 0.5
        for causal in (False, True):
            o = trident.empty((Z, H, N, D), dtype=trident.float16)
            m = trident.empty((Z, H, N), dtype=trident.float32)
            st = [s // 2 for s in q.strides]
            grid = (trident.cdiv(N, 128), Z * H, 1)
            attention._attn_fwd[grid](q, k, v, sm_scale, m, o, *st, *st, *st, *st, Z, H, N_CTX=N,
                                      HEAD_DIM=D, BLOCK_M=128, BLOCK_N=64, STAGE=3 if causal else 1)
            p = np.einsum("zhmd,zhnd->zhmn", q.astype(np.float64), k.astype(np.float64)) * sm_scale
            if causal:
                p = np.where(np.tril(np.ones((N, N), dtype=bool)), p, -np.inf)
            p = np.exp(p - p.max(axis=-1, keepdims=True))
            p /= p.sum(axis=-1, keepdims=True)
            ref = np.einsum("zhmn,zhnd->zhmd", p, v.astype(np.float64))
            np.testing.assert_allclose(o.numpy().astype(np.float64), ref, atol=1e-2)

    def test_attention_backward(self):
        # host:0 only: on lavapipe its four-dot loops compile for minutes (run_samples
        # covers vulkan:0 with --slow).
        Z, H, N, D = 1, 2, 128, 64
        q, k, v, do = ((rng(30 + i).standard_normal((Z, H, N, D)) * 0.5).astype(np.float16) for i in range(4))
        sm_scale = 0.5
        with trident.device("host:0"):
            for causal in (False, True):
                s = np.einsum("zhmd,zhnd->zhmn", q.astype(np.float64), k.astype(np.float64)) * sm_scale
                if causal:
                    s = np.where(np.tril(np.ones((N, N), dtype=bool)), s, -np.inf)
                mx = s.max(axis=-1, keepdims=True)
                p = np.exp(s - mx)
                total = p.sum(axis=-1, keepdims=True)
                p /= total
                o = np.einsum("zhmn,zhnd->zhmd", p, v.astype(np.float64)).astype(np.float16)
                m = ((mx + np.log(total))[..., 0] / math.log(2)).astype(np.float32)
                delta = np.zeros((Z, H, N), dtype=np.float32)
                dq, dk, dv = (np.zeros((Z, H, N, D), dtype=np.float16) for _ in range(3))
                grid = (N // 128, Z * H)
                attention_bwd._attn_bwd_preprocess[grid](o, do, delta, N, HEAD_DIM=D, BLOCK_M=128)
                attention_bwd._attn_bwd_dkdv[grid](q, k, v, do, m, delta, dk, dv, sm_scale, N, HEAD_DIM=D,
                                                   BLOCK_M=32, BLOCK_N=128, CAUSAL=causal)
                attention_bwd._attn_bwd_dq[grid](q, k, v, do, m, delta, dq, sm_scale, N, HEAD_DIM=D, BLOCK_M=128,
                                                 BLOCK_N=32, CAUSAL=causal)
                d64 = do.astype(np.float64)
                ds = p * (np.einsum("zhmd,zhnd->zhmn", d64, v.astype(np.float64)) -
                          (o.astype(np.float64) * d64).sum(axis=-1, keepdims=True))
                np.testing.assert_allclose(dv.astype(np.float64), np.einsum("zhmn,zhmd->zhnd", p, d64), atol=1e-2)
                np.testing.assert_allclose(dq.astype(np.float64),
                                           np.einsum("zhmn,zhnd->zhmd", ds, k.astype(np.float64)) * sm_scale, atol=1e-2)
                np.testing.assert_allclose(dk.astype(np.float64),
                                           np.einsum("zhmn,zhmd->zhnd", ds, q.astype(np.float64)) * sm_scale, atol=1e-2)

    @per_device
    def test_scan(self, dev):
        n = 1000
        x = rng(14).standard_normal(n).astype(np.float32)
        out = np.zeros(n, dtype=np.float32)
        scan.running_sum_kernel[(1,)](x, out, n, BLOCK=1024)
        np.testing.assert_allclose(out, np.cumsum(x.astype(np.float64)), atol=1e-3)
        a = rng(15).random((4, 50), dtype=np.float32)
        b = rng(16).standard_normal((4, 50)).astype(np.float32)
        h = np.zeros_like(a)
        scan.linear_recurrence_kernel[(1,)](a, b, h, 50, ROWS=4, COLS=64)
        expected = np.zeros((4, 50))
        state = np.zeros(4)
        for t in range(50):
            state = a[:, t] * state + b[:, t]
            expected[:, t] = state
        np.testing.assert_allclose(h, expected, atol=1e-4)

    @per_device
    def test_reduce_custom(self, dev):
        x = rng(17).standard_normal((8, 100)).astype(np.float32)
        value = np.zeros(8, dtype=np.float32)
        index = np.zeros(8, dtype=np.int32)
        reduce_custom.row_absmax_kernel[(8,)](x, value, index, 100, x.shape[1], BLOCK=128)
        expected = np.abs(x).argmax(axis=1)
        np.testing.assert_array_equal(index, expected)
        np.testing.assert_array_equal(value, x[np.arange(8), expected])
        y = rng(18).random((16, 40), dtype=np.float32) + 0.5
        out = np.zeros(40, dtype=np.float32)
        reduce_custom.column_product_kernel[(trident.cdiv(40, 16),)](y, out, 16, 40, ROWS=16, COLS=16)
        np.testing.assert_allclose(out, np.prod(y.astype(np.float64), axis=0), rtol=1e-4)


if __name__ == "__main__":
    unittest.main()
