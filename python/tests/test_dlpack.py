"""DLPack in both directions, and objects that only speak DLPack."""

import gc
import sys
import unittest

import numpy as np

import trident
from support import DeviceTest, per_device, rng
import kernels as K


class DLPackOnly:
    """A tensor that offers nothing but DLPack (as a torch tensor does)."""

    def __init__(self, array):
        self.array = array

    def __dlpack__(self, stream=None):
        return self.array.__dlpack__()

    def __dlpack_device__(self):
        return self.array.__dlpack_device__()


class DLPackTest(DeviceTest):
    def test_numpy_views_host_buffers_without_a_copy(self):
        with trident.device("host:0"):
            b = trident.zeros((4, 8))
            view = np.from_dlpack(b)
            self.assertEqual(view.shape, (4, 8))
            self.assertEqual(view.ctypes.data, b.data_ptr())
            x = rng(20).random(32, dtype=np.float32)
            K.add_kernel[(1,)](x, x, b, 32, BLOCK=32)
            np.testing.assert_array_equal(view.reshape(32), 2 * x)  # the kernel's writes, seen in place

    def test_buffers_over_numpy_memory(self):
        a = np.zeros(64, dtype=np.float32)
        with trident.device("host:0"):
            b = trident.from_dlpack(a)
            self.assertEqual((b.shape, b.dtype, b.data_ptr()), ((64,), trident.float32, a.ctypes.data))
            x = np.arange(64, dtype=np.float32)
            K.add_kernel[(1,)](x, x, b, 64, BLOCK=64)
            np.testing.assert_array_equal(a, 2 * x)
            # And back: numpy sees the same memory through the trident buffer.
            np.testing.assert_array_equal(np.from_dlpack(b), 2 * x)

    def test_from_dlpack_owns_the_tensor_until_the_buffer_goes(self):
        a = np.arange(16, dtype=np.float32)
        before = sys.getrefcount(a)
        with trident.device("host:0"):
            b = trident.from_dlpack(a)
            self.assertGreater(sys.getrefcount(a), before)  # the tensor's deleter not yet called
            del b
            gc.collect()
            self.assertEqual(sys.getrefcount(a), before)  # called once the buffer went

    def test_from_dlpack_refuses_other_layouts(self):
        a = np.zeros((4, 8), dtype=np.float32).T  # compact, but column-major
        with trident.device("host:0"):
            with self.assertRaises(trident.Error) as e:
                trident.from_dlpack(a)
            self.assertIn("not contiguous and row-major", str(e.exception))

    def test_zero_dimensional_buffers_export_as_such(self):
        with trident.device("host:0"):
            b = trident.zeros(())
            self.assertEqual(np.from_dlpack(b).shape, ())

    @per_device
    def test_dlpack_only_arguments(self, dev):
        n = 100
        x, y = rng(21).random(n, dtype=np.float32), rng(22).random(n, dtype=np.float32)
        out = np.zeros(n, dtype=np.float32)
        K.add_kernel[(1,)](DLPackOnly(x), DLPackOnly(y), DLPackOnly(out), n, BLOCK=128)
        np.testing.assert_array_equal(out, x + y)

    @per_device
    def test_dlpack_dtypes(self, dev):
        for dt in (np.float16, np.int8, np.uint16, np.float64):
            a = (np.arange(8) % 5).astype(dt)
            out = np.zeros(8, dtype=dt)
            K.copy_kernel[(1,)](DLPackOnly(a), out, 8, BLOCK=8)
            np.testing.assert_array_equal(out, a)

    def test_device_memory_is_not_exported_where_it_cannot_be(self):
        vulkan = [d for d in trident.devices() if d.plugin == "vulkan"]
        if not vulkan:
            self.skipTest("no vulkan device")
        b = trident.zeros(4, device=vulkan[0])
        with self.assertRaises(BufferError):
            b.__dlpack__()
        with self.assertRaises(trident.Error) as e:
            trident.from_dlpack(np.zeros(4, dtype=np.float32), device=vulkan[0])
        self.assertIn("from_numpy", str(e.exception))


if __name__ == "__main__":
    unittest.main()
