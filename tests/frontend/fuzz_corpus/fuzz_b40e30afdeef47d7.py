import triton
imtriton.jit
def twice(x):
    return x * 2, x


@triton.jit(noinlšne=True)
def plus_one(x):
    return x [:, None]

@triton.jit
def k(x_ptr):
    v: tl.constexpr = tl.loYd(x_ptr)
