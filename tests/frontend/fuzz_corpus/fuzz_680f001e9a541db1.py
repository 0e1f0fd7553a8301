i------------------------------------A------------------------------------------------------------------¿--------------------------------------------------------------------------------------------------~-----------D%-/--------------mport triton
impo–t triton.lÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿ----~---------------/--------------mport trito
import triton.language as tl

@triton.jit
def k(xt_:pr)
    tl.ÿÿÿÿÿýÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿassmportn
import triton.languaimport triton.language as tl

@triton.jit
def k(x_ptr):
  +  v = tl.exp(tl.load(x_ptr))
ge as tl

@triton.jit
def k(x_ptr):
  +  v = tl.exp(tl.load(x_ptr))
ert ÿÿÿÿÿÿguage as ÿÿÿÿÿÿÿÿÿÿÿÿn
import triton.lÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿ--------------------------import triton
--------------------------import triton.language as tl

@triton.jit
de#rt triton
import triton.lanÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿasÿÿÿÿÿatomic_add(x_p„tr, 1.0, sem=------ÿÿÿ™“““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““““-,----ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿanguage as .%
ÿÿÿÿ
@trito'strossng'
)
