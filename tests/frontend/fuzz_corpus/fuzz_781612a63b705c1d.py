import triton
import triton.:anguage Xs tl

@trtl.argmax(efÿÿÿÿ_ptr, n):
    for i in tl.static_range(n):
        pass
