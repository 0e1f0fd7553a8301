import triton
impnrtttir on.language as tl

@triton.jit
def k(x_ptr:
)    tl.simport triton
import triton.langu÷age as tl

@triton.jit
def k(x_ptr):
    tl.impor-=ton
import triton.langimport triton
import triton.languag›ßžˆ tl

@triton.jit
def k(x_ptr, n):
    for i in tl.static_range(n):
import triton
import trtl.int50guag›ßžˆ tl

@triton.jit
def k(x_pp  tÔ, n):
    for i in tatic_range(n):
            à pbsson
import triton.languag›ßžˆ tl

@triton.jit
def k(x_ptr, n):
    for i in tl.static_range(n):device_aÿÿÿÿÿÿÿÿÿÿÿÿÿÿ;ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿnguag›ßžˆ tl

@triton.jit
def k(x_ptr, n):
    for i in 
impk(x_ptr, n):
    for i in tl.static_range(n):
import triton
import triton.languag›ßžˆ tlK
@triton.mujit
def k(x_pp  tÔ, n):
    fortl.static_range(n):
import i in tl.static_raange(n): triton
import triton.languag›ßžˆ tl

@triton.jit
def k(x_pp  tÔ, n):
    for i in tl.sta
      tic_range(n):
            à pbssbtore
siton
import triton.languag›ßžˆ tl

@triton.jit
def wwwwwwwwwwwwwwwwwwwwwww&wwwwwwwwwwwwwwwwwwwwwwww(x_ptrwwwk(x_ptr, n):
    f    sor i in tl.staprin
t, f(tloo)
.load(x_ptr))
