"""trident.testing: do_bench and assert_close, as triton.testing has them."""

import time

from . import _C


def _quantiles(times, quantiles, return_mode):
    times = sorted(times)
    if quantiles is not None:
        def at(q):
            pos = q * (len(times) - 1)
            lo = int(pos)
            hi = min(lo + 1, len(times) - 1)
            return times[lo] + (times[hi] - times[lo]) * (pos - lo)
        out = [at(q) for q in quantiles]
        return out[0] if len(out) == 1 else out
    if return_mode == "min":
        return times[0]
    if return_mode == "max":
        return times[-1]
    if return_mode == "median":
        return _quantiles(times, [0.5], None)
    if return_mode == "all":
        return times
    return sum(times) / len(times)


def do_bench(fn, warmup=25, rep=100, grad_to_none=None, quantiles=None, return_mode="mean", device=None):
    """Runs `fn` for about `warmup` ms, then times it for about `rep` ms; returns milliseconds per
    call (the mean, or `quantiles`, or return_mode 'min'/'max'/'median'/'all'). Times come from
    events on the device's current stream, so they cover the device work `fn` enqueues."""
    dev = _C.device(device)
    stream = _C.current_stream(dev)
    fn()
    dev.synchronize()
    start = time.perf_counter()
    calls = 0
    while calls < 5 or time.perf_counter() - start < 0.005:
        fn()
        calls += 1
    dev.synchronize()
    estimate_ms = max((time.perf_counter() - start) * 1e3 / calls, 1e-4)
    n_warmup = max(1, int(warmup / estimate_ms))
    n_repeat = max(1, int(rep / estimate_ms))
    for _ in range(n_warmup):
        fn()
    events = [(_C.Event(dev), _C.Event(dev)) for _ in range(n_repeat)]
    for begin, end in events:
        begin.record(stream)
        fn()
        end.record(stream)
    dev.synchronize()
    times = [begin.elapsed_time(end) for begin, end in events]
    return _quantiles(times, quantiles, return_mode)


def assert_close(x, y, atol=None, rtol=None, err_msg=""):
    """numpy.testing.assert_allclose on host copies (trident buffers are copied)."""
    import numpy as np

    def host(a):
        return a.numpy() if isinstance(a, _C.Buffer) else np.asarray(a)

    a, b = host(x), host(y)
    if atol is None:
        atol = 1e-2
    if rtol is None:
        rtol = 0.0
    np.testing.assert_allclose(a.astype(np.float64) if a.dtype.kind == "f" else a,
                               b.astype(np.float64) if b.dtype.kind == "f" else b,
                               atol=atol, rtol=rtol, err_msg=err_msg)
