"""Errors become trident.Error exceptions with Trident's message and code."""

import os
import unittest

import numpy as np

import trident
import trident.language as tl
from support import DeviceTest, per_device
import kernels as K


class ErrorTest(DeviceTest):
    def raises(self, code, *fragments):
        test = self

        class Check:
            def __enter__(self):
                return self

            def __exit__(self, kind, value, tb):
                test.assertIsNotNone(kind, "no error was raised")
                test.assertTrue(issubclass(kind, trident.Error), f"{kind.__name__}: {value}")
                test.assertEqual(value.code, code, str(value))
                for f in fragments:
                    test.assertIn(f, str(value))
                return True

        return Check()

    @per_device
    def test_argument_errors(self, dev):
        x = trident.zeros(64)
        with self.raises("invalid_argument", "takes 5 parameters", "but the launch passes 6"):
            K.add_kernel[(1,)](x, x, x, 64, 64, 1)
        with self.raises("invalid_argument", "has no parameter named 'BLOK'", "BLOCK: tl.constexpr"):
            K.add_kernel[(1,)](x, x, x, 64, BLOK=64)
        with self.raises("invalid_argument", "missing a value for parameter 'BLOCK'"):
            K.add_kernel[(1,)](x, x, x, 64)
        with self.raises("invalid_argument", "argument 1 ('y_ptr')", "cannot pass an object of type dict"):
            K.add_kernel[(1,)](x, {}, x, 64, BLOCK=64)
        with self.raises("invalid_argument", "'BLOCK'", "tl.constexpr"):
            K.add_kernel[(1,)](x, x, x, 64, BLOCK=x)
        with self.raises("invalid_argument", "given twice"):
            K.add_kernel[(1,)](x, x, x, 64, n=64, BLOCK=64)
        with self.raises("invalid_argument", "zero programs along x"):
            K.add_kernel[(0,)](x, x, x, 64, BLOCK=64)
        with self.raises("invalid_argument", "a grid is a tuple"):
            K.add_kernel["bad"](x, x, x, 64, BLOCK=64)

    @per_device
    def test_grid_function_errors_propagate(self, dev):
        x = trident.zeros(64)
        with self.assertRaises(ZeroDivisionError):
            K.add_kernel[lambda meta: (1 // 0,)](x, x, x, 64, BLOCK=64)
        with self.assertRaises(KeyError):
            K.add_kernel[lambda meta: (meta["nope"],)](x, x, x, 64, BLOCK=64)

    @per_device
    def test_buffer_of_another_device(self, dev):
        others = [d for d in trident.devices() if d != dev]
        if not others:
            self.skipTest("one device only")
        x = trident.zeros(64, device=others[0])
        y = trident.zeros(64)
        with self.raises("invalid_argument", f"the buffer is on {others[0].name}"):
            K.add_kernel[(1,)](y, x, y, 64, BLOCK=64)

    def test_compile_error_names_the_line(self):
        x = trident.zeros(4, device="host:0")
        path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "kernels.py")
        with self.raises("compile", "cannot compile 'compile_error_kernel'", f"{path}:", "undefined_name"):
            K.compile_error_kernel[(1,)](x)

    def test_out_of_bounds_on_the_host(self):
        x = trident.zeros(64, device="host:0")
        with self.raises("launch", "out-of-bounds"):
            K.out_of_bounds_kernel[(1,)](x, 32)
        # numpy memory is bounds-checked too.
        a = np.zeros(64, dtype=np.float32)
        with trident.device("host:0"), self.raises("launch", "out-of-bounds"):
            K.out_of_bounds_kernel[(1,)](a, 32)

    def test_unknown_device_and_file(self):
        with self.raises("not_found", "unknown device 'nosuch:3'"):
            trident.device("nosuch:3")
        with self.raises("io", "cannot read"):
            trident.load("/nonexistent/kernels.py")

    def test_python_side_misuse(self):
        with self.assertRaises(trident.Error):
            K.add_kernel(1, 2, 3)
        with self.assertRaises(trident.Error):
            tl.arange(0, 4)
        with self.raises("invalid_argument", "expected a dtype"):
            trident.empty(4, dtype="complex128")


if __name__ == "__main__":
    unittest.main()
