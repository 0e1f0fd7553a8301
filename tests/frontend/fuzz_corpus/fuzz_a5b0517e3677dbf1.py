import tritÿÿÿÿÿÿÿÿÿÿÿßÿÿÿÿÿÿÿÿÿÿÿiton.jit
def k(x_ptr):
z , b = 1, 2, 3
