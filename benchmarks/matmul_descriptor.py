"""
Matrix multiplication through tensor descriptors: samples/matmul.py's tiling and
grouped program order, with A, B and C read and written in boxes of device-side
descriptors (`tl.make_tensor_descriptor`) instead of pointer tiles. A is M x K, B is
K x N and C is M x N, all row-major; boxes that reach past the tensors read zero and
their stores are dropped, so no mask is written. Triton runs this file as it is
(benchmarks/triton_reference.py, where Hopper makes the descriptors TMA copies);
Trident compiles it (trident-bench).
"""

import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({'BLOCK_M': 128, 'BLOCK_N': 256, 'BLOCK_K': 64, 'GROUP_M': 8}, num_stages=3, num_warps=8),
        triton.Config({'BLOCK_M': 128, 'BLOCK_N': 128, 'BLOCK_K': 64, 'GROUP_M': 8}, num_stages=4, num_warps=4),
        triton.Config({'BLOCK_M': 64, 'BLOCK_N': 256, 'BLOCK_K': 32, 'GROUP_M': 8}, num_stages=4, num_warps=4),
        triton.Config({'BLOCK_M': 64, 'BLOCK_N': 64, 'BLOCK_K': 32, 'GROUP_M': 8}, num_stages=5, num_warps=2),
    ],
    key=['M', 'N', 'K'],
)
@triton.jit
def matmul_descriptor_kernel(a_ptr, b_ptr, c_ptr, M, N, K, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,
                             BLOCK_K: tl.constexpr, GROUP_M: tl.constexpr, WARP_SPECIALIZE: tl.constexpr = False):
    # The tile of C this program computes, in groups of GROUP_M rows of tiles.
    pid = tl.program_id(axis=0)
    tiles_m = tl.cdiv(M, BLOCK_M)
    tiles_n = tl.cdiv(N, BLOCK_N)
    in_group = GROUP_M * tiles_n
    first_m = (pid // in_group) * GROUP_M
    rows = min(tiles_m - first_m, GROUP_M)
    tile_m = first_m + (pid % in_group) % rows
    tile_n = (pid % in_group) // rows

    # Row-major tensors: the last stride is 1, the row stride the row length
    # (Triton's descriptors need it 16-byte aligned: K and N multiples of 8 for fp16).
    a_desc = tl.make_tensor_descriptor(a_ptr, shape=[M, K], strides=[K, 1], block_shape=[BLOCK_M, BLOCK_K])
    b_desc = tl.make_tensor_descriptor(b_ptr, shape=[K, N], strides=[N, 1], block_shape=[BLOCK_K, BLOCK_N])
    c_desc = tl.make_tensor_descriptor(c_ptr, shape=[M, N], strides=[N, 1], block_shape=[BLOCK_M, BLOCK_N])

    row = tile_m * BLOCK_M
    col = tile_n * BLOCK_N
    acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
    # WARP_SPECIALIZE: a producer warpgroup issues the loads, the num_warps warps run the
    # dots (trident-bench's "matmul descriptor ws" rows; docs/simt.md).
    for k in tl.range(0, tl.cdiv(K, BLOCK_K), warp_specialize=WARP_SPECIALIZE):
        a = a_desc.load([row, k * BLOCK_K])
        b = b_desc.load([k * BLOCK_K, col])
        acc = tl.dot(a, b, acc)
    c_desc.store([row, col], acc.to(c_ptr.dtype.element_ty))


def _scratch(size, alignment, stream):
    # Triton builds device-side descriptors in global scratch memory that it asks of
    # the allocator set below (128 bytes per descriptor and program).
    return torch.empty(size, device="cuda", dtype=torch.int8)


def matmul_descriptor(a, b):
    """C = A @ B (fp16 or bf16, row-major, C of A's type) with Triton."""
    assert a.shape[1] == b.shape[0], "incompatible dimensions"
    assert a.is_contiguous() and b.is_contiguous(), "row-major operands only"
    triton.set_allocator(_scratch)
    M, K = a.shape
    K, N = b.shape
    c = torch.empty((M, N), device=a.device, dtype=a.dtype)
    grid = lambda META: (triton.cdiv(M, META['BLOCK_M']) * triton.cdiv(N, META['BLOCK_N']), )
    matmul_descriptor_kernel[grid](a, b, c, M, N, K)
    return c
