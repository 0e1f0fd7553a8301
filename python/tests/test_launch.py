"""Launching from Python: arguments, grids, scalars, constexprs, streams, on every device."""

import unittest

import numpy as np

import trident
from support import DeviceTest, per_device, rng
import kernels as K


class LaunchTest(DeviceTest):
    @per_device
    def test_numpy_arrays_in_and_out(self, dev):
        # In place on host:0, copied to the device and back elsewhere.
        n = 3000
        x, y = rng(1).random(n, dtype=np.float32), rng(2).random(n, dtype=np.float32)
        out = np.full(n, np.nan, dtype=np.float32)
        K.add_kernel[lambda meta: (trident.cdiv(n, meta["BLOCK"]),)](x, y, out, n, BLOCK=1024)
        np.testing.assert_array_equal(out, x + y)

    @per_device
    def test_buffers_and_tuple_grid(self, dev):
        n = 1000
        x, y = rng(3).random(n, dtype=np.float32), rng(4).random(n, dtype=np.float32)
        bx, by = trident.from_numpy(x), trident.from_numpy(y)
        out = trident.empty(n, dtype=trident.float32)
        self.assertEqual(out.device, dev)
        K.add_kernel[(trident.cdiv(n, 128),)](bx, by, out, n, BLOCK=128)
        np.testing.assert_array_equal(out.numpy(), x + y)

    @per_device
    def test_meta_sees_every_value(self, dev):
        n = 700
        x = np.arange(n, dtype=np.float32)
        seen = {}

        def grid(meta):
            seen.update(n=meta["n"], block=meta["BLOCK"], has_x="x_ptr" in meta, missing=meta.get("nope", -1))
            return (trident.cdiv(meta["n"], meta["BLOCK"]),)

        out = trident.zeros(n)
        K.add_kernel[grid](x, x, out, n=n, BLOCK=256)  # n by keyword: still a runtime argument
        np.testing.assert_array_equal(out.numpy(), 2 * x)
        self.assertEqual(seen, {"n": n, "block": 256, "has_x": True, "missing": -1})

    @per_device
    def test_optional_pointer_none(self, dev):
        n = 500
        x, y = rng(5).random(n, dtype=np.float32), rng(6).random(n, dtype=np.float32)
        out = np.zeros(n, dtype=np.float32)
        K.axpy_kernel[(4,)](x, None, out, 2.0, n, BLOCK=128)
        np.testing.assert_allclose(out, 2 * x, rtol=1e-6)
        K.axpy_kernel[(4,)](x, y, out, 0.5, n, BLOCK=128)
        np.testing.assert_allclose(out, 0.5 * x + y, rtol=1e-6)

    @per_device
    def test_python_scalars_follow_triton_typing(self, dev):
        for value, dtype, expected_ir in [(7, np.int64, "i32"), (-(2**31), np.int64, "i32"),
                                          (2**31, np.int64, "i64"), (-(2**40), np.int64, "i64"),
                                          (2**63 + 5, np.uint64, "i64"), (True, np.bool_, "i1")]:
            out = trident.zeros(1, dtype=dtype)
            K.fill_scalar_kernel[(1,)](out, value)
            self.assertEqual(out.numpy()[0], dtype(value), f"{value} on {dev}")
            ir = K.fill_scalar_kernel.block_ir(out, value)
            self.assertIn(f"%1: {expected_ir})", ir, f"{value}: {ir}")
        # A Python float is fp32, as in Triton.
        out = trident.zeros(1, dtype=np.float64)
        K.fill_scalar_kernel[(1,)](out, 0.1)
        self.assertEqual(out.numpy()[0], np.float64(np.float32(0.1)))
        # np.float64 is a Python float (fp32, as in Triton); other numpy scalars keep their type.
        K.fill_scalar_kernel[(1,)](out, np.float64(0.1))
        self.assertEqual(out.numpy()[0], np.float64(np.float32(0.1)))
        wide = trident.zeros(1, dtype=np.int64)
        K.fill_scalar_kernel[(1,)](wide, np.int64(3))
        self.assertEqual(wide.numpy()[0], 3)
        self.assertIn("%1: i64)", K.fill_scalar_kernel.block_ir(wide, np.int64(3)))
        self.assertIn("%1: f16)", K.fill_scalar_kernel.block_ir(wide, np.float16(3)))

    @per_device
    def test_dtype_and_string_constexprs(self, dev):
        n = 300
        x = (rng(7).random(n, dtype=np.float32) - 0.5) * 8
        for dt in (trident.float16, np.float16, np.dtype("float16")):
            out = trident.empty(n, dtype=trident.float16)
            K.cast_kernel[(3,)](x, out, n, DTYPE=dt, BLOCK=128)
            np.testing.assert_array_equal(out.numpy(), x.astype(np.float16))
        for act, ref in (("relu", np.maximum(x, 0)), ("", x)):
            out = np.zeros(n, dtype=np.float32)
            K.activation_kernel[(3,)](x, out, n, ACTIVATION=act, BLOCK=128)
            np.testing.assert_array_equal(out, ref)

    @per_device
    def test_two_dimensional_grid(self, dev):
        rows, cols = 5, 7
        out = trident.zeros((rows, cols), dtype=trident.int32)
        K.grid2d_kernel[(cols, rows)](out, cols)
        expected = np.arange(rows)[:, None] * 1000 + np.arange(cols)[None, :]
        np.testing.assert_array_equal(out.numpy(), expected)

    @per_device
    def test_views_scalars_and_readonly_arrays(self, dev):
        n = 400
        base_x, base_y = rng(8).random(n + 10, dtype=np.float32), rng(9).random(n + 10, dtype=np.float32)
        x, y = base_x[10:], base_y[10:]  # offset views
        x.setflags(write=False)
        out = np.zeros(n, dtype=np.float32)
        K.axpy_kernel[(4,)](x, y, out, np.float32(3.0), np.int32(n), BLOCK=128)
        np.testing.assert_allclose(out, 3 * x + y, rtol=1e-6)
        np.testing.assert_array_equal(base_x[10:], x)  # read-only input untouched

    @per_device
    def test_defaults_and_do_not_specialize(self, dev):
        n = 256  # divisible by 16, but do_not_specialize keeps it a plain i32
        x = np.arange(n, dtype=np.float32)
        out = np.zeros(n, dtype=np.float32)
        K.copy_kernel[(2,)](x, out, n)  # BLOCK from its default, 128
        np.testing.assert_array_equal(out, x)
        self.assertIn("arg_divisibility = [16, 16, 1]", K.copy_kernel.block_ir(x, out, n))

    @per_device
    def test_streams_events_and_current_device(self, dev):
        n = 2048
        x = rng(10).random(n, dtype=np.float32)
        self.assertEqual(trident.current_device(), dev)
        s = trident.Stream()
        self.assertEqual(s.device, dev)
        bx = trident.from_numpy(x)
        out = trident.empty(n)
        start, end = trident.Event(), trident.Event()
        start.record(s)
        K.add_kernel[(8,)](bx, bx, out, n, BLOCK=256, stream=s)
        end.record(s)
        end.synchronize()
        self.assertGreaterEqual(start.elapsed_time(end), 0.0)
        with trident.stream(s):
            self.assertEqual(trident.current_stream(), s)
            K.add_kernel[(8,)](out, bx, out, n, BLOCK=256)
        s.synchronize()
        np.testing.assert_allclose(out.numpy(), 3 * x, rtol=1e-6)

    @per_device
    def test_warmup_block_ir_and_do_bench(self, dev):
        n = 1024
        x = trident.zeros(n)
        K.add_kernel.warmup(x, x, x, n, BLOCK=256, grid=(1,))
        ir = K.add_kernel.block_ir(x, x, x, n, BLOCK=256)
        self.assertIn("tt.func", ir)
        ms = trident.testing.do_bench(lambda: K.add_kernel[(4,)](x, x, x, n, BLOCK=256), warmup=1, rep=5)
        self.assertGreater(ms, 0.0)
        q = trident.testing.do_bench(lambda: K.add_kernel[(4,)](x, x, x, n, BLOCK=256), warmup=1, rep=5,
                                     quantiles=[0.2, 0.8])
        self.assertEqual(len(q), 2)

    def test_kernel_parameters(self):
        self.assertEqual(K.add_kernel.params,
                         [("x_ptr", False), ("y_ptr", False), ("out_ptr", False), ("n", False), ("BLOCK", True)])
        self.assertEqual(K.add_kernel.__name__, "add_kernel")


class BufferTest(DeviceTest):
    @per_device
    def test_buffer_api(self, dev):
        a = rng(11).random((3, 5)).astype(np.float32)
        b = trident.from_numpy(a)
        self.assertEqual((b.shape, b.dtype, b.ndim, b.numel(), b.nbytes), ((3, 5), trident.float32, 2, 15, 60))
        self.assertEqual(b.stride(), (5, 1))
        self.assertEqual(b.size(1), 5)
        self.assertEqual(len(b), 3)
        np.testing.assert_array_equal(b.numpy(), a)
        np.testing.assert_array_equal(np.asarray(b), a)
        self.assertIn("shape=(3, 5)", repr(b))
        c = trident.zeros((3, 5))
        np.testing.assert_array_equal(c.numpy(), np.zeros((3, 5)))
        c.copy_(b)
        np.testing.assert_array_equal(c.numpy(), a)
        c.copy_(a * 2)
        np.testing.assert_array_equal(c.numpy(), a * 2)
        h = c.to("host:0")
        np.testing.assert_array_equal(h.numpy(), a * 2)
        np.testing.assert_array_equal(c.view(15).numpy(), (a * 2).reshape(15))
        e = trident.empty_like(a)
        self.assertEqual((e.shape, e.dtype, e.device), ((3, 5), trident.float32, dev))

    @per_device
    def test_dtypes(self, dev):
        for dt, values in [(trident.float16, [0.5, -2.0, 65504.0]), (trident.bfloat16, [1.0, -0.5, 2.0**100]),
                           (trident.int8, [-128, 0, 127]), (trident.uint64, [0, 2**64 - 1, 5]),
                           (trident.bool, [True, False, True]), (trident.float64, [1e-300, 2.0, -3.0])]:
            b = trident.empty(3, dtype=dt)
            b.copy_(values)
            back = b.numpy()
            self.assertEqual(b.dtype, dt)
            np.testing.assert_array_equal(back, np.array(values, dtype=back.dtype), f"{dt}")
        self.assertEqual(trident.float32, np.float32)
        self.assertEqual(trident.to_dtype(np.dtype("int16")), trident.int16)
        self.assertEqual(trident.float16.itemsize, 2)
        self.assertEqual(repr(trident.bfloat16), "trident.bfloat16")
        self.assertIs(trident.language.float32, trident.float32)

    def test_devices_listing(self):
        names = [d.name for d in trident.devices()]
        self.assertIn("host:0", names)
        host = trident.device("cpu")
        self.assertEqual(host.name, "host:0")
        self.assertTrue(host.host_memory)
        self.assertEqual(host.target, "host")
        self.assertIn(trident.default_device().name, names)


class HelpersTest(unittest.TestCase):
    def test_cdiv_and_next_power_of_2(self):
        self.assertEqual([trident.cdiv(a, 4) for a in (0, 1, 4, 5, 8, 9)], [0, 1, 1, 2, 2, 3])
        self.assertEqual([trident.next_power_of_2(a) for a in (0, 1, 2, 3, 5, 64, 65, 1000)],
                         [1, 1, 2, 4, 8, 64, 128, 1024])


if __name__ == "__main__":
    unittest.main()
