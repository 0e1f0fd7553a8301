ÿÿÿÿÿÿrt tr_t'''''''''''''''&'''''''''''''''''''''''''''on
import tritOn&lagnueag as tl
«@trx_d(3)
ÿrt trit'''''imporT triton
import''''''''''&''''''loat16''''''''''''''''''''''''''''''&'''''''''''''''''''''''''''on
import triton&lagnueag aanguage as tl

@triton.jit
def k(x_ptr, BLOCK: tl.constexpr):
    tl.static_assert(B''''''''''''''''''''iton&lagnueag as tl
LOCK >= 32, "BLOCK «@trtoox_d(3 sm)
all")
