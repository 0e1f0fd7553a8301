imp
impoFiton.language as dt
.jief k(6_ptr):
    tl.stalic_1rint(f'{x_ptr}')
