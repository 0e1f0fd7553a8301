// libdevice (triton.language.extra.libdevice, tl.extra.cuda.libdevice ...): the
// functions Trident provides on every target. Those that are block-IR math ops
// (exp, log, sqrt, rsqrt, erf ...) map to them: on NVPTX they are libdevice's own
// functions, on the other targets each backend's. The others are written here in
// the Triton language from exact operations only (floor, compare, select, integer
// and bit arithmetic), so that they give libdevice's results bit for bit on every
// target: rounding (rint, round, trunc, llrint ...), classification (isnan,
// signbit ...), copysign, fdim, saturatef, integer mulhi, popc, clz, brev, ffs.
// Names that need a transcendental function the block IR lacks (tanh, pow, asin ...)
// are refused with a message saying so.

#include "CodeGen.h"

namespace trident::frontend {

namespace {

// A libdevice name, the Triton-language function that implements it (in the
// prelude below, or a tl builtin).
struct LibdeviceEntry {
  const char *name;
  const char *impl;
};

const LibdeviceEntry kLibdevice[] = {
    // The block IR's math ops.
    {"exp", "tl.exp"},
    {"exp2", "tl.exp2"},
    {"log", "tl.log"},
    {"log2", "tl.log2"},
    {"sqrt", "tl.sqrt"},
    {"rsqrt", "tl.rsqrt"},
    {"sin", "tl.sin"},
    {"cos", "tl.cos"},
    {"erf", "tl.erf"},
    {"floor", "tl.floor"},
    {"ceil", "tl.ceil"},
    {"fabs", "tl.abs"},
    {"abs", "tl.abs"},
    {"llabs", "tl.abs"},
    {"fma", "tl.fma"},
    {"fma_rn", "tl.fma"},
    {"div_rn", "tl.div_rn"},
    {"sqrt_rn", "tl.sqrt_rn"},
    {"umulhi", "tl.umulhi"},
    {"umul64hi", "tl.umulhi"},
    // libdevice's fast_ variants: the accurate functions are within their bounds.
    {"fast_expf", "tl.exp"},
    {"fast_logf", "tl.log"},
    {"fast_log2f", "tl.log2"},
    {"fast_sinf", "tl.sin"},
    {"fast_cosf", "tl.cos"},
    // Written below.
    {"fmax", "_ld_fmax"},
    {"fmin", "_ld_fmin"},
    {"max", "_ld_imax"},
    {"min", "_ld_imin"},
    {"umax", "_ld_imax"},
    {"umin", "_ld_imin"},
    {"llmax", "_ld_imax"},
    {"llmin", "_ld_imin"},
    {"ullmax", "_ld_imax"},
    {"ullmin", "_ld_imin"},
    {"add_rn", "_ld_add"},
    {"sub_rn", "_ld_sub"},
    {"mul_rn", "_ld_mul"},
    {"rcp_rn", "_ld_rcp"},
    {"fast_dividef", "_ld_fdiv"},
    {"copysign", "_ld_copysign"},
    {"signbit", "_ld_signbit"},
    {"isnan", "_ld_isnan"},
    {"isinf", "_ld_isinf"},
    {"isfinited", "_ld_isfinite"},
    {"finitef", "_ld_isfinite"},
    {"trunc", "_ld_trunc"},
    {"round", "_ld_round"},
    {"rint", "_ld_rint"},
    {"nearbyint", "_ld_rint"},
    {"llrint", "_ld_llrint"},
    {"llround", "_ld_llround"},
    {"fdim", "_ld_fdim"},
    {"saturatef", "_ld_saturate"},
    {"mulhi", "_ld_mulhi"},
    {"mul64hi", "_ld_mulhi"},
    {"popc", "_ld_popc"},
    {"popcll", "_ld_popc"},
    {"clz", "_ld_clz"},
    {"clzll", "_ld_clz"},
    {"brev", "_ld_brev"},
    {"brevll", "_ld_brev"},
    {"ffs", "_ld_ffs"},
    {"ffsll", "_ld_ffs"},
    {"nextafter", "_ld_nextafter"},
    {"ilogb", "_ld_ilogb"},
    {"logb", "_ld_logb"},
    // Transcendentals composed from the block IR's math ops (PreludeTranscendental.cpp).
    {"expm1", "_ld_expm1"},
    {"log1p", "_ld_log1p"},
    {"tanh", "_ld_tanh"},
    {"fast_tanhf", "_ld_tanh"},
    {"sinh", "_ld_sinh"},
    {"cosh", "_ld_cosh"},
    {"asinh", "_ld_asinh"},
    {"acosh", "_ld_acosh"},
    {"atanh", "_ld_atanh"},
    {"exp10", "_ld_exp10"},
    {"fast_exp10f", "_ld_exp10"},
    {"log10", "_ld_log10"},
    {"fast_log10f", "_ld_log10"},
    {"pow", "_ld_pow"},
    {"powf", "_ld_pow"},
    {"fast_powf", "_ld_pow"},
    {"atan", "_ld_atan"},
    {"atan2", "_ld_atan2"},
    {"asin", "_ld_asin"},
    {"acos", "_ld_acos"},
    {"tan", "_ld_tan"},
    {"fast_tanf", "_ld_tan"},
    {"sinpi", "_ld_sinpi"},
    {"cospi", "_ld_cospi"},
    {"cbrt", "_ld_cbrt"},
    {"rcbrt", "_ld_rcbrt"},
    {"hypot", "_ld_hypot"},
    {"rhypot", "_ld_rhypot"},
    {"ldexp", "_ld_ldexp"},
    {"scalbn", "_ld_ldexp"},
    {"float_as_int", "_ld_float_as_int"},
    {"float_as_uint", "_ld_float_as_uint"},
    {"int_as_float", "_ld_int_as_float"},
    {"uint_as_float", "_ld_uint_as_float"},
    {"double_as_longlong", "_ld_double_as_longlong"},
    {"longlong_as_double", "_ld_longlong_as_double"},
};

} // namespace

const char *libdevicePreludeSource() {
  return R"PRELUDE(

@triton.jit
def _ld_float(x):
    x = tl.to_tensor(x)
    tl.static_assert(x.dtype.is_floating(), "this libdevice function takes floating-point values")
    return x


@triton.jit
def _ld_int(x):
    x = tl.to_tensor(x)
    tl.static_assert(x.dtype.is_int() and not x.dtype.is_bool(), "this libdevice function takes integers")
    return x


@triton.jit
def _ld_fmax(x, y):
    return tl.maximum(_ld_float(x), y)


@triton.jit
def _ld_fmin(x, y):
    return tl.minimum(_ld_float(x), y)


@triton.jit
def _ld_imax(x, y):
    return tl.maximum(_ld_int(x), y)


@triton.jit
def _ld_imin(x, y):
    return tl.minimum(_ld_int(x), y)


@triton.jit
def _ld_add(x, y):
    return _ld_float(x) + y


@triton.jit
def _ld_sub(x, y):
    return _ld_float(x) - y


@triton.jit
def _ld_mul(x, y):
    return _ld_float(x) * y


@triton.jit
def _ld_rcp(x):
    return tl.div_rn(1.0, _ld_float(x))


@triton.jit
def _ld_fdiv(x, y):
    return _ld_float(x) / y


@triton.jit
def _ld_copysign(x, y):
    # The magnitude's bits with the sign's sign bit.
    x = _ld_float(x)
    y = tl.to_tensor(y).to(x.dtype)
    if x.dtype.primitive_bitwidth == 64:
        xb = x.to(tl.uint64, bitcast=True)
        yb = y.to(tl.uint64, bitcast=True)
        return ((xb & 0x7FFFFFFFFFFFFFFF) | (yb & 0x8000000000000000)).to(tl.float64, bitcast=True)
    elif x.dtype.primitive_bitwidth == 32:
        xb = x.to(tl.uint32, bitcast=True)
        yb = y.to(tl.uint32, bitcast=True)
        return ((xb & 0x7FFFFFFF) | (yb & 0x80000000)).to(tl.float32, bitcast=True)
    else:
        xb = x.to(tl.uint16, bitcast=True)
        yb = y.to(tl.uint16, bitcast=True)
        return ((xb & 0x7FFF) | (yb & 0x8000)).to(x.dtype, bitcast=True)


@triton.jit
def _ld_signbit(x):
    x = _ld_float(x)
    if x.dtype.primitive_bitwidth == 64:
        return (x.to(tl.uint64, bitcast=True) >> 63).to(tl.int32)
    elif x.dtype.primitive_bitwidth == 32:
        return (x.to(tl.uint32, bitcast=True) >> 31).to(tl.int32)
    else:
        return (x.to(tl.uint16, bitcast=True) >> 15).to(tl.int32)


@triton.jit
def _ld_isnan(x):
    x = _ld_float(x)
    return (x != x).to(tl.int32)


@triton.jit
def _ld_isinf(x):
    x = _ld_float(x)
    return (tl.abs(x) == float("inf")).to(tl.int32)


@triton.jit
def _ld_isfinite(x):
    x = _ld_float(x)
    return (tl.abs(x) < float("inf")).to(tl.int32)


@triton.jit
def _ld_trunc(x):
    x = _ld_float(x)
    return _ld_copysign(tl.where(x < 0, tl.ceil(x), tl.floor(x)), x)


@triton.jit
def _ld_round(x):
    # Halfway cases away from zero; x - trunc(x) is exact.
    x = _ld_float(x)
    t = _ld_trunc(x)
    away = tl.abs(x - t) >= 0.5
    return _ld_copysign(tl.where(away, tl.where(x < 0, t - 1, t + 1), t), x)


@triton.jit
def _ld_rint(x):
    # Halfway cases to even; x - floor(x) and floor(x) * 0.5 are exact.
    x = _ld_float(x)
    f = tl.floor(x)
    d = x - f
    half = f * 0.5
    odd = tl.floor(half) != half
    up = (d > 0.5) | ((d == 0.5) & odd)
    return _ld_copysign(tl.where(up, f + 1, f), x)


@triton.jit
def _ld_llrint(x):
    return _ld_rint(x).to(tl.int64)


@triton.jit
def _ld_llround(x):
    return _ld_round(x).to(tl.int64)


@triton.jit
def _ld_fdim(x, y):
    # x - y when x > y, NaN when either is NaN, else +0.
    x = _ld_float(x)
    y = tl.to_tensor(y).to(x.dtype)
    r = tl.where(x > y, x - y, 0.0)
    return tl.where((x != x) | (y != y), x + y, r)


@triton.jit
def _ld_saturate(x):
    x = _ld_float(x)
    return tl.minimum(tl.maximum(x, 0.0), 1.0)


@triton.jit
def _ld_mulhi(x, y):
    # The high half of the signed product: 32-bit through a 64-bit product, 64-bit
    # from the unsigned high half, corrected for negative operands.
    x = _ld_int(x)
    y = tl.to_tensor(y).to(x.dtype)
    if x.dtype.primitive_bitwidth == 64:
        xu = x.to(tl.uint64, bitcast=True)
        yu = y.to(tl.uint64, bitcast=True)
        hi = tl.umulhi(xu, yu)
        hi = hi - tl.where(x < 0, yu, yu * 0) - tl.where(y < 0, xu, xu * 0)
        return hi.to(tl.int64, bitcast=True)
    else:
        return ((x.to(tl.int64) * y.to(tl.int64)) >> 32).to(tl.int32)


@triton.jit
def _ld_bits(x):
    # x as an unsigned integer of its width (32 or 64).
    x = _ld_int(x)
    if x.dtype.primitive_bitwidth == 64:
        return x.to(tl.uint64, bitcast=True)
    else:
        return x.to(tl.int32).to(tl.uint32, bitcast=True)


@triton.jit
def _ld_popc(x):
    u = _ld_bits(x)
    n = (u & 1).to(tl.int32)
    for i in tl.static_range(1, u.dtype.primitive_bitwidth):
        n += ((u >> i) & 1).to(tl.int32)
    return n


@triton.jit
def _ld_clz(x):
    # Leading zeros: the bits above the highest set one.
    u = _ld_bits(x)
    width: tl.constexpr = u.dtype.primitive_bitwidth
    n = tl.where(u == 0, width, 0)
    seen = u == 0
    for i in tl.static_range(width):
        bit = ((u >> (width - 1 - i)) & 1) != 0
        n = tl.where(seen | bit, n, n + 1)
        seen = seen | bit
    return n.to(tl.int32)


@triton.jit
def _ld_ffs(x):
    # 1 + the index of the lowest set bit, 0 for 0.
    u = _ld_bits(x)
    width: tl.constexpr = u.dtype.primitive_bitwidth
    n = tl.where(u == 0, 0, 0)
    for i in tl.static_range(width):
        bit = ((u >> (width - 1 - i)) & 1) != 0
        n = tl.where(bit, width - i, n)
    return n.to(tl.int32)


@triton.jit
def _ld_nextafter(x, y):
    # C's nextafter: the neighbour of x toward y, one step of its bit pattern.
    x = _ld_float(x)
    if x.dtype.primitive_bitwidth < 32:
        x = x.to(tl.float32)
    y = tl.to_tensor(y).to(x.dtype)
    if x.dtype.primitive_bitwidth == 64:
        b = x.to(tl.uint64, bitcast=True)
        tiny = (b * 0 + 1).to(tl.float64, bitcast=True)
    else:
        b = x.to(tl.uint32, bitcast=True)
        tiny = (b * 0 + 1).to(tl.float32, bitcast=True)
    grow = (y > x) == (x > 0)
    r = tl.where(grow, b + 1, b - 1).to(x.dtype, bitcast=True)
    r = tl.where(x == 0, _ld_copysign(tiny, y), r)
    r = tl.where(x == y, y, r)
    return tl.where((x != x) | (y != y), x + y, r)


@triton.jit
def _ld_ilogb(x):
    # The unbiased exponent (subnormals scaled up exactly first); INT_MIN for 0 and
    # NaN, INT_MAX for infinities, as CUDA's ilogb.
    x = _ld_float(x)
    if x.dtype.primitive_bitwidth < 32:
        x = x.to(tl.float32)
    a = tl.abs(x)
    if x.dtype.primitive_bitwidth == 64:
        small = a < 2.2250738585072014e-308
        s = tl.where(small, a * 18014398509481984.0, a)
        e = (s.to(tl.uint64, bitcast=True) >> 52).to(tl.int32) - tl.where(small, 1023 + 54, 1023)
    else:
        small = a < 1.1754943508222875e-38
        s = tl.where(small, a * 16777216.0, a)
        e = (s.to(tl.uint32, bitcast=True) >> 23).to(tl.int32) - tl.where(small, 127 + 24, 127)
    e = tl.where((a == 0) | (a != a), -2147483648, e)
    return tl.where(a == float("inf"), 2147483647, e)


@triton.jit
def _ld_logb(x):
    x = _ld_float(x)
    if x.dtype.primitive_bitwidth < 32:
        x = x.to(tl.float32)
    r = _ld_ilogb(x).to(x.dtype)
    r = tl.where(x == 0, -float("inf"), r)
    r = tl.where(tl.abs(x) == float("inf"), float("inf"), r)
    return tl.where(x != x, x, r)


@triton.jit
def _ld_brev(x):
    x = _ld_int(x)
    u = _ld_bits(x)
    width: tl.constexpr = u.dtype.primitive_bitwidth
    r = u & 0
    for i in tl.static_range(width):
        r = r | (((u >> i) & 1) << (width - 1 - i))
    if width == 64:
        return r.to(tl.int64, bitcast=True)
    else:
        return r.to(tl.int32, bitcast=True)
)PRELUDE";
}

void addLibdevicePrelude(BuiltinTable &t, const std::vector<LibdevicePrelude> &entries) {
  for (const LibdevicePrelude &e : entries)
    t["libdevice." + e.name] = [impl = e.impl, constants = e.constants](CodeGen &cg, const CallArgs &args) {
      CallArgs call = args;
      for (int c : constants)
        call.positional.push_back(Arg{Object::integer(c), args.span, nullptr});
      return cg.callPrelude(impl, call);
    };
}

// rcp64h: NVIDIA's approximate double reciprocal (libdevice's own is PTX
// rcp.approx.ftz.f64), which only NVIDIA's hardware computes: on cuda targets that
// instruction through tl.inline_asm_elementwise; on any other target, or when the
// target is not known (`trident compile --emit block-ir` without --target), an error
// that names it.
namespace {

Object rcp64h(CodeGen &cg, const CallArgs &args) {
  auto a = args.bind(cg, {"arg0"});
  const std::string &target = cg.target();
  if (target.rfind("cuda:", 0) != 0)
    cg.error(args.span, "libdevice function 'rcp64h' is NVIDIA's hardware approximation (PTX "
                        "rcp.approx.ftz.f64), which only cuda targets compute; the target here is " +
                            (target.empty() ? std::string("not known") : "'" + target + "'"));
  Tensor x = cg.cast(cg.tensorArg(*a[0]), DType::f64(), a[0]->span);
  CallArgs call;
  call.callee = "tl.inline_asm_elementwise";
  call.span = args.span;
  for (Object o : {Object::string("rcp.approx.ftz.f64 $0, $1;"), Object::string("=d,d"),
                   Object::tuple({Object::ofTensor(x)}), Object::ofDType(DType::f64()), Object::boolean(true),
                   Object::integer(1)})
    call.positional.push_back(Arg{o, args.span, nullptr});
  return cg.builtins().at("tl.inline_asm_elementwise")(cg, call);
}

} // namespace

void registerLibdeviceBuiltins(BuiltinTable &t) {
  t["libdevice.rcp64h"] = rcp64h;
  registerRoundingLibdevice(t);
  registerSpecialLibdevice(t);
  registerGammaLibdevice(t);
  registerBesselLibdevice(t);
  registerIntegerLibdevice(t);
  for (const LibdeviceEntry &e : kLibdevice) {
    std::string impl = e.impl;
    if (impl.rfind("tl.", 0) == 0)
      t[std::string("libdevice.") + e.name] = [impl](CodeGen &cg, const CallArgs &args) {
        return cg.builtins().at(impl)(cg, args);
      };
    else
      t[std::string("libdevice.") + e.name] = [impl](CodeGen &cg, const CallArgs &args) {
        return cg.callPrelude(impl, args);
      };
  }
}

} // namespace trident::frontend
