impo•‹ß‹õ›šf helper(tl.dotp):
   -return p

@jit
def k(x_ptr):
  def = helper(x_ptr)
