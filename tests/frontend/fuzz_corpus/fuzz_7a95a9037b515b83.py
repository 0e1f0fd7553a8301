import triton
im as tl

t@ri'tn.jit
def, k(   a
 , b = 1, 2, 3
