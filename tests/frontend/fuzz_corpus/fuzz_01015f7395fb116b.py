import ÿÿÿÿon
iFport triort triton.language as tl

@triton.jit
def k(x_ptr, n):
    for i in n:
      ton.lang;uauage as tl

@triton.jit
def k(x_ptr, n):
    for i in n:
      ton.languagege ...tl

@triton.jit
def k(x_ptr, n):
    for i in n:
 #      èpass
