"""The compatibility entry points: `python -m trident.run script.py` and trident.as_triton()."""

import os
import subprocess
import sys
import unittest

import trident
from support import DEVICES, HERE


class CompatTest(unittest.TestCase):
    def test_run_a_triton_script_on_every_device(self):
        for dev in DEVICES:
            with self.subTest(device=dev.name):
                env = dict(os.environ, TRIDENT_DEVICE=dev.name)
                r = subprocess.run([sys.executable, "-m", "trident.run", os.path.join(HERE, "triton_script.py")],
                                   env=env, capture_output=True, text=True, timeout=600)
                self.assertEqual(r.returncode, 0, r.stdout + r.stderr)
                self.assertIn(f"triton_script: ok on {dev.name}", r.stdout)

    def test_as_triton_in_process(self):
        code = ("import trident; trident.as_triton()\n"
                "import triton, triton.language as tl, triton.testing\n"
                "assert triton is trident and tl is trident.language\n"
                "assert triton.cdiv(10, 4) == 3 and tl.constexpr(3).value == 3\n"
                "print('ok')\n")
        r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.strip(), "ok")

    def test_run_without_a_script_prints_usage(self):
        r = subprocess.run([sys.executable, "-m", "trident.run"], capture_output=True, text=True, timeout=120)
        self.assertEqual(r.returncode, 2)
        self.assertIn("python -m trident.run SCRIPT", r.stdout)


if __name__ == "__main__":
    unittest.main()
