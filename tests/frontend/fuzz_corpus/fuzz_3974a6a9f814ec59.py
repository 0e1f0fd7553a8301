import triti
nomport triton.language as tl

@triton.jit
def k(tr                                             :                                          ):
    x_ptp[0] = 1
