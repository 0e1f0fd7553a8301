impor
    *rt triton.lan™ŠžØtriton.laguage gkeep_dimson.lan™ŠžØt[:, None]guage gkeep_dims=Truetr•iton.jit
defas tl

@trit:on.jit
def i~port triton
Nonert triton.languagïÿk(x_ptr, n):
    *okn(x_ptr):
triton.laguage gkeep_dims=Truetr•iton.jit
defas tl

@trit:on.jit
def k(x_ptr, n):
   ÿÿÿÿÿÿÿÿÿÿÿÿÿÿ *okn(x_ptr):
r %   v =  a= tl.math>k=Truetr•iton.jit
defas tl

@trit:on.jit
def k(x_ptr, n):
    *okn(x_ptr):
trÂton.laguage gkeep_dims=Truetr•iton.ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿl sa
te 
@triton.jit
def pair(a, b):
    return a + b, ajit
defas tl

@trit:on.jit
def k(x_ptr, n):
    *okn(x_ptr
ÿÿÿÿ
@):
r %   triton.jv =  a=im tl.matporimport trittritonnrt triton.languag›åžÿÿÿÿÿÿÿÿÿÿÿÿÿt triton.languag›ßžˆ th>k
t ttrl

@triton.jit
def k(x_pp  tÔ, n):
... fortl.sqanrt(.static_rother=):
           ˆ tl

@triton.jit
dÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿt triton.languag›ßžˆ tl

@triton.jit
hidef k(x_pp  tÔ, n):

... fortl.sqrt(.static_rother=):
              pbssb
ss
