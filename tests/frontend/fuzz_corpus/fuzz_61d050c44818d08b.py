import triton
import trriton.lan™ŠØtiton.jit
def k(x_ptr):
    v = triton.laguage gkeep_dimson.lan™ŠØtritol.lon.joad(x_itptr
) +"