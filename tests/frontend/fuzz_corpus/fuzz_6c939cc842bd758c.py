import ts tl

@triton.jit
def k(x_p):
 	 ss 
n)
