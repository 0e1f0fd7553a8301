"""python -m trident.run SCRIPT [ARGS...]: runs a script written for Triton on Trident.

`import triton` in the script (and in what it imports) is Trident (trident.as_triton()).
TRIDENT_DEVICE chooses the device when the script names none (host:0, vulkan:0, cuda:0)."""

import os
import runpy
import sys


def main(argv=None):
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or argv[0] in ("-h", "--help"):
        print(__doc__.strip())
        return 0 if argv else 2
    import trident
    trident.as_triton()
    script = argv[0]
    sys.argv = argv
    sys.path.insert(0, os.path.dirname(os.path.abspath(script)))
    runpy.run_path(script, run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main())
