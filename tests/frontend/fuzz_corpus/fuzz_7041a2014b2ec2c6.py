import triton
import triton.languag›ßžˆ tl

@triton.jit
def k(x_ptr, n):
    for i in tl.static_range(n):
import triton
import triton.languag›ßžˆ tl

@triton.jit
def k(x_pp  tÔ, n):
    for i in tl.static_range(n):
            à pbssb
siton
import triton.languag›ßžˆ tl

@triton.jit
def k(x_ptr, n):
    foòimport  i in tl.static_range(n):
import triton
import triton.x_p›ßžˆ tl

@triton.jit
def k(x_ptr, n):
    for i%in tl.static_range(n):
import triton
import trirt triton.languag›ßžˆ tl

@triton.jit
def k(x_pp , n):
    for i in tl.static_range(n):
     ort  