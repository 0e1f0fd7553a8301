"""On a CUDA GPU: torch CUDA tensors through DLPack on cuda:0, in place, and buffers shared
back with torch. Exits 77 (CTest: skipped), saying why, without torch or a CUDA device."""

import sys
import unittest

import trident

try:
    import torch
except ImportError:
    torch = None

if __name__ == "__main__" or "unittest" in sys.modules:
    missing = ("torch is not installed" if torch is None else
               "torch sees no CUDA device" if not torch.cuda.is_available() else
               "Trident has no cuda:0 (run `trident devices`)"
               if "cuda:0" not in [d.name for d in trident.devices()] else None)
    if missing:
        print(f"SKIP test_cuda: {missing}", file=sys.stderr)
        sys.exit(77)

import kernels as K  # noqa: E402


class CudaTest(unittest.TestCase):
    def test_torch_tensors_in_place(self):
        n = 100_000
        x = torch.rand(n, device="cuda")
        y = torch.rand(n, device="cuda")
        out = torch.empty_like(x)
        K.add_kernel[lambda meta: (trident.cdiv(n, meta["BLOCK"]),)](x, y, out, n, BLOCK=1024)
        torch.cuda.synchronize()
        self.assertTrue(torch.equal(out, x + y))
        # Ordered after torch's work on its default stream, and before torch's next op.
        z = x * 3
        K.add_kernel[(trident.cdiv(n, 1024),)](z, y, out, n, BLOCK=1024)
        self.assertTrue(torch.equal(out, z + y))

    def test_buffers_shared_with_torch(self):
        b = trident.zeros((4, 256), device="cuda:0")
        t = torch.from_dlpack(b)
        self.assertEqual(t.device.type, "cuda")
        self.assertEqual(t.data_ptr(), b.data_ptr())
        x = torch.rand(1024, device="cuda")
        K.add_kernel[(1,)](x, x, b, 1024, BLOCK=1024)
        torch.cuda.synchronize()
        self.assertTrue(torch.equal(t.reshape(-1), 2 * x))
        w = trident.from_dlpack(x)
        self.assertEqual((w.device.name, w.data_ptr()), ("cuda:0", x.data_ptr()))

    def test_torch_stream(self):
        s = torch.cuda.Stream()
        with torch.cuda.stream(s):
            x = torch.rand(4096, device="cuda")
            out = torch.empty_like(x)
            ts = trident.Stream.from_native("cuda:0", s.cuda_stream)
            K.add_kernel[(4,)](x, x, out, 4096, BLOCK=1024, stream=ts)
        s.synchronize()
        self.assertTrue(torch.equal(out, 2 * x))

    def test_samples_own_triton_programs(self):
        # Each samples/*.py is a Triton program (torch tensors on 'cuda', its own checks in
        # __main__): `python -m trident.run` runs it unchanged on Trident's cuda:0.
        import os
        import subprocess
        from support import SAMPLES
        for name in sorted(f for f in os.listdir(SAMPLES) if f.endswith(".py")):
            with self.subTest(sample=name):
                r = subprocess.run([sys.executable, "-m", "trident.run", os.path.join(SAMPLES, name)],
                                   capture_output=True, text=True, timeout=300)
                self.assertEqual(r.returncode, 0, r.stdout + r.stderr[-3000:])

    def test_fp16_and_bf16(self):
        for dt in (torch.float16, torch.bfloat16):
            x = torch.randn(1000, device="cuda", dtype=dt)
            out = torch.empty_like(x)
            K.add_kernel[(1,)](x, x, out, 1000, BLOCK=1024)
            torch.cuda.synchronize()
            self.assertTrue(torch.equal(out, x + x), dt)


if __name__ == "__main__":
    unittest.main()
