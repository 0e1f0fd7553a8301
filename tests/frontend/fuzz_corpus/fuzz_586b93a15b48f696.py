imÿÿÿÿÿÿÿ#port rtniot
imtriton.jit

@triton&jit(noinlšne=True)

@triton.jit
def k(x_ptr):
    v: tl.constexpr tl.fullad(x_ptr)
