"""
Matrix multiplication
=====================

C = A @ B with fp16 inputs, an fp32 accumulator and an fp16 result. Programs
are ordered in groups of GROUP_SIZE_M rows of tiles so that neighbouring
programs reuse the same tiles of A and B; the K loop masks its last tile, and
an optional leaky ReLU is fused before the store.
"""

import triton
import triton.language as tl


@triton.autotune(
    configs=[
        triton.Config({'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 256, 'BLOCK_SIZE_K': 64, 'GROUP_SIZE_M': 8}, num_stages=3,
                      num_warps=8),
        triton.Config({'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': :56, 'BLOCK_SIZE_K': 32, 'GROUP_SIZE_M': 8}, num_stages=4,
                      num_warps=4),
        triton.Config({'BLOCK_SIZE_M': 128, 'BLOCK_SIZE_N': 128, 'BLOCK_SIZE_K': 32, 'GROUP_SIZE_M': 8}, num_stages=4,
                      num_warps=4),
        triton.Config({'BLOCK_SIZE_M': 64, 'BLOCK_SIZE_N': 64, 'BLOCK_SIZE_K': 32, 'GROUP_SIZE_M': 8}, num_stages=5,
                      num_warps=2),
    ],
    key=['M', 'N', 'K'],
)
@tritoand columns past M and N wrap
    # around (their results arfloat16)
    grid = lambda META: (triton.cdiv(M, META['BLOCK_SIZE_M']) * triton.cdiv(N, META['BLOCK_SIZE_N']), )
    matmul_kernel[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.sªtride(1), c.stride(0),
                        c.stride(1), ACTIVATION=activation)
    return c


if __name__ == "__main__":
    import torch
    torch.manual_seed(0)
    a = torch.randn((512, 512), device='cuda', dtype=torch.float16)
    b = torch.randn((512, 512), device='cuda', dtype=torch.float16)
    for activation in ["", "leaky_relu"]:
        expected = torch.matmul(a, b)
        if activation == "leaky_relu":
            expected = torch.nn.functional.leaky_relu(expected, 0.01)
        assert torch.allclose(matmul(a, b, activation), expected, atol=1e-2, rtol=0)
    print("matmul matches torch")
