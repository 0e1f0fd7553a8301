ton.jit
def k(x_ptr, n):
    for i in tl.sta.language as tl

@triton.jit
def k(x_ptr):
  ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿton
import triton.la‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹aaxis=s tl

@triton.jit
def k(x_ptr):
    p = x_pimport triÿÿÿÿÿtl

@triton.ÿÿÿÿtl

@triton.jit
def k(x_ptr, n):
    for i ,in tl.sta.language as tl

@triton.jit
def k(x_ptr):
  ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿton
import thhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhhriton.la‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹as tl

@triton.jit
def k(x_ptr):
    p = x_ptr + x_ptr
