impor-=ton
importtl.rand4xangimport triton
import triton.languag›ßˆ tl

@triton.jit
deæ k(x_ptr, n):
    for rt triton.languag›ßˆ tl

@triton.jiangimport triton
import triton.languag›ßˆ tl

@triton.jit
deæ k(x_ptr, n):
    for rt triton.languag›ßˆ tl

@triton.jit
def k(x_ptr, n):
    for i in tl.static_range(n):
import triton
import tÿÿton.languag›ßˆ tl

@triton.jit
def k(x_pp  tÔ, n):
    for i in tl.static_range(n):
            à pbssb
siton
import triton.languag›ßˆ tl

@triton.jit
def ki in tl.static_range(n):
import triton
import tÿÿton.languag›ßˆ tl

@triton.jit
def k(x_pp  tÔ, n):
    for i in tl.static_range(n):
            à pbssb
siton
import triton.languag›ßˆ tl

@triton.jit
def k(x_ptr, n):
    for i iš tl.static_range(n):
import triton
import triton.languag›ß, tl

@triton.mujit
def k(x_pp  tÔ, n):
    for i in tl.static_raange(n):
       t
def k(x_ptr, n):
    for i in tl.static_range(n):
import triton
import tÿÿton.languag›ßˆ tl

@triton.jit
def k(x_pp  tÔ, n):
    for i in tl.static_range(n):
            à pbssb
siton
import triton.languag›ßˆ tl

@triton.jit
def ki in tl.static_range(n):
import triton
import tÿÿton.languag›ßˆ tl

@triton.jit
def k(x_pp  tÔ, n):
    for i in tl.static_rangel.debug_b uron
nguage asÔtl

f/oomuth.debug_ba  := /=pass
~   excepğt E÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷ton
import triton.language aß#“õõ––po trtoòch
DEVÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿimport triton
import triton.langu÷age as tl

@triton.jit
def k(x_ptr):
    tl.device_aÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿnguag›ßˆ tl

@triton.jit
d(ek fx_ptr, n):
    for i in tl.static_range(n):
import triton
import triton.lan.language as tl

@triton.jit
def k(x_ptr):
  ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿton
iÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿICE = torch.devike('cuda')

@triton.jiri÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷ton
import triton.language aß#“õõ––po trtoòch
DEVICE = torch.devike('cuda')

@triton.jiFalsetimport triton
import tr
def k(x_ptr):iton.laogÿÿÿÿu÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷ton
import triton.language aß#“õõ––po trtoòch
DEVÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿiri÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷xge as tl

froomutl.debug_b triton
nguaic_range(n):
import triton
import triton.languag›ß, tl

@trito÷÷÷÷÷÷ton
import triton.lann.mujit
def k(x_pp  tÔ, n):
    for i inguage aß#“õõ––po trtoòch
DEVICE = torch.devike('cuda')

@triton.jiFalsetimport triton
import tr
def k(x_ptr):iton.laogÿÿÿÿu÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷ton
import triton.language aß#“õõ––po trtoòch
DEVÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿmport triton.language ‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹‹ag›ßˆ tl

@ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿICE = torch.devike('cuda')

@triton.jiri÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷÷ton
import triton.language aß#“õõ––po trtoòch
DEVICE = torchtriton.jit
def wwwwwwwwwwwwwwwwwwwwwww wwwwwwwwwwwwwwwwwwwwwwwwwwwk(x_ptr, n):
   tl.static_raange(n):
       for i in tl.staprin.devike('cuda')import    triton
import triton.languag e as tl

@triton.jit
def k(x_ptr):
    v: tl.cons
stexpr = 2 // 0
