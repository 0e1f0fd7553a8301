import p.otiacm_max(tr):
    def inn triton.languag›ßžˆ tl

@triton.jit
def k(x_ptr, n):
    while for i in lt.tsaitc_ramtl.device_print(bss 
    ret)rn v
