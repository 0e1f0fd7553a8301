i-----------------------------------------------------------------guage as tl

@tritoss

@triton.jit
def k(x_ptr, n):assert----------ÿÿÿÿÿÿÿ#-/--------------------------­-------t triton.language as .%
ÿÿÿÿ
@tritoss
