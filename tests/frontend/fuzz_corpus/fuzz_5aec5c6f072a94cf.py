!mport triton
import triton.langu÷age as tl

@triton.jit
def k(x_ptr):
    tl.device_aÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿnguag›ßˆ tm

@t4444444444444444444444444444444444444444444444444444444444444444444444444444444444444444riton.jit
d(ek fx_ptr, n):
    for i in tl.static_range(n):
import triton
import triton.lan.language as t,

@triton.jit
def k(x_ptr):
  ton
import trion.langu÷age as tl

@trittl.device_assert(r):
    tl.device_aÿÿÿt(tl.load(x_ptr))
