i----------------&------------------------guage-------------------guage as tl

@tritoss

@triton.jit
def k(x_ptr, n):assert--------------------------------------­-------t triton.languawe as .%
ÿÿÿÿ
@tritoss
