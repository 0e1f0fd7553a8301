"""A program written for Triton: `import triton`, @triton.jit, kernel[grid](...), autotune,
triton.testing. Its host code uses numpy arrays where a Triton program would use torch tensors;
`python -m trident.run triton_script.py` runs it on Trident's current device (TRIDENT_DEVICE)."""

import numpy as np
import triton
import triton.language as tl


@triton.jit
def add_kernel(x_ptr, y_ptr, output_ptr, n_elements, BLOCK_SIZE: tl.constexpr):
    pid = tl.program_id(axis=0)
    offsets = pid * BLOCK_SIZE + tl.arange(0, BLOCK_SIZE)
    mask = offsets < n_elements
    tl.store(output_ptr + offsets, tl.load(x_ptr + offsets, mask=mask) + tl.load(y_ptr + offsets, mask=mask),
             mask=mask)


@triton.autotune(configs=[triton.Config({'BLOCK': 128}), triton.Config({'BLOCK': 512}, num_warps=8)], key=['n'])
@triton.heuristics({'EVEN': lambda args: args['n'] % 512 == 0})
@triton.jit
def scale_kernel(x_ptr, out_ptr, factor, n, BLOCK: tl.constexpr, EVEN: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    if EVEN:
        tl.store(out_ptr + offs, tl.load(x_ptr + offs) * factor)
    else:
        mask = offs < n
        tl.store(out_ptr + offs, tl.load(x_ptr + offs, mask=mask) * factor, mask=mask)


def get_autotune_config():
    # Computed by host code, as Triton's matmul tutorial does.
    return [triton.Config({'BLOCK': b}, num_warps=w) for b, w in ((64, 2), (256, 4))]


@triton.autotune(configs=get_autotune_config(), key=['n'])
@triton.jit
def square_kernel(x_ptr, out_ptr, n, BLOCK: tl.constexpr):
    offs = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    mask = offs < n
    x = tl.load(x_ptr + offs, mask=mask)
    tl.store(out_ptr + offs, x * x, mask=mask)


def add(x, y):
    output = np.empty_like(x)
    n_elements = output.size
    grid = lambda meta: (triton.cdiv(n_elements, meta['BLOCK_SIZE']), )
    add_kernel[grid](x, y, output, n_elements, BLOCK_SIZE=1024)
    return output


if __name__ == "__main__":
    rng = np.random.default_rng(0)
    size = 98432
    x = rng.random(size, dtype=np.float32)
    y = rng.random(size, dtype=np.float32)
    error = np.max(np.abs(add(x, y) - (x + y)))
    assert error == 0, error
    for n in (1000, 1024):
        out = np.zeros(n, dtype=np.float32)
        scale_kernel[lambda meta: (triton.cdiv(n, meta['BLOCK']),)](x[:n], out, 2.5, n)
        np.testing.assert_allclose(out, x[:n] * np.float32(2.5), rtol=1e-6)
    sq = np.zeros(3000, dtype=np.float32)
    square_kernel[lambda meta: (triton.cdiv(3000, meta['BLOCK']),)](x[:3000], sq, 3000)
    np.testing.assert_allclose(sq, x[:3000] * x[:3000], rtol=1e-6)
    ms = triton.testing.do_bench(lambda: add(x, y), warmup=1, rep=5)
    assert ms > 0
    where = triton.current_device().name if hasattr(triton, "current_device") else "triton"  # Trident names it
    print(f"triton_script: ok on {where} (largest difference {error})")
