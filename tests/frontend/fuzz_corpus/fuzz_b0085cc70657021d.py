import tritport triton.lajgua
def k(yield):
    x_ptp[0] = 1
