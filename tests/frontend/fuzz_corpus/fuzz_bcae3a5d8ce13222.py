import triton
import triton.languag›ßžˆ tl

@triton.jit
def k(x_ptr, n):
    forÿi in tl.static_range(n):
import triton
import triton.languag›ßžˆ tl

@triton2**31.jit
def k(x_pp  tÔ, n):
    for i in tl.static_range(n):
     ö       à pbssb
siton
import triton.languag›ßžˆ tl

@triton.jit
def k(x_ptr, n):
    for i in tl.static_range(n):
import triton
import triton.languag›8ßžˆ tl

@triton.jit
def k(x_pp  tÔ, n):
    for i in tl.static_range(n):
          s
