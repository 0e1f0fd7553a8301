"""Host tensor descriptors from Python: trident.TensorDescriptor and objects shaped like
Triton's triton.tools.tensor_descriptor.TensorDescriptor, on every device."""

import unittest

import numpy as np

import trident
import trident.language as tl
from support import DeviceTest, per_device


@trident.jit
def shifted_tiles(in_desc, out_desc, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(axis=0)
    pid_n = tl.program_id(axis=1)
    tile = in_desc.load([pid_m * BLOCK_M - 1, pid_n * BLOCK_N + 2])
    out_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], tile * 2 + 1)


def reference(x, bm, bn, grid):
    # Boxes shifted up one row and right two columns; outside the tensor reads 0.
    rows, cols = x.shape
    out = np.zeros_like(x)
    for pm in range(grid[0]):
        for pn in range(grid[1]):
            for i in range(bm):
                for j in range(bn):
                    r, c = pm * bm + i, pn * bn + j
                    sr, sc = r - 1, c + 2
                    v = x[sr, sc] if 0 <= sr < rows and 0 <= sc < cols else 0
                    if r < rows and c < cols:
                        out[r, c] = 2 * v + 1
    return out


class TritonStyle:
    """Triton's TensorDescriptor's fields, without Triton."""

    def __init__(self, base, shape, strides, block_shape):
        self.base, self.shape, self.strides, self.block_shape, self.padding = base, shape, strides, block_shape, "zero"


class TensorDescriptorTest(DeviceTest):
    @per_device
    def test_descriptors_of_arrays_and_buffers(self, dev):
        x = np.arange(60, dtype=np.float32).reshape(5, 12)
        out = np.zeros((5, 12), dtype=np.float32)
        shifted_tiles[(2, 2)](trident.TensorDescriptor.from_tensor(x, [4, 8]),
                              TritonStyle(out, [5, 12], [12, 1], [4, 8]), BLOCK_M=4, BLOCK_N=8)
        np.testing.assert_array_equal(out, reference(x, 4, 8, (2, 2)))
        bx = trident.from_numpy(x)
        bout = trident.zeros((5, 12))
        shifted_tiles[(2, 2)](trident.TensorDescriptor.from_tensor(bx, [4, 8]),
                              trident.TensorDescriptor(bout, [5, 12], [12, 1], [4, 8]), BLOCK_M=4, BLOCK_N=8)
        np.testing.assert_array_equal(bout.numpy().reshape(5, 12), reference(x, 4, 8, (2, 2)))

    def test_bad_descriptors(self):
        with self.assertRaises(ValueError):
            trident.TensorDescriptor(np.zeros(4), [2, 2], [1, 2], [2, 2])
        x = np.zeros((4, 16), dtype=np.float32)
        d = trident.TensorDescriptor.from_tensor(x, [4, 8], padding="nan")
        with self.assertRaisesRegex(trident.Error, "padding='nan'"):
            shifted_tiles[(1, 1)](d, d, BLOCK_M=4, BLOCK_N=8)


if __name__ == "__main__":
    unittest.main()
