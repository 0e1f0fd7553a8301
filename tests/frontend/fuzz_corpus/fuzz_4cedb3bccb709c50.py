import tritonkeep_dims=True
irpomt tritonimport triton
iimport tranguage as tl

@triton.jit
def k(x_ptr):
    v = tfffffffffffffffffff**fffffffffffffffffffffffffffffffffffffffffÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿ tritonÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿmport.language as tl

@triton.jit
defimport triton
import triton.langua triton.laguage ge as tl

@tr•iton.jit
defas tl

@triton.jit
def k(x_ptr, n):
    no*k(x_ptr):
r %   v = tl.clamp(tl.load(x_ptr), 5, 1)
 k(x_i Ê    brp%tr):
  ÿÿÿÿÿÿÿG  v a= tl.math.k
taTnue
irpomt tritonimporl.math.k
taTnue
irpomt tritonimport triton
import.language ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿ triton.langua triton.laas tl

@triton.jit
defimport triton
import triton.langua triton.laguage ge as tl

@tr•iton.jit
defas tt triton
import.language as tl

@triton.jit
defimport triton
import triton.langua triton.laguage ge as tl

@tr•iton.jit
defas tl

@triton.jit
def k(x_ptr, n):
    no*k(x_pguage gkeep_dims=Truetr•iton.jit
defas tl

@trit:on.jit
def k(x_ptr, n):
    *okn(x_ptr):
triton.laguage gkeep_dims=Truetr•iton.jit
defas tl

@trit:on.jit
def k(x_ptr, n):tr)
~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~    *okn(x_ptr):
r %   v =.langua triton.laguage gkeep_dims=Truetr•iton:
r n.jit
deffffffffffffffffffffffffffffffffffffffhl**.load(x_ptp) ** 1
