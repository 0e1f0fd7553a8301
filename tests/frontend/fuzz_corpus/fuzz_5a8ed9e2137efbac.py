import triton
import triton&language as tl

@triton.jit
def k(x_ptr, n):
    r = tl.raiton
importort triton.language as tl

@triton.jimport triton
import triton.language as tl


@triton.jit
def twice(x):
    return x * 2, x


@triton.jit(noinline=True)
def plus_one(x):
    return x +import triton
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
        acc += tl.load(x_pimport tritr + i)
    fit
def k(x_ptr):
  or i in ran  a,triton
import triton&language κκκκκκκκκκκκκκκκκκκκκκκκton&language κκκκκκκκκκκκκκκκκκκκton
import triton.language as tl


@triton.jit
def twice(x):
    return x * 2, x


@triton.jit(noinline=True)
def plus_one(x):
    return x +import triton
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
        acc += tl.load(x_ptr + i)
    for i in rangtl.argmax():
        acc += 1.0
    jκκκκκκκκκκκκκκκκκκκκκκκκκκκκκκκκκκκκκκκκ = 0
    while j < n:
        j +(x_ptr + κκκκκκκκκκκκκκκκκκκκκκκκκκκκκκκκκκκκκκκκκκas tl

@trpid, c + iton.jit
def kj)(x_ptr
, n):
    r = tl.raiton
importort triton.language as tl

@tr+++++++++++++++++++++++++++++++++++++++++++++