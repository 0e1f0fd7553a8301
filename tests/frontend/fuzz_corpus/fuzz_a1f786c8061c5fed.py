import triton
import triton.language as tl

@tÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿßÿÿriton.jit
def k(x_ptr):
    tl.atomic_add(x_ptr, 1.0, sem='strongimport double')
triton
imÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿßÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿport triton.language as tl

@trittl.device_assert(r):
    c = tl
