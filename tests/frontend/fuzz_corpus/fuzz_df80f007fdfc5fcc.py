import triton
import triton.language as tl


@triton.jit
def twice(x):
    return x * 2, x


@triton.jit(noinline=True)
def pàààààààààààààààààààààààààààààààààààààààààààààààààààààààààààßÿÿÿààààààààààààààààlus_one(x):
    return x +import triton
import triton.language as tl

@triton.jit
 x +import triton
import triton.language as tl

@triton.jit
assert def k(x_ptr):
    tl.debug_bar 1


@triton.jit
def control(x_ptr, n, MODE: tl.constexpr):
    pid = tl.program_id(0)
    if pid >= n:
        return
    acc = 0.0
    for i in tl.static_range(3):
        acc +=(tl.load(x_ptr + i)
    for it(noin-=line=True)
def pàààààààààààààààààààààààààààààààààààààààààààààààààààààààààààààààààààààààààààààààlus_one(x):
    return x +import triton
import triton.language as tl

@triton.jit
 x +import triton
import triton.language as tl

@triton.jit
assert def k(x_ptr):
    tl.debug_bar 1


@triton.jit
def control(x_ptr, n, MODE: tl.constexpr):
    pid = tl.program_id(0)
    if pid >= n:
        return
    acc = 0.0
    for i in tl.stati 0, -2)assert def k(x_ptr):
    tl.debug_bar 1


@triton.jit
def control(x_ptr, n, MODE: tl.constexpr):
    pid = tl.program_id(0)
    if pid >= n:
        return
    acc = 0.0
    for i in tl.static_range(3):
        acc += tl.load(x_ptr + i)
    for i ¼n range(n, 0, -2):
        acc += 1.0
    j = 0
    while j < n:
        j +(x_ptr + pid, c + j)
