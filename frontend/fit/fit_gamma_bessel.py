#!/usr/bin/env python3
# How the coefficients of PreludeGamma.cpp and PreludeBessel.cpp were fitted (mpmath, 300
# bits): Chebyshev interpolation at n nodes, printed from the highest coefficient as the
# prelude's tuples want them, with the largest error of the rounded coefficients on a
# grid (stderr). Usage: fit_gamma_bessel.py Q2,G0a,G0b,G1a,G1b,H0,H1,P0,Q0,P1,Q1,PI0,PI1
# Q2 is a monomial (Horner) fit; the others are Chebyshev series for _lds_cheb.
import struct
import sys

import mpmath as mp

mp.mp.prec = 300


def f32(v):
    return struct.unpack('f', struct.pack('f', float(v)))[0]
def chebfit_mono(f, a, b, n):
    """Interpolate f at n Chebyshev nodes of [a,b]; return monomial coeffs in x (low..high)."""
    nodes = [ (a+b)/2 + (b-a)/2*mp.cos(mp.pi*(2*k+1)/(2*n)) for k in range(n)]
    vals = [f(x) for x in nodes]
    # Chebyshev coefficients
    c = []
    for j in range(n):
        s = mp.mpf(0)
        for k in range(n):
            s += vals[k]*mp.cos(mp.pi*j*(2*k+1)/(2*n))
        c.append(2*s/n)
    c[0] /= 2
    # convert sum c_j T_j(t), t=(2x-a-b)/(b-a), into monomials in x
    # T_j(t) polys in t
    T = [[mp.mpf(1)], [mp.mpf(0), mp.mpf(1)]]
    for j in range(2, n):
        p = [mp.mpf(0)] + [2*v for v in T[j-1]]
        for i, v in enumerate(T[j-2]): p[i] -= v
        T.append(p)
    pt = [mp.mpf(0)]*n
    for j in range(n):
        for i, v in enumerate(T[j]): pt[i] += c[j]*v
    # t = alpha x + beta
    alpha = 2/(b-a); beta = -(a+b)/(b-a)
    px = [mp.mpf(0)]*n
    for i in range(n):
        # (alpha x + beta)^i
        for k in range(i+1):
            px[k] += pt[i]*mp.binomial(i,k)*alpha**k*beta**(i-k)
    return px

def horner(c, x):
    r = mp.mpf(0)
    for v in reversed(c): r = r*x + v
    return r

def maxrel(f, c, a, b, m=2000, rnd=float):
    cr = [mp.mpf(rnd(v)) for v in c]
    worst = 0
    for i in range(m+1):
        x = a + (b-a)*mp.mpf(i)/m
        ref = f(x)
        if ref == 0: continue
        e = abs((horner(cr, x)-ref)/ref)
        worst = max(worst, e)
    return worst

def chebcoef(f, a, b, n):
    nodes = [(a+b)/2 + (b-a)/2*mp.cos(mp.pi*(2*k+1)/(2*n)) for k in range(n)]
    vals = [f(x) for x in nodes]
    c = []
    for j in range(n):
        s = mp.mpf(0)
        for k in range(n):
            s += vals[k]*mp.cos(mp.pi*j*(2*k+1)/(2*n))
        c.append(2*s/n)
    c[0] /= 2
    return c

def clenshaw(c, t):
    b1 = mp.mpf(0); b2 = mp.mpf(0)
    for v in reversed(c[1:]):
        b1, b2 = v + 2*t*b1 - b2, b1
    return c[0] + t*b1 - b2

def cheberr(f, c, a, b, m=400, rnd=float, absolute=False):
    cr = [mp.mpf(rnd(v)) for v in c]
    worst = 0
    for i in range(m+1):
        x = a + (b-a)*mp.mpf(i)/m
        if x == a: x += (b-a)/10**9
        ref = f(x)
        t = (2*x - a - b)/(b - a)
        e = abs(clenshaw(cr, t) - ref)
        if not absolute: e /= abs(ref)
        worst = max(worst, e)
    return worst
z1, z2 = mp.besseljzero(0,1), mp.besseljzero(0,2)
j11, j12 = mp.besseljzero(1,1), mp.besseljzero(1,2)
eps = mp.mpf(10)**-45
def nz(v, z):
    return v + eps if abs(v - z) < eps else v
def G0a(w): w = nz(w, z1**2); return mp.besselj(0, mp.sqrt(w))/(w - z1**2)
def G0b(x): x = nz(x, z2); return mp.besselj(0, x)/(x - z2)
def G1a(w):
    if w == 0: return mp.mpf(1)/2/(-j11**2)
    w = nz(w, j11**2); x = mp.sqrt(w); return mp.besselj(1, x)/(x*(w - j11**2))
def G1b(x): x = nz(x, j12); return mp.besselj(1, x)/(x - j12)
def H0(w):
    if w == 0: w = mp.mpf(10)**-80
    x = mp.sqrt(w); return mp.bessely(0,x) - 2/mp.pi*mp.log(x)*mp.besselj(0,x)
def H1(w):
    if w == 0: w = mp.mpf(10)**-80
    x = mp.sqrt(w); return (mp.bessely(1,x) - 2/mp.pi*(mp.besselj(1,x)*mp.log(x) - 1/x))/x
def PQ(nu, x):
    chi = x - (2*nu+1)*mp.pi/4
    s = mp.sqrt(mp.pi*x/2)
    J = mp.besselj(nu, x); Y = mp.bessely(nu, x)
    return s*(J*mp.cos(chi) + Y*mp.sin(chi)), s*(-J*mp.sin(chi) + Y*mp.cos(chi))
def P0(u): return PQ(0, 8/mp.sqrt(u))[0] if u > 0 else mp.mpf(1)
def Q0(u): return PQ(0, 8/mp.sqrt(u))[1]*8/mp.sqrt(u) if u > 0 else mp.mpf(-1)/8
def P1(u): return PQ(1, 8/mp.sqrt(u))[0] if u > 0 else mp.mpf(1)
def Q1(u): return PQ(1, 8/mp.sqrt(u))[1]*8/mp.sqrt(u) if u > 0 else mp.mpf(3)/8
def PI0(u):
    if u == 0: return 1/mp.sqrt(2*mp.pi)
    x = 8/u; return mp.sqrt(x)*mp.exp(-x)*mp.besseli(0, x)
def PI1(u):
    if u == 0: return 1/mp.sqrt(2*mp.pi)
    x = 8/u; return mp.sqrt(x)*mp.exp(-x)*mp.besseli(1, x)
XI = 16  # cyl_bessel_i: the Taylor series below, the fit in XI / x above


def G1a(w):
    if w == 0:
        return mp.mpf(1) / 2 / (-j11**2)
    w = nz(w, j11**2)
    x = mp.sqrt(w)
    return mp.besselj(1, x) / (x * (w - j11**2))


def PI0(u):
    if u == 0:
        return 1 / mp.sqrt(2 * mp.pi)
    x = XI / u
    return mp.sqrt(x) * mp.exp(-x) * mp.besseli(0, x)


def PI1(u):
    if u == 0:
        return 1 / mp.sqrt(2 * mp.pi)
    x = XI / u
    return mp.sqrt(x) * mp.exp(-x) * mp.besseli(1, x)


def Q2(z):
    if abs(z) < mp.mpf(10)**-60 or abs(z - 1) < mp.mpf(10)**-60:
        z += mp.mpf(10)**-50
    return (mp.rgamma(1 + z) - 1) / (z * (z - 1))


# name: (function, interval, absolute error?)
FUN = dict(G0a=(G0a, 0, 16, 0), G0b=(G0b, 4, 8, 0), G1a=(G1a, 0, 25, 0), G1b=(G1b, 5, 8, 0), H0=(H0, 0, 64, 1),
           H1=(H1, 0, 64, 1), P0=(P0, 0, 1, 0), Q0=(Q0, 0, 1, 0), P1=(P1, 0, 1, 0), Q1=(Q1, 0, 1, 0),
           PI0=(PI0, 0, 1, 0), PI1=(PI1, 0, 1, 0))
# name: (terms for fp64, terms for fp32)
PLAN = dict(G0a=(12, 8), G0b=(18, 11), G1a=(12, 9), G1b=(16, 10), H0=(16, 12), H1=(16, 10), P0=(14, 6), Q0=(14, 6),
            P1=(14, 6), Q1=(14, 6), PI0=(14, 7), PI1=(14, 7))


def fmt(vals):
    return "(" + ", ".join(repr(v) for v in vals) + ")"


for name in sys.argv[1].split(','):
    if name == 'Q2':
        for n, rnd, tag in ((18, float, 'f64'), (11, f32, 'f32')):
            c = chebfit_mono(Q2, mp.mpf(-0.5), mp.mpf(1), n)
            print(name, tag, n, mp.nstr(maxrel(Q2, c, -0.5, 1, 400, rnd), 3), file=sys.stderr)
            print(name, tag, fmt([float(rnd(v)) for v in reversed(c)]))
        continue
    f, a, b, ab = FUN[name]
    for n, rnd, tag in ((PLAN[name][0], float, 'f64'), (PLAN[name][1], f32, 'f32')):
        c = chebcoef(f, mp.mpf(a), mp.mpf(b), n)
        print(name, tag, n, mp.nstr(cheberr(f, c, mp.mpf(a), mp.mpf(b), 300, rnd, ab), 3), file=sys.stderr)
        print(name, tag, fmt([float(rnd(v)) for v in reversed(c)]), flush=True)
