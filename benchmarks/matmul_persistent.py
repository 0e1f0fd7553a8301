"""
Persistent matrix multiplication, in the style of Triton's tutorial 09: one program per
multiprocessor (NUM_SMS), each walking the tiles of C with a stride of NUM_SMS in
samples/matmul.py's grouped order, its K loop as in that sample (pointer tiles, the
last K tile masked, rows and columns past M and N wrapping around). The tile loop is a
`tl.range` with `flatten=True`, which lets a compiler pipeline the loads of the next
tile's first K steps under the current tile's last ones. A is M x K, B is K x N,
C is M x N, with any strides; C has the type of c_ptr (fp16 or bf16), accumulated in
fp32. Triton runs this file as it is (benchmarks/triton_reference.py); Trident compiles
it (trident-bench).
"""

import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({'BLOCK_M': 128, 'BLOCK_N': 256, 'BLOCK_K': 64, 'GROUP_M': 8}, num_stages=3, num_warps=8),
        triton.Config({'BLOCK_M': 128, 'BLOCK_N': 128, 'BLOCK_K': 64, 'GROUP_M': 8}, num_stages=4, num_warps=8),
        triton.Config({'BLOCK_M': 128, 'BLOCK_N': 128, 'BLOCK_K': 32, 'GROUP_M': 8}, num_stages=4, num_warps=4),
        triton.Config({'BLOCK_M': 64, 'BLOCK_N': 64, 'BLOCK_K': 32, 'GROUP_M': 8}, num_stages=5, num_warps=2),
    ],
    key=['M', 'N', 'K'],
)
@triton.jit
def matmul_persistent_kernel(a_ptr, b_ptr, c_ptr, M, N, K, stride_am, stride_ak, stride_bk, stride_bn, stride_cm,
                             stride_cn, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, BLOCK_K: tl.constexpr,
                             GROUP_M: tl.constexpr, NUM_SMS: tl.constexpr):
    first = tl.program_id(axis=0)
    tiles_m = tl.cdiv(M, BLOCK_M)
    tiles_n = tl.cdiv(N, BLOCK_N)
    k_steps = tl.cdiv(K, BLOCK_K)
    tiles = tiles_m * tiles_n
    in_group = GROUP_M * tiles_n
    offs_k = tl.arange(0, BLOCK_K)
    # The epilogue's tile, counted separately from the loop's: once the loops are
    # flattened, its coordinates need not wait for the next tile's prologue.
    done = first - NUM_SMS
    for tile in tl.range(first, tiles, NUM_SMS, flatten=True):
        tile_m, tile_n = _tile_coords(tile, in_group, tiles_m, GROUP_M)
        rm = (tile_m * BLOCK_M + tl.arange(0, BLOCK_M)) % M
        rn = (tile_n * BLOCK_N + tl.arange(0, BLOCK_N)) % N
        a_ptrs = a_ptr + rm[:, None] * stride_am + offs_k[None, :] * stride_ak
        b_ptrs = b_ptr + offs_k[:, None] * stride_bk + rn[None, :] * stride_bn
        acc = tl.zeros((BLOCK_M, BLOCK_N), dtype=tl.float32)
        for k in range(0, k_steps):
            left = K - k * BLOCK_K
            a = tl.load(a_ptrs, mask=offs_k[None, :] < left, other=0.0)
            b = tl.load(b_ptrs, mask=offs_k[:, None] < left, other=0.0)
            acc = tl.dot(a, b, acc)
            a_ptrs += BLOCK_K * stride_ak
            b_ptrs += BLOCK_K * stride_bk

        done += NUM_SMS
        out_m, out_n = _tile_coords(done, in_group, tiles_m, GROUP_M)
        cm = out_m * BLOCK_M + tl.arange(0, BLOCK_M)
        cn = out_n * BLOCK_N + tl.arange(0, BLOCK_N)
        c_ptrs = c_ptr + cm[:, None] * stride_cm + cn[None, :] * stride_cn
        tl.store(c_ptrs, acc.to(c_ptr.dtype.element_ty), mask=(cm[:, None] < M) & (cn[None, :] < N))


@triton.jit
def _tile_coords(tile, in_group, tiles_m, GROUP_M: tl.constexpr):
    # samples/matmul.py's grouped order: GROUP_M rows of tiles, column by column.
    first_m = (tile // in_group) * GROUP_M
    rows = min(tiles_m - first_m, GROUP_M)
    return first_m + (tile % in_group) % rows, (tile % in_group) // rows


def matmul_persistent(a, b):
    """C = A @ B (fp16 or bf16, C of A's type) with Triton, one program per SM."""
    assert a.shape[1] == b.shape[0], "incompatible dimensions"
    M, K = a.shape
    K, N = b.shape
    c = torch.empty((M, N), device=a.device, dtype=a.dtype)
    sms = torch.cuda.get_device_properties(a.device).multi_processor_count
    grid = lambda META: (min(sms, triton.cdiv(M, META['BLOCK_M']) * triton.cdiv(N, META['BLOCK_N'])), )
    matmul_persistent_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), c.stride(0),
                                   c.stride(1), NUM_SMS=sms)
    return c
