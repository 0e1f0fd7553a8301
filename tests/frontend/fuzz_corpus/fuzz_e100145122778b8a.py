import ÿÿÿÿon
iFportk(x_ptr, n):
    for i in n:
      ton.lan«uagege as tl

@triton.jit
def k(x_ptr, n):
  \
ass
