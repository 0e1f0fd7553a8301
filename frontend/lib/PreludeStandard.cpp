// The data-movement functions of triton.language that the block IR has no op for,
// written in the Triton language from reshape, permute, split, join, where and
// reductions, so that every target runs them without new ops and every result is
// exact (elements are moved or selected, never computed):
//   flip       reverses a dimension of 2^k elements: k rounds, each exchanging the
//              two halves of every group of 2^(j+1) (bit j of the index flips)
//   sort       a bitonic sorting network along the last dimension
//   topk       sorted descending, then the first k of each row
//   bitonic_merge  the last stage of the network (its input must be bitonic)
//   gather     out[..i..] = src[..index[..i..]..] along `axis`, by comparing every
//              index with every position and OR-ing the selected bits together
//   histogram  counts of 0 .. num_bins - 1, by the same comparison
//   dot_scaled the microscaled operands (fp4 unpacked, fp8 decoded) times their scales
//              (e8m0, or fp8 for nvfp4), then tl.dot, as Triton's software emulation does

#include "CodeGen.h"

namespace trident::frontend {

const char *standardPreludeSource() {
  return R"PRELUDE(

@triton.constexpr_function
def _std_prod(shape, lo, hi):
    p = 1
    for i in range(lo, hi):
        p = p * shape[i]
    return p


@triton.constexpr_function
def _std_log2(n):
    k = 0
    while (1 << k) < n:
        k = k + 1
    return k


@triton.constexpr_function
def _std_dim(dim, rank):
    if dim is None:
        return rank - 1
    if dim < 0:
        return dim + rank
    return dim


@triton.jit
def _std_halves(x, groups: tl.constexpr, inner: tl.constexpr):
    # x viewed as [groups, 2, inner]: its two halves [groups, inner] each.
    y = tl.permute(tl.reshape(x, [groups, 2, inner]), [0, 2, 1])
    return tl.split(y)


@triton.jit
def _std_unhalves(a, b, shape):
    return tl.reshape(tl.permute(tl.join(a, b), [0, 2, 1]), shape)


@triton.jit
def flip(x, dim=None):
    rank: tl.constexpr = len(x.shape)
    d: tl.constexpr = _std_dim(dim, rank)
    tl.static_assert(0 <= d and d < rank, "tl.flip: dim is out of range")
    n: tl.constexpr = x.shape[d]
    steps: tl.constexpr = _std_log2(n)
    tl.static_assert((1 << steps) == n, "tl.flip: the flipped dimension must be a power of two")
    post: tl.constexpr = _std_prod(x.shape, d + 1, rank)
    total: tl.constexpr = _std_prod(x.shape, 0, rank)
    for j in tl.static_range(steps):
        inner: tl.constexpr = (1 << j) * post
        a, b = _std_halves(x, total // (2 * inner), inner)
        x = _std_unhalves(b, a, x.shape)
    return x


@triton.jit
def _std_merge(x, stage: tl.constexpr, n_bits: tl.constexpr, descending: tl.constexpr):
    # One merge stage of the bitonic network over rows of 2^n_bits elements: pairs at
    # distance 2^t for t = stage - 1 .. 0, in blocks of 2^stage that sort up when bit
    # `stage` of the index is 0 (the whole row sorts one way at the last stage).
    total: tl.constexpr = _std_prod(x.shape, 0, len(x.shape))
    for s in tl.static_range(stage):
        t: tl.constexpr = stage - 1 - s
        groups: tl.constexpr = total // (2 << t)
        a, b = _std_halves(x, groups, 1 << t)
        if stage < n_bits:
            g = tl.arange(0, groups)[:, None]
            up = ((g >> (stage - t - 1)) & 1) == 0
            if descending:
                up = up == False
            swap = tl.where(up, a > b, a < b)
        elif descending:
            swap = a < b
        else:
            swap = a > b
        x = _std_unhalves(tl.where(swap, b, a), tl.where(swap, a, b), x.shape)
    return x


@triton.jit
def _std_check_sorted_dim(x, dim):
    rank: tl.constexpr = len(x.shape)
    tl.static_assert(_std_dim(dim, rank) == rank - 1, "only the last dimension can be sorted")
    n: tl.constexpr = x.shape[rank - 1]
    tl.static_assert((1 << _std_log2(n)) == n, "the sorted dimension must be a power of two")


@triton.jit
def sort(x, dim: tl.constexpr = None, descending: tl.constexpr = 0):
    _std_check_sorted_dim(x, dim)
    n_bits: tl.constexpr = _std_log2(x.shape[len(x.shape) - 1])
    for stage in tl.static_range(1, n_bits + 1):
        x = _std_merge(x, stage, n_bits, descending)
    return x


@triton.jit
def bitonic_merge(x, dim: tl.constexpr = None, descending: tl.constexpr = 0):
    _std_check_sorted_dim(x, dim)
    n_bits: tl.constexpr = _std_log2(x.shape[len(x.shape) - 1])
    return _std_merge(x, n_bits, n_bits, descending)


@triton.jit
def topk(x, k: tl.constexpr, dim: tl.constexpr = None):
    n: tl.constexpr = x.shape[len(x.shape) - 1]
    tl.static_assert(k <= n and (1 << _std_log2(k)) == k, "tl.topk: k must be a power of two, at most the dimension")
    y = sort(x, dim, 1)
    # Sorted descending, the first k of a row are, position by position, the largest
    # of the row's n // k groups of k.
    rows: tl.constexpr = _std_prod(x.shape, 0, len(x.shape) - 1)
    y = tl.max(tl.reshape(y, [rows, n // k, k]), 1)
    return tl.reshape(y, x.shape[:-1] + (k,))


@triton.jit
def _std_bits_type(x):
    if x.dtype.primitive_bitwidth == 64:
        return tl.int64
    elif x.dtype.primitive_bitwidth == 32:
        return tl.int32
    elif x.dtype.primitive_bitwidth == 16:
        return tl.int16
    else:
        return tl.int8


@triton.jit
def gather(src, index, axis):
    rank: tl.constexpr = len(src.shape)
    a: tl.constexpr = _std_dim(axis, rank)
    tl.static_assert(len(index.shape) == rank, "tl.gather: the index must have the source's rank")
    tl.static_assert(a < rank, "tl.gather: axis is out of range")
    n: tl.constexpr = src.shape[a]
    bits_type: tl.constexpr = _std_bits_type(src)
    if src.dtype.is_bool():
        bits = src.to(tl.int8)
    else:
        bits = src.to(bits_type, bitcast=True)
    # [.., K (axis), N (axis + 1), ..]: index k hits position n.
    hit = tl.expand_dims(index, a + 1) == tl.reshape(tl.arange(0, n), (1,) * (a + 1) + (n,) + (1,) * (rank - 1 - a))
    picked = tl.where(hit, tl.expand_dims(bits, a), 0)
    out = tl.reduce_or(picked, a + 1)
    if src.dtype.is_bool():
        return out != 0
    else:
        return out.to(src.dtype, bitcast=True)


@triton.jit
def _ds_e2m1(n):
    # One fp4 (e2m1) value from the low 4 bits: sign, 2 exponent bits, 1 mantissa bit.
    e = ((n >> 1) & 3).to(tl.int32)
    m = (n & 1).to(tl.float32)
    mag = tl.where(e == 0, m * 0.5, (1.0 + m * 0.5) * tl.exp2((e - 1).to(tl.float32)))
    return tl.where(((n >> 3) & 1) != 0, mag * -1.0, mag)


@triton.jit
def _ds_operand(x, scale, fmt: tl.constexpr, is_rhs: tl.constexpr, k_pack: tl.constexpr):
    # The operand's values (K along dimension 1 of the lhs, 0 of the rhs) in fp32,
    # times its e8m0 scales (one per 32 elements along K).
    if fmt == "e2m1":
        tl.static_assert(k_pack, "tl.dot_scaled: fp4 operands packed along M or N (k_pack=False) are not supported")
        b = x.to(tl.uint8, bitcast=True)
        pair = tl.join(_ds_e2m1(b & 0xF), _ds_e2m1(b >> 4))
        if is_rhs:
            v = tl.reshape(tl.permute(pair, [0, 2, 1]), [2 * x.shape[0], x.shape[1]])
        else:
            v = tl.reshape(pair, [x.shape[0], 2 * x.shape[1]])
    elif fmt == "e4m3":
        v = x.to(tl.float8e4nv, bitcast=True).to(tl.float32)
    elif fmt == "e5m2":
        v = x.to(tl.float8e5, bitcast=True).to(tl.float32)
    else:
        tl.static_assert(fmt == "bf16" or fmt == "fp16", "tl.dot_scaled: the formats are e2m1, e4m3, e5m2, bf16 and fp16")
        v = x.to(tl.float32)
    if scale is not None:
        if scale.dtype == tl.float8e4nv:
            f = scale.to(tl.float32)  # nvfp4's scales: fp8 values
        else:
            s = scale.to(tl.uint8, bitcast=True).to(tl.int32)
            # e8m0, 2^(s - 127): the exponent field itself; 0 is 2^-127 (a subnormal), 255 NaN.
            f = (s << 23).to(tl.float32, bitcast=True)
            f = tl.where(s == 0, 5.877471754111438e-39, tl.where(s == 255, float("nan"), f))
        # One scale per group of K // scale.shape[1] elements along K (32 for e8m0, 16 for nvfp4).
        groups: tl.constexpr = scale.shape[1]
        if is_rhs:
            size: tl.constexpr = v.shape[0] // groups
            f = tl.reshape(tl.broadcast_to(tl.trans(f)[:, None, :], [groups, size, v.shape[1]]), v.shape)
        else:
            size: tl.constexpr = v.shape[1] // groups
            f = tl.reshape(tl.broadcast_to(f[:, :, None], [v.shape[0], groups, size]), v.shape)
        v = v * f
    return v


@triton.jit
def dot_scaled(lhs, lhs_scale, lhs_format: tl.constexpr, rhs, rhs_scale, rhs_format: tl.constexpr, acc=None,
               fast_math: tl.constexpr = False, lhs_k_pack: tl.constexpr = True, rhs_k_pack: tl.constexpr = True,
               out_dtype: tl.constexpr = tl.float32):
    tl.static_assert(out_dtype == tl.float32, "tl.dot_scaled: out_dtype must be tl.float32")
    a = _ds_operand(lhs, lhs_scale, lhs_format, False, lhs_k_pack)
    b = _ds_operand(rhs, rhs_scale, rhs_format, True, rhs_k_pack)
    # As Triton's emulation: fp4/fp8/bf16 values times powers of two are exact in bf16,
    # and their products exact in the fp32 accumulator; fp16 keeps its bits in fp32.
    if lhs_format == "fp16" or rhs_format == "fp16":
        return tl.dot(a, b, acc, input_precision="ieee")
    else:
        return tl.dot(a.to(tl.bfloat16), b.to(tl.bfloat16), acc)


@triton.jit
def histogram(input, num_bins: tl.constexpr, mask=None):
    tl.static_assert(len(input.shape) == 1, "tl.histogram takes a 1-d tensor")
    hit = input[:, None] == tl.arange(0, num_bins)[None, :]
    if mask is not None:
        hit = hit & mask[:, None]
    return tl.sum(hit.to(tl.int32), 0)
)PRELUDE";
}

void registerStandardBuiltins(BuiltinTable &t) {
  for (const char *name : {"flip", "sort", "topk", "bitonic_merge", "gather", "histogram", "dot_scaled"}) {
    std::string n = name;
    t["tl." + n] = [n](CodeGen &cg, const CallArgs &args) { return cg.callPrelude(n, args); };
  }
}

} // namespace trident::frontend
