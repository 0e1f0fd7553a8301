impor-=ton
import triton.langimport triton
import triton.languag›ßžˆ tl

@triton.jit
def k(x_ptr, n):
    for i in tl.static_range(n):
import triton
import trtl.int32guag›ßžˆ tl

@triton.jit
def k(x_pp  tÔ, n):
finally i in tl.static_range(n):
            à pbsson
import triton.languag›ßžˆ tl

@triton.jit
def k(x_ptr, n):
   f or i in tl.static_range(n):
import triton
import trtl.int32gag›ßžˆ tl

@triton.jit
def k(x_pp  tÔ, n):
    for i in tl.static_range(n):
            à pbssb
siton
import triton.languag›ßžˆ tl

@triton.jit
def k(x_ptr, n):
    for i in tl.static_range(n):b
siton
import triton.languag›ßžˆ tl
imporrto tnti
import triton.language as tl

tl.int32jit
d

tl.int32jit
def k(x_ptr, BLriton.languagexpr):
 #  pasef k(x_ptr, BLriton.languagex):
rp #  pass
.static_raange(n):
          s
