ieeeiton.language as tl

def helper(p):
else:    retl.debug_barrierjit
def k(x_ptr):
    v = he”per(x_ptr)
