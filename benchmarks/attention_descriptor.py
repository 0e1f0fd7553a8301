"""
Fused attention (forward) through host tensor descriptors: samples/attention.py's
FlashAttention-2 loop with Q, K, V and O read and written in boxes of descriptors over
the (Z * H * N_CTX) x HEAD_DIM view of each tensor, as Triton 3.x's tutorial 06 does
where the GPU has a tensor-copy engine. Triton runs this file as it is (with
triton.tools.tensor_descriptor.TensorDescriptor arguments: benchmarks/triton_reference.py);
Trident compiles it (trident-bench, with trident::TensorDescriptor arguments), and on
sm_90 the loop's K and V tiles come by TMA.
"""

import triton
import triton.language as tl


@triton.jit
def _attn_fwd_inner(acc, l_i, m_i, q, desc_k, desc_v, offset_y, start_m, qk_scale,  #
                    BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr, STAGE: tl.constexpr,  #
                    offs_m: tl.constexpr, offs_n: tl.constexpr, N_CTX: tl.constexpr):
    if STAGE == 1:  # causal, strictly below the diagonal tile
        lo, hi = 0, start_m * BLOCK_M
    elif STAGE == 2:  # causal, the diagonal tile
        lo, hi = start_m * BLOCK_M, (start_m + 1) * BLOCK_M
        lo = tl.multiple_of(lo, BLOCK_M)
    else:  # not causal: every key
        lo, hi = 0, N_CTX
    offsetk_y = offset_y + lo
    offsetv_y = offset_y + lo
    for start_n in range(lo, hi, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        k = desc_k.load([offsetk_y, 0]).T
        qk = tl.dot(q, k)
        if STAGE == 2:
            mask = offs_m[:, None] >= (start_n + offs_n[None, :])
            qk = qk * qk_scale + tl.where(mask, 0, -1.0e6)
            m_ij = tl.maximum(m_i, tl.max(qk, 1))
            qk -= m_ij[:, None]
        else:
            m_ij = tl.maximum(m_i, tl.max(qk, 1) * qk_scale)
            qk = qk * qk_scale - m_ij[:, None]
        p = tl.math.exp2(qk)
        l_ij = tl.sum(p, 1)
        alpha = tl.math.exp2(m_i - m_ij)
        l_i = l_i * alpha + l_ij
        acc = acc * alpha[:, None]
        v = desc_v.load([offsetv_y, 0])
        acc = tl.dot(p.to(tl.float16), v, acc)
        m_i = m_ij
        offsetk_y += BLOCK_N
        offsetv_y += BLOCK_N
    return acc, l_i, m_i


@triton.jit
def _attn_fwd_desc(sm_scale, M, Z, H, desc_q, desc_k, desc_v, desc_o, N_CTX: tl.constexpr,  #
                   HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,  #
                   STAGE: tl.constexpr):
    tl.static_assert(BLOCK_N <= HEAD_DIM)
    start_m = tl.program_id(0)
    off_hz = tl.program_id(1)
    # The rows of this (batch, head) in the flattened view, and this program's queries.
    offset_y = off_hz * N_CTX
    qo_offset_y = offset_y + start_m * BLOCK_M
    offs_m = start_m * BLOCK_M + tl.arange(0, BLOCK_M)
    offs_n = tl.arange(0, BLOCK_N)
    m_i = tl.zeros([BLOCK_M], dtype=tl.float32) - float("inf")
    l_i = tl.zeros([BLOCK_M], dtype=tl.float32) + 1.0
    acc = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale
    qk_scale *= 1.44269504  # 1 / ln(2)
    q = desc_q.load([qo_offset_y, 0])
    if STAGE & 1:
        acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, desc_k, desc_v, offset_y, start_m, qk_scale,  #
                                        BLOCK_M, BLOCK_N, 4 - STAGE, offs_m, offs_n, N_CTX)
    if STAGE & 2:
        acc, l_i, m_i = _attn_fwd_inner(acc, l_i, m_i, q, desc_k, desc_v, offset_y, start_m, qk_scale,  #
                                        BLOCK_M, BLOCK_N, 2, offs_m, offs_n, N_CTX)
    m_i += tl.math.log2(l_i)
    acc = acc / l_i[:, None]
    tl.store(M + off_hz * N_CTX + offs_m, m_i)
    desc_o.store([qo_offset_y, 0], acc.to(tl.float16))


def attention_descriptor(q, k, v, causal, sm_scale, num_warps=4):
    """softmax(q k^T * sm_scale) v for q, k, v of shape (Z, H, N, D), contiguous fp16."""
    from triton.tools.tensor_descriptor import TensorDescriptor
    Z, H, N, D = q.shape
    BLOCK_M, BLOCK_N = 128, 64
    o = torch.empty_like(q)
    M = torch.empty((Z, H, N), device=q.device, dtype=torch.float32)
    rows = Z * H * N
    desc = lambda t, block: TensorDescriptor(t.view(rows, D), shape=[rows, D], strides=[D, 1], block_shape=block)
    grid = (triton.cdiv(N, BLOCK_M), Z * H, 1)
    _attn_fwd_desc[grid](sm_scale, M, Z, H, desc(q, [BLOCK_M, D]), desc(k, [BLOCK_N, D]), desc(v, [BLOCK_N, D]),
                         desc(o, [BLOCK_M, D]), N_CTX=N, HEAD_DIM=D, BLOCK_M=BLOCK_M, BLOCK_N=BLOCK_N,
                         STAGE=3 if causal else 1, num_warps=num_warps, num_stages=3)
    return o
