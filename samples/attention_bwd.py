"""
Fused attention (backward)
==========================

The gradients of attention.py's forward pass, FlashAttention-2 style, for
contiguous [Z, H, N_CTX, HEAD_DIM] fp16 tensors. With S = Q K^T * sm_scale,
P = softmax(S) and O = P V, given dO:

    Delta = rowsum(O * dO)            (_attn_bwd_preprocess)
    dV = P^T dO,  dK = dS^T Q * sm_scale,  dS = P * (dO V^T - Delta)   (_attn_bwd_dkdv)
    dQ = dS K * sm_scale              (_attn_bwd_dq)

P is recomputed tile by tile from M, the forward pass's log2-sum-exp of every
row: P = exp2(Q K^T * sm_scale / ln(2) - M). Each dK/dV program owns BLOCK_N
keys and streams over the queries; each dQ program owns BLOCK_M queries and
streams over the keys, so no program writes what another one does. CAUSAL masks
keys after the query and skips the tiles that mask holds entirely.
"""

import triton
import triton.language as tl

LOG2E = tl.constexpr(1.44269504)  # 1 / ln(2)


@triton.jit
def _attn_bwd_preprocess(O, DO, Delta, N_CTX, HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr):
    offs_m = tl.program_id(0) * BLOCK_M + tl.arange(0, BLOCK_M)
    off_hz = tl.program_id(1)
    offs_d = tl.arange(0, HEAD_DIM)
    rows = off_hz * N_CTX * HEAD_DIM + offs_m[:, None] * HEAD_DIM + offs_d[None, :]
    o = tl.load(O + rows).to(tl.float32)
    do = tl.load(DO + rows).to(tl.float32)
    tl.store(Delta + off_hz * N_CTX + offs_m, tl.sum(o * do, axis=1))


@triton.jit
def _attn_bwd_dkdv(Q, K, V, DO, M, Delta, DK, DV, sm_scale, N_CTX,  #
                   HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,  #
                   CAUSAL: tl.constexpr):
    tl.static_assert(BLOCK_N % BLOCK_M == 0)
    start_n = tl.program_id(0) * BLOCK_N
    off_hz = tl.program_id(1)
    base = off_hz * N_CTX * HEAD_DIM
    offs_n = start_n + tl.arange(0, BLOCK_N)
    offs_d = tl.arange(0, HEAD_DIM)
    k = tl.load(K + base + offs_n[:, None] * HEAD_DIM + offs_d[None, :])
    v = tl.load(V + base + offs_n[:, None] * HEAD_DIM + offs_d[None, :])
    dk = tl.zeros([BLOCK_N, HEAD_DIM], dtype=tl.float32)
    dv = tl.zeros([BLOCK_N, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * LOG2E
    # Queries before this tile's first key see none of its keys when causal.
    lo = start_n if CAUSAL else 0
    for start_m in range(lo, N_CTX, BLOCK_M):
        start_m = tl.multiple_of(start_m, BLOCK_M)
        offs_m = start_m + tl.arange(0, BLOCK_M)
        # Q^T and dO of these queries, their row statistics.
        qT = tl.load(Q + base + offs_m[None, :] * HEAD_DIM + offs_d[:, None])
        do = tl.load(DO + base + offs_m[:, None] * HEAD_DIM + offs_d[None, :])
        m = tl.load(M + off_hz * N_CTX + offs_m)
        delta = tl.load(Delta + off_hz * N_CTX + offs_m)
        # P^T of this tile, recomputed from the forward pass's M.
        pT = tl.math.exp2(tl.dot(k, qT) * qk_scale - m[None, :])
        if CAUSAL:
            pT = tl.where(offs_m[None, :] >= offs_n[:, None], pT, 0.0)
        dv = tl.dot(pT.to(tl.float16), do, dv)
        dpT = tl.dot(v, tl.trans(do))
        dsT = pT * (dpT - delta[None, :])
        dk = tl.dot(dsT.to(tl.float16), tl.trans(qT), dk)
    dk *= sm_scale
    out = base + offs_n[:, None] * HEAD_DIM + offs_d[None, :]
    tl.store(DK + out, dk.to(tl.float16))
    tl.store(DV + out, dv.to(tl.float16))


@triton.jit
def _attn_bwd_dq(Q, K, V, DO, M, Delta, DQ, sm_scale, N_CTX,  #
                 HEAD_DIM: tl.constexpr, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr,  #
                 CAUSAL: tl.constexpr):
    tl.static_assert(BLOCK_M % BLOCK_N == 0)
    start_m = tl.program_id(0) * BLOCK_M
    off_hz = tl.program_id(1)
    base = off_hz * N_CTX * HEAD_DIM
    offs_m = start_m + tl.arange(0, BLOCK_M)
    offs_d = tl.arange(0, HEAD_DIM)
    rows = base + offs_m[:, None] * HEAD_DIM + offs_d[None, :]
    q = tl.load(Q + rows)
    do = tl.load(DO + rows)
    m = tl.load(M + off_hz * N_CTX + offs_m)
    delta = tl.load(Delta + off_hz * N_CTX + offs_m)
    dq = tl.zeros([BLOCK_M, HEAD_DIM], dtype=tl.float32)
    qk_scale = sm_scale * LOG2E
    # Keys after this tile's last query are masked entirely when causal.
    hi = start_m + BLOCK_M if CAUSAL else N_CTX
    for start_n in range(0, hi, BLOCK_N):
        start_n = tl.multiple_of(start_n, BLOCK_N)
        offs_n = start_n + tl.arange(0, BLOCK_N)
        kT = tl.load(K + base + offs_n[None, :] * HEAD_DIM + offs_d[:, None])
        vT = tl.load(V + base + offs_n[None, :] * HEAD_DIM + offs_d[:, None])
        p = tl.math.exp2(tl.dot(q, kT) * qk_scale - m[:, None])
        if CAUSAL:
            p = tl.where(offs_m[:, None] >= offs_n[None, :], p, 0.0)
        dp = tl.dot(do, vT)
        ds = p * (dp - delta[:, None])
        dq = tl.dot(ds.to(tl.float16), tl.trans(kT), dq)
    dq *= sm_scale
    tl.store(DQ + rows, dq.to(tl.float16))


def attention_backward(q, k, v, o, do, m, causal, sm_scale):
    """dq, dk, dv for attention.py's forward outputs o and m (torch tensors)."""
    Z, H, N_CTX, HEAD_DIM = q.shape
    dq, dk, dv = torch.empty_like(q), torch.empty_like(k), torch.empty_like(v)
    delta = torch.empty_like(m)
    _attn_bwd_preprocess[(N_CTX // 128, Z * H)](o, do, delta, N_CTX, HEAD_DIM=HEAD_DIM, BLOCK_M=128)
    _attn_bwd_dkdv[(N_CTX // 128, Z * H)](q, k, v, do, m, delta, dk, dv, sm_scale, N_CTX,  #
                                         HEAD_DIM=HEAD_DIM, BLOCK_M=32, BLOCK_N=128, CAUSAL=causal,  #
                                         num_warps=4, num_stages=3)
    _attn_bwd_dq[(N_CTX // 128, Z * H)](q, k, v, do, m, delta, dq, sm_scale, N_CTX,  #
                                       HEAD_DIM=HEAD_DIM, BLOCK_M=128, BLOCK_N=32, CAUSAL=causal,  #
                                       num_warps=4, num_stages=3)
    return dq, dk, dv
