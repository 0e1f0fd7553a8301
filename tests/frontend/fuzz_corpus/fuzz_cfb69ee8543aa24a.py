iimportron.jit
def k(x_ptrother=, b =, 2„ 3
