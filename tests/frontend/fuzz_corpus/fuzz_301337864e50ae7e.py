i triton
import triton.larguage as tl

@t.zeros([16, 1:], tl.float32)
    c mporot(a, b)
