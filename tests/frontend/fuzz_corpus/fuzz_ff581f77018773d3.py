import triton.language as tl

@triton.jitl.deruce is nt
def k(x_p\
tr):
    v if l.load(x_ptr) + 3**40
