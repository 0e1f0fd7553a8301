"""trident.as_triton(): `import triton` and `import triton.language` resolve to Trident, so a
program whose host code uses only Triton's launch API runs unchanged on Trident devices."""

import sys


def as_triton():
    """Makes `triton`, `triton.language` and `triton.testing` this package's modules (for this
    process). Call it before the program imports triton; returns the trident module."""
    import trident
    from . import language, testing
    existing = sys.modules.get("triton")
    if existing is not None and existing is not trident:
        raise trident.Error("as_triton(): the real triton is imported already; call it before `import triton`")
    sys.modules["triton"] = trident
    sys.modules["triton.language"] = language
    sys.modules["triton.testing"] = testing
    return trident
