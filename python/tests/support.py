"""What the package's tests share: the devices to run on, and where the samples are.

Every test runs on host:0 (the interpreter, always present) and on vulkan:0 (lavapipe in
CI); a device that is absent is reported as skipped on stderr, never silently.
TRIDENT_PY_TEST_DEVICES (comma-separated names) replaces that list.
"""

import functools
import os
import sys
import unittest

import numpy as np
import trident

HERE = os.path.dirname(os.path.abspath(__file__))
SAMPLES = os.path.join(HERE, "..", "..", "samples")


def test_devices():
    wanted = os.environ.get("TRIDENT_PY_TEST_DEVICES", "host:0,vulkan:0").split(",")
    present = {d.name: d for d in trident.devices()}
    out = []
    for name in wanted:
        if name in present:
            out.append(present[name])
        else:
            print(f"SKIP {name}: not present here (devices: {', '.join(present) or 'none'})", file=sys.stderr)
    return out


DEVICES = test_devices()


def per_device(test):
    """Runs a test method `test(self, dev)` once per device, as a subTest, with that device current."""

    @functools.wraps(test)
    def run(self):
        for dev in DEVICES:
            with self.subTest(device=dev.name), dev:
                test(self, dev)

    return run


class DeviceTest(unittest.TestCase):
    pass


def rng(seed=0):
    return np.random.default_rng(seed)
