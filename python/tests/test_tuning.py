"""@trident.autotune and @trident.heuristics, evaluated by the runtime from the source."""

import unittest

import numpy as np

import trident
from support import DeviceTest, per_device, rng
import kernels as K


class TuningTest(DeviceTest):
    @per_device
    def test_autotune_picks_a_config_and_is_right(self, dev):
        for n in (1000, 4096):  # two values of the key: tuned once each
            x, y = rng(n).random(n, dtype=np.float32), rng(n + 1).random(n, dtype=np.float32)
            out = trident.empty(n)
            blocks = []

            def grid(meta):
                blocks.append(meta["BLOCK"])
                return (trident.cdiv(n, meta["BLOCK"]),)

            K.tuned_add_kernel[grid](x, y, out, n)
            np.testing.assert_array_equal(out.numpy(), x + y)
            self.assertTrue(set(blocks) <= {64, 256}, blocks)
            # The tuned config is remembered: a second launch uses it straight away.
            blocks.clear()
            K.tuned_add_kernel[grid](x, y, out, n)
            self.assertEqual(len(set(blocks)), 1)

    @per_device
    def test_autotune_restores_buffers_between_trials(self, dev):
        n = 777
        acc0, x = rng(12).random(n, dtype=np.float32), rng(13).random(n, dtype=np.float32)
        acc = trident.from_numpy(acc0)
        K.tuned_accumulate_kernel[lambda m: (trident.cdiv(n, m["BLOCK"]),)](acc, x, n)
        np.testing.assert_allclose(acc.numpy(), acc0 + x, rtol=1e-6)

    @per_device
    def test_computed_configs_are_tuned_in_python(self, dev):
        self.assertIsInstance(K.computed_tuned_accumulate_kernel, trident.tuning.Autotuner)
        self.assertIsInstance(K.tuned_add_kernel, trident.JITFunction)  # literal configs: the runtime's
        for n, host in ((500, False), (900, True)):
            acc0, x = rng(n).random(n, dtype=np.float32), rng(n + 2).random(n, dtype=np.float32)
            acc = acc0.copy() if host else trident.from_numpy(acc0)
            K.computed_tuned_accumulate_kernel[lambda m: (trident.cdiv(n, m["BLOCK"]),)](acc, x, n)
            got = acc if host else acc.numpy()
            np.testing.assert_allclose(got, acc0 + x, rtol=1e-6)  # restored after every trial
            self.assertIn(K.computed_tuned_accumulate_kernel.best_config.kwargs["BLOCK"], (32, 128))

    @per_device
    def test_autotuned_parameters_cannot_be_passed(self, dev):
        x = trident.zeros(16)
        with self.assertRaises(trident.Error) as e:
            K.tuned_add_kernel[(1,)](x, x, x, 16, BLOCK=64)
        self.assertIn("autotune", str(e.exception))
        self.assertEqual(e.exception.code, "invalid_argument")

    @per_device
    def test_heuristics(self, dev):
        rows = 3
        for cols in (100, 128):  # EVEN False, then True
            x = rng(cols).random((rows, cols), dtype=np.float32)
            out = trident.empty(rows)
            seen = {}

            def grid(meta):
                seen.update(block=meta["BLOCK"], even=meta.get("EVEN"))
                return (rows,)

            K.row_sum_kernel[grid](x, out, cols)
            np.testing.assert_allclose(out.numpy(), x.sum(axis=1), rtol=1e-5)
            self.assertEqual(seen["block"], 128)

    def test_decorators_record_what_they_were_given(self):
        self.assertEqual([c.kwargs for c in K.tuned_add_kernel.configs], [{"BLOCK": 64}, {"BLOCK": 256}])
        self.assertEqual(K.tuned_add_kernel.configs[0].num_warps, 2)
        self.assertEqual(K.tuned_add_kernel.key, ["n"])
        self.assertEqual(sorted(K.row_sum_kernel.heuristic_values), ["BLOCK", "EVEN"])
        self.assertEqual(str(trident.Config({"B": 1}, num_warps=8)), "B: 1, num_warps: 8, num_stages: 3")
        with self.assertRaises(trident.Error):
            trident.autotune(configs=[], key=[])(lambda: None)


if __name__ == "__main__":
    unittest.main()
