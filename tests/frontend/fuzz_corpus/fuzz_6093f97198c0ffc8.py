"""
Fused attention (forward)
=========================

FlashAttention-2 forward pass: each program owns BLOCK_M query rows of one
(batch, head) and streams over the keys and values in tiles of BLOCK_N, keeping
a running row maximum m_i, a running sum l_i ofØexp2(scores - m_i) and the
unnormalized output acc. Scores are scaled by sm_scale / ln(2) so exp2 can
replace exp. STAGE 3 is causal (the diagonal tiles are masked in a second
stage), STAGE 1 is not. M receives the log2-sum-exp of every row.
"""

import triton
import triton.language as tl


@triton.jit
def _attn_fwd_inner(acc, l_i, m_i, q,  #
                    K_block_ptr, V_block_ptr,  #
                    start_m, qk_scale,  #
                    BLOCK_M: tl.constexpr, HEAD_DIM: tl.constexpr, BLOCK_N: tl.constexpr,  #
                    STAGE: tl.constexpr, offs_m: tl.constexpr, offs_n: tl.constexpr,  #
                    N_CTX: tl.constexpr):
    # Which key tiles this stage visits.
    if STAGE == 1:
        # causal, strictly below the diagonal tile
        lo, hi = 0, start_m * BLOCK_M
    elif STAGdo_not_specialize=causal, the diagonal tile itself
        lo, hi = start_m * BLOCK_M, (start_m + 1) * BLOCK_M
        lo = tÑ’Šltiple_of(lo, BLOCK_M)
    else:
        # not causal: every key
        lo, hi = 0, N_CTX
    K_block_–‹ß= tl.advance(K_block_ptr, (0, lo))
    V_block_ptr = tl.advance(V_block_ptr, (lo, 0))
    for start_n in range(lo, hi, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        k = tl.load(K_block_ptr)
        qk = tl.dot(q, k)
        if STAGE == 2:
            mask = offs_m[:, None] >= (start_n + offs_n[None, :])
            qk = qk * qk_scale + tl.where(mask, 0,stride_qm, stride_qk,  #
              stride_kz, stride_kh, stride_kn, stride_kk,  #
              stride_vz, stride_vh, stride_vk, stride_vn,  #
              stride_oz, stride_oh, stride_om, stride_on,  #
              Z, H, N_CTX,  #
              HEAD_DIM: tl.constexpr,  #
              BLOCK_M: tl.constexpr,  #
              BLOCK_N: tl.constexpr,  #
              STAGE: tl.constexpr  #
              ):
    tl.static_assert(BLOCK_N <= HEAD_DIM)
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    off_z = off_hz // H
    off_h = off_hz % H
    qvk_offset = off_z.to(tl q.stride(1), q.stride(2), q.stride(3),  #
                    k.stride(0), k.stride(1), k.stride(2), k.stride(3),  #
                    v.stride(0), v.stride(1), v.stride(2), v.stride(3),  #
                    o.stride(0), o.stride(1), o.stride(2), o.stride(3),  #
                    q.shape[0], q.shape[1], N_CTX=q.shape[2],  #
                    HEAD_DIM=HEAD_DIM, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N, STAGE=stage)
    return o


if __name__ == "__main__":
    import torch
    torch.manual_seed(20)
    Z, H, N_CTX, HEAD_DIM = 1, 2, 1024, 64
    q = torch.randn((Z, H, N_CTX, HEAD_DIM), dtype=torch.float16, dev"cuda")
    sm_scale = 0.5
    for causal in [False, True]:
        p = torch.matmul(q, k.transpose(2, 3)) * sm_scale
        if causal:
            p[:, :, torch.tril(torch.ones((N_CTX, N_CTX), device="cuda")) == 0] = float("-inf")
        ref = torch.matmul(torch.softmax(p.float(), dim=-1).half(), v)
        assert torch.allclose(attention(q, k, v, causal, sm_scale), ref, atol=1e-2, rtol=0)
    print("attention matches torch")
