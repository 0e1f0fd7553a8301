// Language functions that Trident writes in the Triton language itself and
// compiles like user code: the Philox-based random numbers. They reproduce
// Triton's streams bit for bit: Philox 4x32 with 10 rounds, the seed split into
// the keys (low word first), the offset as the first counter word, the others 0,
// and Triton's mapping of 32-bit integers to uniform floats in [0, 1).

#include "CodeGen.h"

namespace trident::frontend {

std::string preludeSource() {
  return std::string(R"PRELUDE(
import triton
import triton.language as tl


@triton.jit
def _philox_rounds(c0, c1, c2, c3, k0, k1, n_rounds: tl.constexpr):
    # One Philox-4x32 round per iteration; the multipliers and key increments are
    # the standard Philox constants.
    for _ in tl.static_range(n_rounds):
        hi_a = tl.umulhi(0xD2511F53, c0)
        hi_b = tl.umulhi(0xCD9E8D57, c2)
        lo_a = c0 * 0xD2511F53
        lo_b = c2 * 0xCD9E8D57
        c0 = hi_b ^ c1 ^ k0
        c2 = hi_a ^ c3 ^ k1
        c1 = lo_b
        c3 = lo_a
        k0 = k0 + 0x9E3779B9
        k1 = k1 + 0xBB67AE85
    return c0, c1, c2, c3


@triton.jit
def philox(seed, c0, c1, c2, c3, n_rounds: tl.constexpr = 10):
    seed = tl.to_tensor(seed)
    tl.static_assert(seed.dtype.is_int(), "the seed of the random functions must be an integer")
    seed = seed.to(tl.uint64)
    c0 = tl.to_tensor(c0)
    c1 = tl.to_tensor(c1)
    c2 = tl.to_tensor(c2)
    c3 = tl.to_tensor(c3)
    tl.static_assert(c0.dtype.primitive_bitwidth == 32,
                     "Trident's random functions take 32-bit offsets")
    key_hi = ((seed >> 32) & 0xFFFFFFFF).to(tl.uint32)
    key_lo = (seed & 0xFFFFFFFF).to(tl.uint32)
    c0 = c0.to(tl.uint32, bitcast=True)
    c1 = c1.to(tl.uint32, bitcast=True)
    c2 = c2.to(tl.uint32, bitcast=True)
    c3 = c3.to(tl.uint32, bitcast=True)
    return _philox_rounds(c0, c1, c2, c3, key_lo, key_hi, n_rounds)


@triton.jit
def philox_impl(c0, c1, c2, c3, k0, k1, n_rounds: tl.constexpr = 10):
    return _philox_rounds(c0, c1, c2, c3, k0, k1, n_rounds)


@triton.jit
def _or_combine(a, b):
    return a | b


@triton.jit
def reduce_or(input, axis, keep_dims: tl.constexpr = False):
    return tl.reduce(input, axis, _or_combine, keep_dims=keep_dims)


@triton.jit
def swizzle2d(i, j, size_i, size_j, size_g):
    # Index (i, j) of a size_i x size_j row-major grid, renumbered so that groups of
    # size_g rows are walked column by column (the last group may be shorter).
    linear = i * size_j + j
    group_size = size_g * size_j
    group = linear // group_size
    first_row = group * size_g
    rows = tl.minimum(size_i - first_row, size_g)
    in_group = linear % group_size
    return first_row + in_group % rows, in_group // rows


@triton.jit
def randint4x(seed, offset, n_rounds: tl.constexpr = 10):
    offset = tl.to_tensor(offset)
    zero = offset * 0
    return philox(seed, offset, zero, zero, zero, n_rounds)


@triton.jit
def randint(seed, offset, n_rounds: tl.constexpr = 10):
    first, _, _, _ = randint4x(seed, offset, n_rounds)
    return first


@triton.jit
def uint_to_uniform_float(x):
    # Nonnegative int32 values (negative ones mirrored as -x - 1), scaled by the
    # largest float below 2^-31 so that the result stays below 1.
    tl.static_assert(x.dtype.primitive_bitwidth == 32, "uint_to_uniform_float takes 32-bit integers")
    x = x.to(tl.int32, bitcast=True)
    scale = 4.6566127342e-10
    x = tl.where(x < 0, -x - 1, x)
    return x * scale


@triton.jit
def rand(seed, offset, n_rounds: tl.constexpr = 10):
    offset = tl.to_tensor(offset)
    tl.static_assert(offset.dtype.primitive_bitwidth == 32, "Trident's random functions take 32-bit offsets")
    offset = offset.to(tl.uint32, bitcast=True)
    source = randint(seed, offset, n_rounds)
    return uint_to_uniform_float(source)


@triton.jit
def rand4x(seed, offsets, n_rounds: tl.constexpr = 10):
    offsets = tl.to_tensor(offsets)
    tl.static_assert(offsets.dtype.primitive_bitwidth == 32, "Trident's random functions take 32-bit offsets")
    offsets = offsets.to(tl.uint32, bitcast=True)
    i1, i2, i3, i4 = randint4x(seed, offsets, n_rounds)
    return uint_to_uniform_float(i1), uint_to_uniform_float(i2), uint_to_uniform_float(i3), uint_to_uniform_float(i4)


@triton.jit
def pair_uniform_to_normal(u1, u2):
    # Box-Muller.
    u1 = tl.maximum(1.0e-7, u1)
    th = 6.283185307179586 * u2
    r = tl.sqrt(-2.0 * tl.log(u1))
    return r * tl.cos(th), r * tl.sin(th)


@triton.jit
def randn(seed, offset, n_rounds: tl.constexpr = 10):
    i1, i2, _, _ = randint4x(seed, offset, n_rounds)
    u1 = uint_to_uniform_float(i1)
    u2 = uint_to_uniform_float(i2)
    n1, _ = pair_uniform_to_normal(u1, u2)
    return n1


@triton.jit
def randn4x(seed, offset, n_rounds: tl.constexpr = 10):
    u1, u2, u3, u4 = rand4x(seed, offset, n_rounds)
    n1, n2 = pair_uniform_to_normal(u1, u2)
    n3, n4 = pair_uniform_to_normal(u3, u4)
    return n1, n2, n3, n4
)PRELUDE") +
         libdevicePreludeSource() + transcendentalPreludeSource() + standardPreludeSource() +
         softFp8PreludeSource() + roundingPreludeSource() + specialPreludeSource() + gammaPreludeSource() +
         besselPreludeSource() + integerPreludeSource();
}

void registerPreludeBuiltins(BuiltinTable &t) {
  for (const char *name :
       {"philox", "philox_impl", "reduce_or", "swizzle2d", "randint4x", "randint", "uint_to_uniform_float",
        "rand", "rand4x", "pair_uniform_to_normal", "randn", "randn4x"}) {
    std::string n = name;
    t["tl." + n] = [n](CodeGen &cg, const CallArgs &args) { return cg.callPrelude(n, args); };
  }
}

} // namespace trident::frontend
