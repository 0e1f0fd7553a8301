# Kernels of test_cpu.py: control flow that the CPU plugin splits at barriers
# (plugins/cpu/ThreadLoops.cpp).
import trident
import trident.language as tl


@trident.jit
def halve_until_kernel(X, Out, Steps, n, limit, BLOCK: tl.constexpr):
    # A while loop whose condition is a reduction (a barrier in every iteration), carrying
    # a block and a scalar, with a second reduction in its body.
    row = tl.program_id(0)
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(X + row * n + offs, mask=mask, other=0.)
    steps = 0
    while tl.sum(x, axis=0) > limit:
        x = x * 0.5 + tl.max(x, axis=0) * 0.001
        steps += 1
    tl.store(Out + row * n + offs, x, mask=mask)
    tl.store(Steps + row, steps)
