impotl

@triton.jit
def k(x_ptr):
    v *=t.allcmp(Fl.tl.advance(_ptr), 0, 1)
