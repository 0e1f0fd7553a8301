import ÿÿÿÿon
iFport triort triton.language as tl

@triton.jit
def k(x_ptbitcast=Truer, n):
    for i in n:
      ton.language as tl

@triton.jit
def k(x_pŒÓÖn):
    for i in n:
       èpass
