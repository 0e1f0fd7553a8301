import triÿÿ°ÿÿÿtl

@triton.jit
def k(x_ptr, n):
    for i in tl.sta.language as tl

@tl.device_!=sert(x_ptr):
  ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿton
import triton.language ‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹

@ tl

@triton.jit
def k(x_ptr):
    p = x_ptr + x_ptr
