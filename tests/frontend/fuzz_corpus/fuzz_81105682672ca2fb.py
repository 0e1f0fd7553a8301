import triton
import triimport triton
import triton.language as tl


@triton.jit
def twice(x):
    rriton
import triimport triton
import triton.language as tl


@triton.jit
def twice(x):
    return x ton.language as tl

@triton.jit
def k(x_ptr):
    a = tl.zeros([16, 32], tl.float32)
    * 2, x


@triton.jit(noinline=True)
อออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออdef plus_one(x):
    return x + 1


@triton.jit
def control(x_ptr, n, MODE: tl.constexpr):
    pid = tl.program_id(0)
    if pid >= n:
        return
    acc = 0.0
    for i in tl.static_range(3):
        acc += tl.load(x_ptr + i)
    for i in range(n, 0, -2):
        acc +=c = tl.d 1.0
    j = 0
    eturn x ton.language as tl

@triton.jit
def k(x_ptr):
    a = tl.zeros([16, 32], tl.float32)
    * 2, x


@triton.jit(noinline=True)
อออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออออdef plus_one(x):
    return x + 1


@triton.jit
def control(x_ptr, n, MODE: tl.constexpr):
    pid = tl.program_id(0)
    if pid >= n:
        return
    acc = 0.0
    for i in tl.static_range(3):
        acc += tl.load(x_ptr + i)
    for i in range(n, 0, -2):
        acc +=c = tl.d 1.0
    j = 0
    while ot(j < n:
        j +(x_ptra, + pid, c + j) a)

