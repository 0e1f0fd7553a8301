# The names of triton.language that steer compilation rather than compute:
# tl.void, tl.slice, tl.condition, tl.async_task, tl.target_info, and the shape
# helpers tl.squeeze / tl.unsqueeze. language_hints_test.cpp runs `hints` in the
# interpreter against exact references (for several compile targets: tl.target_info
# answers for the target); CMake compiles it for cuda:sm_90 and vulkan and runs it
# on host:0.
import triton
import triton.language as tl
from triton.language.target_info import cuda_capability_geq


@triton.jit
def cast_or_keep(x, out_dtype: tl.constexpr = tl.void):
    # tl.void as "no dtype given", a default for optional dtype parameters.
    if out_dtype == tl.void:
        return x
    return x.to(out_dtype)


@triton.jit
def hints(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    tl.static_assert(tl.void.is_void() and not tl.float32.is_void())
    tl.static_assert(tl.void.primitive_bitwidth == 0 and tl.void.name == "void")
    tl.static_assert(isinstance(tl.void, tl.dtype) and tl.void != tl.int32)
    offs = tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask, other=0.0)
    # tl.slice: what ':' in a subscript makes, also written out.
    col = tl.unsqueeze(x, 1)
    row = x[None, tl.slice(None, None, None)]
    tl.store(out_ptr + offs, tl.squeeze(tl.sum(col * row, axis=1, keep_dims=True), -1), mask=mask)
    three = (offs, x, n)
    kept = three[tl.slice(1, 3, None)]
    tl.static_assert(isinstance(tl.slice(0, 2, 1), tl.slice) and tl.slice(0, 2, 1).stop == 2)
    # tl.condition: a while loop's condition with a compiler hint.
    i = 0
    acc = tl.zeros((BLOCK,), tl.float32)
    while tl.condition(i < kept[1], disable_licm=True):
        acc += kept[0]
        i += 1
    tl.store(out_ptr + BLOCK + offs, acc, mask=mask)
    # tl.async_task: warp-specialization tasks; the bodies are ordinary code.
    with tl.async_task([0]):
        y = cast_or_keep(x * 2.0)
    with tl.async_task([1, 2]):
        z = cast_or_keep(y, tl.float16).to(tl.float32) + 1.0
        tl.store(out_ptr + 2 * BLOCK + offs, z, mask=mask)
    # tl.target_info: decided at compile time for the compile target.
    flags = (tl.target_info.is_cuda() * 1 + cuda_capability_geq(9, 0) * 2 + tl.target_info.is_hip() * 4 +
             tl.target_info.cuda_capability_geq(10) * 8 + tl.target_info.is_hip_cdna3() * 16)
    tl.store(out_ptr + 3 * BLOCK + offs, (offs * 0 + flags).to(tl.float32), mask=mask)


@triton.jit
def no_params():
    # A kernel without parameters: `trident compile` takes it without --signature.
    tl.static_assert(tl.void.is_void())
