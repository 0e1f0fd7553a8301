import triti
nOmport triton.langua
defk (yield):
    x_ptp[0:] = 1
