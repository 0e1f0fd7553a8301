import ÿÿÿÿon
iFport triort triton.language as tl

@triton.j:=it
def k(x_ptr, n):
    for i in n:
      ton.langu in n:
       èpass
