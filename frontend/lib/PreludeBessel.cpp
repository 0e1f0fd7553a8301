// libdevice's Bessel functions, written in the Triton language from the block IR's
// exact operations and its exp, log, sqrt, sin, cos and fma (coefficients fitted for
// Trident: Chebyshev series, 8 to 18 terms for fp64, 6 to 12 for fp32):
//   j0, j1        below 8: the first two zeros as exact factors ((x - z) with z in two
//                 floats) times a Chebyshev series (in x^2 up to 4 or 5, then in x)
//   y0, y1        below 8: (2/pi) (log(x) j(x) - [1/x]) plus a Chebyshev series in x^2
//   all four      from 8: Hankel's form sqrt(2 / (pi x)) (P cos(chi) -+ Q sin(chi)), P and Q
//                 Chebyshev series in 64 / x^2, cos(chi) and sin(chi) from sin x and cos x
//                 of the exact x
//   jn, yn        forward recurrence from j0 / j1 (order below x) and y0 / y1; for an
//                 order at or above x, Miller's backward recurrence normalized by
//                 1 = J0 + 2 (J2 + J4 + ...), rescaled before it overflows; below x = 1
//                 the power series, its first term a product kept in two floats
//   cyl_bessel_i0, cyl_bessel_i1   below 16 the Taylor series (all terms positive, summed
//                 by fused multiply-adds: one rounding a term);
//                 from 16 e^x / sqrt(x) times a Chebyshev series in 16 / x, e^x taken
//                 as two halves so that the results up to the largest float stay finite
// Orders below zero give NaN, as CUDA documents. fp16/bf16 inputs compute in fp32.
// The measured errors are in docs/frontend.md; the fits come from frontend/fit/fit_gamma_bessel.py.

#include "CodeGen.h"

namespace trident::frontend {

const char *besselPreludeSource() {
  return R"PRELUDE(

@triton.jit
def _lb_hankel(a, order: tl.constexpr):
    # P(a) and Q(a) of J and Y of order 0 or 1 for a >= 8, and 1 / sqrt(pi a).
    u = tl.div_rn(64.0, a * a)
    t = 2.0 * u - 1.0
    if a.dtype == tl.float64:
        if order == 0:
            pc: tl.constexpr = (-2.770245804514566e-18, 1.628222427580944e-17, -1.0010979301898995e-16,
             6.748059583911425e-16, -5.069033784305251e-15, 4.326595735158853e-14,
             -4.304578869712651e-13, 5.1682623873433395e-12, -7.864091377236904e-11,
             1.6306464635151378e-09, -5.1705945376060975e-08, 3.0751847875194745e-06,
             -0.0005365220468132117, 0.9994603493475187)
            qc: tl.constexpr = (2.3818636492012773e-17, -1.3325482869780365e-16, 7.729155718051024e-16,
             -4.8799306991635095e-15, 3.404179690313828e-14, -2.669062539207795e-13,
             2.4049161000333926e-12, -2.5653979367902927e-11, 3.376097523734786e-10,
             -5.8175327494930495e-09, 1.4377965798375193e-07, -5.9315987288485175e-06,
             0.0005470815954089319, -0.12444683684269607)
        else:
            pc: tl.constexpr = (2.932793402209464e-18, -1.728740894807491e-17, 1.0667128449013758e-16,
             -7.22116761202437e-16, 5.452674570139295e-15, -4.684223775639493e-14,
             4.699195515008636e-13, -5.704863640389547e-12, 8.816898659582166e-11,
             -1.8718907491063063e-09, 6.177633960644299e-08, -3.987284300488908e-06,
             0.0008989898330859408, 1.0009030408600137)
            qc: tl.constexpr = (-2.5166354179597195e-17, 1.411655845789153e-16, -8.214744457981037e-16,
             5.2066123424706e-15, -3.6490015589320895e-14, 2.8774212568915995e-13,
             -2.6114525392039262e-12, 2.8121750359675845e-11, -3.7490909505413437e-10,
             6.583354662120437e-09, -1.6767825107266737e-07, 7.3108922063643636e-06,
             -0.0007702178839325664, 0.3742222965562826)
    else:
        if order == 0:
            pc: tl.constexpr = (-7.82104589425181e-11, 1.6306032080137811e-09, -5.170593908587762e-08,
             3.0751848498766776e-06, -0.0005365220713429153, 0.9994603395462036)
            qc: tl.constexpr = (3.35204836110492e-10, -5.8172657801947025e-09, 1.4377962997969007e-07,
             -5.931598934694193e-06, 0.0005470815813168883, -0.12444683909416199)
        else:
            pc: tl.constexpr = (8.769907022809775e-11, -1.8718440131237912e-09, 6.177633338211308e-08,
             -3.9872843444754835e-06, 0.000898989848792553, 1.0009030103683472)
            qc: tl.constexpr = (-3.7229763716339903e-10, 6.583066980425656e-09, -1.6767820909535658e-07,
             7.310892215173226e-06, -0.0007702178554609418, 0.3742223083972931)
    p = _lds_cheb(t, pc)
    q = tl.div_rn(_lds_cheb(t, qc), a)
    return p, q, tl.div_rn(tl.zeros_like(a) + 0.5641895835477563, tl.sqrt(a))


@triton.jit
def _lb_j0_abs(a):
    if a.dtype == tl.float64:
        z1_hi: tl.constexpr = 2.404825557695773
        z1_lo: tl.constexpr = -1.176691651530894e-16
        z2_hi: tl.constexpr = 5.520078110286311
        z2_lo: tl.constexpr = 8.088597146146722e-17
        ca: tl.constexpr = (1.8737502557411706e-18, -2.665136770913273e-16, 3.178166976369185e-14,
             -3.1232348985613776e-12, 2.4766539591769226e-10, -1.5436848462400268e-08,
             7.312252062938806e-07, -2.5168004276804476e-05, 0.0005910714537024154,
             -0.008615586662099379, 0.06642964278336551, -0.09725285321432539)
        cb: tl.constexpr = (-4.853867804257048e-17, 4.507607102845297e-16, 1.5375286617565013e-14,
             -1.34360420580523e-13, -3.8338289066692865e-12, 3.1314995475904013e-11,
             7.249557171678868e-10, -5.508146950252537e-09, -9.916958743387154e-08,
             6.968651368988365e-07, 9.167636947198515e-06, -5.914838214501658e-05,
             -0.0005138773529063617, 0.0030123265667870384, 0.014229241996940315,
             -0.0742671394827574, -0.10975099796853037, 0.2365560492217255)
    else:
        z1_hi: tl.constexpr = 2.404825448989868
        z1_lo: tl.constexpr = 1.087059047222283e-07
        z2_hi: tl.constexpr = 5.520078182220459
        z2_lo: tl.constexpr = -7.193414575112911e-08
        ca: tl.constexpr = (2.4763360806367984e-10, -1.5436848244121393e-08, 7.312252137126052e-07,
             -2.516800486773718e-05, 0.0005910714389756322, -0.008615586906671524,
             0.06642964482307434, -0.09725285321474075)
        cb: tl.constexpr = (-5.539461778170107e-09, -9.916575294255381e-08, 6.968652428440691e-07,
             9.16763656277908e-06, -5.9148380387341604e-05, -0.0005138773703947663,
             0.0030123265460133553, 0.014229241758584976, -0.07426714152097702,
             -0.10975100100040436, 0.2365560531616211)
    # [0, 4): (x^2 - z1^2) times a series in x^2; [4, 8): (x - z2) times one in x.
    s = tl.minimum(a, 4.0)
    lo = ((s - z1_hi) - z1_lo) * (s + z1_hi) * _lds_cheb(s * s * 0.125 - 1.0, ca)
    m = tl.minimum(tl.maximum(a, 4.0), 8.0)
    mid = ((m - z2_hi) - z2_lo) * _lds_cheb((m - 6.0) * 0.5, cb)
    b = tl.maximum(a, 8.0)
    p, q, f = _lb_hankel(b, 0)
    sn = tl.sin(b)
    cs = tl.cos(b)
    big = (p * (cs + sn) - q * (sn - cs)) * f
    r = tl.where(a < 4.0, lo, tl.where(a < 8.0, mid, big))
    # Below 1: the Taylor series in q = x^2 / 4 (so that j0(0) is 1 exactly).
    if a.dtype == tl.float64:
        tc: tl.constexpr = (7.594058428126623e-14, -7.594058428126624e-12, 6.151187326782565e-10,
             -3.936759889140842e-08, 1.9290123456790124e-06, -6.944444444444444e-05, 0.001736111111111111,
             -0.027777777777777776, 0.25, -1.0, 1.0)
    else:
        tc: tl.constexpr = (1.9290123418613803e-06, -6.944444612599909e-05, 0.0017361111240461469,
             -0.02777777798473835, 0.25, -1.0, 1.0)
    r = tl.where(a < 1.0, _lg_poly(0.25 * s * s, tc), r)
    return tl.where(a == float("inf"), 0.0, r)


@triton.jit
def _lb_j1_abs(a):
    if a.dtype == tl.float64:
        z1_hi: tl.constexpr = 3.8317059702075125
        z1_lo: tl.constexpr = -1.5269184090088067e-16
        z2_hi: tl.constexpr = 7.015586669815619
        z2_lo: tl.constexpr = -9.414165653410389e-17
        ca: tl.constexpr = (9.050859574944737e-18, -8.876744063069509e-16, 7.343476315062045e-14,
             -5.042568567278396e-12, 2.8183488843903415e-10, -1.251337564352681e-08,
             4.278886056259686e-07, -1.0816174736957452e-05, 0.0001909490103660189,
             -0.0021632651559238044, 0.013661487082063361, -0.018028415801166292)
        cb: tl.constexpr = (1.6943615808256117e-17, -5.012618307335099e-15, -5.9292843161428614e-15,
             1.974121380568822e-12, 1.3223946697893309e-12, -5.802500363421862e-10,
             -1.0628621147519574e-10, 1.20826699339029e-07, -3.159909748252348e-08,
             -1.6526394760463177e-05, 1.047690614332913e-05, 0.00131660782975213,
             -0.001143378088174608, -0.04895540097248089, 0.03904717258702938,
             0.24809241182819347)
    else:
        z1_hi: tl.constexpr = 3.8317060470581055
        z1_lo: tl.constexpr = -7.685058989181925e-08
        z2_hi: tl.constexpr = 7.015586853027344
        z2_lo: tl.constexpr = -1.832117249023213e-07
        ca: tl.constexpr = (-5.041681048340019e-12, 2.818348887601019e-10, -1.2513375224898482e-08,
             4.278886081010569e-07, -1.0816174835781567e-05, 0.00019094900926575065,
             -0.0021632651332765818, 0.013661487028002739, -0.018028415739536285)
        cb: tl.constexpr = (-1.0760860952307993e-10, 1.2082472267138655e-07, -3.159909311989395e-08,
             -1.6526395484106615e-05, 1.0476906027179211e-05, 0.0013166078133508563,
             -0.0011433780891820788, -0.04895539954304695, 0.03904717415571213,
             0.2480924129486084)
    # [0, 5): x (x^2 - z1^2) times a series in x^2; [5, 8): (x - z2) times one in x.
    s = tl.minimum(a, 5.0)
    lo = s * (((s - z1_hi) - z1_lo) * (s + z1_hi)) * _lds_cheb(s * s * 0.08 - 1.0, ca)
    m = tl.minimum(tl.maximum(a, 5.0), 8.0)
    mid = ((m - z2_hi) - z2_lo) * _lds_cheb(tl.div_rn(2.0 * m - 13.0, tl.zeros_like(m) + 3.0), cb)
    b = tl.maximum(a, 8.0)
    p, q, f = _lb_hankel(b, 1)
    sn = tl.sin(b)
    cs = tl.cos(b)
    big = (p * (sn - cs) + q * (sn + cs)) * f
    r = tl.where(a < 5.0, lo, tl.where(a < 8.0, mid, big))
    # Below 1: x / 2 times the Taylor series in q = x^2 / 4.
    if a.dtype == tl.float64:
        tc: tl.constexpr = (6.903689480115112e-15, -7.594058428126623e-13, 6.834652585313961e-11,
             -4.920949861426052e-09, 2.755731922398589e-07, -1.1574074074074073e-05, 0.00034722222222222224,
             -0.006944444444444444, 0.08333333333333333, -0.5, 1.0)
    else:
        tc: tl.constexpr = (2.755731998149713e-07, -1.1574074051168282e-05, 0.00034722223062999547,
             -0.0069444444961845875, 0.0833333358168602, -0.5, 1.0)
    r = tl.where(a < 1.0, 0.5 * s * _lg_poly(0.25 * s * s, tc), r)
    return tl.where(a == float("inf"), 0.0, r)


@triton.jit
def _lb_y0_pos(v):
    if v.dtype == tl.float64:
        c: tl.constexpr = (1.6430995456502122e-15, -8.7473407016928e-14, 4.026330818248471e-12,
             -1.5837552541811955e-10, 5.248794787330516e-09, -1.44072332740187e-07,
             3.206532537654801e-06, -5.632079141056987e-05, 0.0007531135932577742,
             -0.007287962479552079, 0.04719668959576339, -0.17730201278114358,
             0.26156734625504663, 0.17903431407718265, -0.2744743055297453, -0.03314611320328494)
    else:
        c: tl.constexpr = (5.244768619405704e-09, -1.440722456891308e-07, 3.206532483090996e-06,
             -5.6320790463360026e-05, 0.0007531135925091803, -0.007287962362170219,
             0.04719668999314308, -0.1773020178079605, 0.2615673542022705, 0.1790343075990677,
             -0.27447429299354553, -0.03314611315727234)
    s = tl.minimum(v, 8.0)
    j0 = _lb_j0_abs(s)
    lo = 0.6366197723675814 * tl.log(s) * j0 + _lds_cheb(s * s * 0.03125 - 1.0, c)
    # Below 2: (2/pi) (log(x / 2) + gamma) j0(x) + q S(q), q = x^2 / 4, S the series
    # (2/pi) sum (-1)^(k+1) H_k q^(k-1) / (k!)^2 (H_k the harmonic numbers).
    if v.dtype == tl.float64:
        sc: tl.constexpr = (-2.7236763631220556e-22, 5.22113444867605e-20, -8.610283592323939e-18,
             1.206585191648228e-15, -1.4160178296410823e-13, 1.3676725521624816e-11, -1.0643040175208692e-09,
             6.49826831407223e-08, -3.0087161309810462e-06, 0.0001009454963129151, -0.0023025888757508004,
             0.03242045137057127, -0.238732414637843, 0.6366197723675814)
        g: tl.constexpr = -0.11593151565841245
    else:
        sc: tl.constexpr = (-1.0643039782820551e-09, 6.498268589893996e-08, -3.0087160212133313e-06,
             0.00010094549361383542, -0.0023025888949632645, 0.03242045268416405, -0.23873241245746613,
             0.6366197466850281)
        g: tl.constexpr = -0.11593151837587357
    q = 0.25 * s * s
    lo = tl.where(v < 2.0, 0.6366197723675814 * (tl.log(s) + g) * j0 + q * _lg_poly(q, sc), lo)
    b = tl.maximum(v, 8.0)
    p, q, f = _lb_hankel(b, 0)
    sn = tl.sin(b)
    cs = tl.cos(b)
    big = (p * (sn - cs) + q * (cs + sn)) * f
    r = tl.where(v < 8.0, lo, big)
    r = tl.where(v == float("inf"), 0.0, r)
    r = tl.where(v == 0, -float("inf"), r)
    return tl.where((v < 0) | (v != v), float("nan"), r)


@triton.jit
def _lb_y1_pos(v):
    if v.dtype == tl.float64:
        c: tl.constexpr = (5.345560533895302e-17, -3.051185833523555e-15, 1.5142915120352185e-13,
             -6.46515184141158e-12, 2.344337905911516e-10, -7.11055004989928e-09,
             1.7707804556154404e-07, -3.53808001868935e-06, 5.505982873338744e-05,
             -0.0006414551451326356, 0.005289897544167113, -0.028328123944594365,
             0.08445197259652346, -0.09591204536083074, -0.01608717304766875,
             0.0025380132357417816)
    else:
        c: tl.constexpr = (1.7684361353076383e-07, -3.538073542586062e-06, 5.505982699105516e-05,
             -0.0006414551171474159, 0.005289897322654724, -0.028328124433755875,
             0.08445197343826294, -0.09591204673051834, -0.01608717255294323,
             0.002538013271987438)
    s = tl.minimum(v, 8.0)
    lo = 0.6366197723675814 * (_lb_j1_abs(s) * tl.log(s) - tl.div_rn(1.0, s)) + s * _lds_cheb(s * s * 0.03125 - 1.0, c)
    b = tl.maximum(v, 8.0)
    p, q, f = _lb_hankel(b, 1)
    sn = tl.sin(b)
    cs = tl.cos(b)
    big = (q * (sn - cs) - p * (sn + cs)) * f
    r = tl.where(v < 8.0, lo, big)
    r = tl.where(v == float("inf"), 0.0, r)
    r = tl.where(v == 0, -float("inf"), r)
    return tl.where((v < 0) | (v != v), float("nan"), r)


@triton.jit
def _ld_j0(x):
    v = _ldt_in(x)
    return _ldt_out(tl.where(v != v, v, _lb_j0_abs(tl.abs(v))), x)


@triton.jit
def _ld_j1(x):
    v = _ldt_in(x)
    r = _lb_j1_abs(tl.abs(v))
    return _ldt_out(tl.where(v != v, v, tl.where(_ld_signbit(v) != 0, r * -1.0, r)), x)


@triton.jit
def _ld_y0(x):
    return _ldt_out(_lb_y0_pos(_ldt_in(x)), x)


@triton.jit
def _ld_y1(x):
    return _ldt_out(_lb_y1_pos(_ldt_in(x)), x)


@triton.jit
def _lb_step(tk, x, c, p):
    # The three-term recurrence (2k / x) c - p, 2k / x as a rounded quotient and its
    # exact residual.
    num = tl.zeros_like(x) + tk
    qh = tl.div_rn(num, x)
    ql = tl.div_rn(tl.fma(-qh, x, num), x)
    return tl.fma(qh, c, ql * c - p)


@triton.jit
def _lb_order(n, v):
    tl.static_assert(tl.to_tensor(n).dtype.is_int(), "the order of jn and yn is an integer")
    return tl.to_tensor(n).to(tl.int32) + tl.zeros_like(v).to(tl.int32)


@triton.jit
def _ld_jn(n, x):
    v = _ldt_in(x)
    m = _lb_order(n, v)
    a = tl.abs(v)
    mf = m.to(v.dtype)
    j0 = _lb_j0_abs(a)
    j1 = _lb_j1_abs(a)
    if v.dtype == tl.float64:
        terms: tl.constexpr = 10
        huge: tl.constexpr = 1e200
    else:
        terms: tl.constexpr = 6
        huge: tl.constexpr = 1e20
    # Below 1: (x/2)^m / m! (in two floats) times 1 - q / (1 (m + 1)) (1 - q / (2 (m + 2)) ...).
    series = (a < 1.0) & (m >= 2)
    half = 0.5 * tl.where(series, a, 0.5)
    ph = half * 0.0 + 1.0
    pl = half * 0.0
    for k in range(1, tl.max(tl.where(series, m, 0)) + 1):
        kf = half * 0.0 + k
        fh = tl.div_rn(half, kf)
        fl = tl.div_rn(tl.fma(-fh, kf, half), kf)
        nh = ph * fh
        nl = tl.fma(ph, fh, -nh) + (pl * fh + ph * fl)
        use = k <= m
        ph = tl.where(use, nh, ph)
        pl = tl.where(use, nl, pl)
    q = half * half
    s = half * 0.0 + 1.0
    for j in tl.static_range(terms, 0, -1):
        s = 1.0 - tl.div_rn(q, j * (mf + j)) * s
    ser = ph * s + pl * s
    # Order below x: forward from j0 and j1.
    fwd = (a >= 1.0) & (mf < a) & (m >= 2)
    b = tl.where(fwd, a, 1.0)
    p = j0
    c = j1
    for k in range(1, tl.max(tl.where(fwd, m, 0))):
        nxt = _lb_step(2.0 * k, b, c, p)
        use = k < m
        p = tl.where(use, c, p)
        c = tl.where(use, nxt, c)
    # Order at or above x: Miller's recurrence from an even start well above both.
    bwd = (a >= 1.0) & (mf >= a) & (m >= 2)
    b = tl.where(bwd, a, 1.0)
    top = tl.where(bwd, m + 24 + tl.sqrt(mf * 80.0).to(tl.int32), 0)
    k = tl.max(top)
    k = k + k % 2
    hi = b * 0.0
    cur = b * 0.0 + 1e-30
    total = b * 0.0
    rec = b * 0.0
    while k > 0:
        prev = _lb_step(2.0 * k, b, cur, hi)
        rec = tl.where(m == k - 1, prev, rec)
        total = tl.where(((k - 1) % 2 == 0) & (k > 1), total + 2.0 * prev, total)
        hi = cur
        cur = prev
        over = tl.abs(cur) > huge
        scale = tl.where(over, 1.0 / huge, 1.0)
        hi = hi * scale
        cur = cur * scale
        total = total * scale
        rec = rec * scale
        k -= 1
    back = tl.div_rn(rec, total + cur)
    r = tl.where(m == 0, j0, tl.where(m == 1, j1, tl.where(series, ser, tl.where(fwd, c, back))))
    r = tl.where(a == float("inf"), 0.0, r)
    r = tl.where((_ld_signbit(v) != 0) & (m % 2 == 1), r * -1.0, r)
    return _ldt_out(tl.where((m < 0) | (v != v), float("nan"), r), x)


@triton.jit
def _ld_yn(n, x):
    v = _ldt_in(x)
    m = _lb_order(n, v)
    y0 = _lb_y0_pos(v)
    p = y0
    c = _lb_y1_pos(v)
    b = tl.where(v > 0, v, 1.0)
    for k in range(1, tl.max(m)):
        nxt = _lb_step(2.0 * k, b, c, p)
        nxt = tl.where(tl.abs(c) == float("inf"), c, nxt)
        use = k < m
        p = tl.where(use, c, p)
        c = tl.where(use, nxt, c)
    r = tl.where(m == 0, y0, c)
    r = tl.where(v == float("inf"), 0.0, r)
    return _ldt_out(tl.where(m < 0, float("nan"), r), x)


@triton.jit
def _lb_i_abs(a, order: tl.constexpr):
    # I0 or I1 of a >= 0.
    if a.dtype == tl.float64:
        if order == 0:
            tc: tl.constexpr = (1.4442969889585408e-71, 1.4789601166935458e-68, 1.4212806721424974e-65,
             1.2791526049282477e-62, 1.0757673407446564e-59, 8.434015951438106e-57,
             6.14839762859838e-54, 4.156316796932504e-51, 2.5976979980828152e-48,
             1.4962740468957016e-45, 7.915289708078262e-43, 3.8310002187098785e-40,
             1.6894710964510564e-37, 6.757884385804225e-35, 2.4395962632753253e-32,
             7.904291893012054e-30, 2.2843403570804838e-27, 5.8479113141260385e-25,
             1.3157800456783586e-22, 2.5789288895295828e-20, 4.358389823304995e-18,
             6.276081345559193e-16, 7.594058428126623e-14, 7.594058428126624e-12,
             6.151187326782565e-10, 3.936759889140842e-08, 1.9290123456790124e-06,
             6.944444444444444e-05, 0.001736111111111111, 0.027777777777777776, 0.25, 1.0, 1.0)
            pc: tl.constexpr = (4.249285207736355e-18, 2.4147727856839694e-17, 1.3702729385674417e-16,
             8.994495665120333e-16, 7.293347150527686e-15, 7.389499726478591e-14,
             9.312529095730682e-13, 1.464249137788754e-11, 2.919441951576538e-10,
             7.619315853111818e-09, 2.750704471136147e-07, 1.5207853375453858e-05,
             0.0016168391584577028, 0.4005441794358118)
        else:
            tc: tl.constexpr = (4.376657542298608e-73, 4.6217503646673306e-70, 4.5847763617499917e-67,
             4.263842016427493e-64, 3.7095425542919185e-61, 3.0121485540850376e-58,
             2.2771843068882885e-55, 1.5985833834355786e-52, 1.0390791992331261e-49,
             6.234475195398757e-47, 3.4414303078601135e-44, 1.7413637357772174e-41,
             8.045100459290744e-39, 3.3789421929021126e-36, 1.2839980333028028e-33,
             4.391273273895586e-31, 1.3437296218120491e-28, 3.654944571328774e-26,
             8.771866971189057e-24, 1.842092063949702e-21, 3.352607556388458e-19,
             5.230067787965994e-17, 6.903689480115112e-15, 7.594058428126623e-13,
             6.834652585313961e-11, 4.920949861426052e-09, 2.755731922398589e-07,
             1.1574074074074073e-05, 0.00034722222222222224, 0.006944444444444444,
             0.08333333333333333, 0.5, 1.0)
            pc: tl.constexpr = (-4.497393689266386e-18, -2.5585515439794725e-17, -1.4607308114352127e-16,
             -9.687578139988659e-16, -7.959955217114148e-15, -8.19308470977816e-14,
             -1.0526457077540386e-12, -1.6969908192749626e-11, -3.5020497170946335e-10,
             -9.621297963660169e-09, -3.784473318188288e-07, -2.4921829263368522e-05,
             -0.0047715318891826276, 0.39419530118126667)
    else:
        if order == 0:
            tc: tl.constexpr = (1.401298464324817e-45, 7.917336323435216e-43, 3.830995858632974e-40,
             1.689471121462007e-37, 6.757884306481825e-35, 2.4395962903152082e-32,
             7.904291839561953e-30, 2.2843403070268506e-27, 5.8479111859887375e-25,
             1.3157801051012797e-22, 2.5789289454139907e-20, 4.358389832123526e-18,
             6.276081093560082e-16, 7.5940583032022e-14, 7.594058194781983e-12,
             6.151187337266606e-10, 3.936759895850628e-08, 1.9290123418613803e-06,
             6.944444612599909e-05, 0.0017361111240461469, 0.02777777798473835, 0.25, 1.0, 1.0)
            pc: tl.constexpr = (1.4568596329311845e-11, 2.91936891327893e-10, 7.619314956741619e-09,
             2.750704481968569e-07, 1.5207853721221909e-05, 0.0016168392030522227,
             0.4005441665649414)
        else:
            tc: tl.constexpr = (0.0, 3.5032461608120427e-44, 1.7413936016164502e-41, 8.045101112218496e-39,
             3.378942153240912e-36, 1.2839979895329541e-33, 4.391273087468505e-31,
             1.3437296277718596e-28, 3.654944491242961e-26, 8.771866631071687e-24,
             1.8420920461675957e-21, 3.352607483635346e-19, 5.2300677985482315e-17,
             6.903689520553445e-15, 7.5940583032022e-13, 6.834652288567611e-11,
             4.920949869813285e-09, 2.755731998149713e-07, 1.1574074051168282e-05,
             0.00034722223062999547, 0.0069444444961845875, 0.0833333358168602, 0.5, 1.0)
            pc: tl.constexpr = (-1.6887977127844067e-11, -3.5019701027927397e-10, -9.621296648276711e-09,
             -3.784473392443033e-07, -2.49218301178189e-05, -0.004771532025188208,
             0.3941952884197235)
    # The series in q = x^2 / 4 at the rounded q, plus its derivative times q's rounding
    # error (the series grows like e^x: q's rounding alone would cost x / 4 ulp).
    s = tl.minimum(a, 16.0)
    sq = s * s
    q = 0.25 * sq
    ql = 0.25 * tl.fma(s, s, -sq)
    lo = q * 0.0 + tc[0]
    dlo = q * 0.0
    for k in tl.static_range(1, len(tc)):
        dlo = tl.fma(dlo, q, lo)
        lo = tl.fma(lo, q, tc[k])
    lo = tl.fma(dlo, ql, lo)
    if order == 1:
        lo = 0.5 * s * lo
    b = tl.maximum(a, 16.0)
    e = tl.exp(0.5 * b)
    big = e * tl.div_rn(_lds_cheb(tl.div_rn(32.0, b) - 1.0, pc), tl.sqrt(b)) * e
    r = tl.where(a < 16.0, lo, big)
    return tl.where(a == float("inf"), a, r)


@triton.jit
def _ld_cyl_bessel_i0(x):
    v = _ldt_in(x)
    return _ldt_out(tl.where(v != v, v, _lb_i_abs(tl.abs(v), 0)), x)


@triton.jit
def _ld_cyl_bessel_i1(x):
    v = _ldt_in(x)
    return _ldt_out(tl.where(v != v, v, _ld_copysign(_lb_i_abs(tl.abs(v), 1), v)), x)
)PRELUDE";
}

void registerBesselLibdevice(BuiltinTable &t) {
  std::vector<LibdevicePrelude> entries;
  for (const char *name : {"j0", "j1", "y0", "y1", "jn", "yn", "cyl_bessel_i0", "cyl_bessel_i1"})
    entries.push_back({name, std::string("_ld_") + name, {}});
  addLibdevicePrelude(t, entries);
}

} // namespace trident::frontend
