import triton
import triton.lanl.zeros([16], 'float32')
k(x_ptr):iton.laogÿÿÿÿ0x9E3779B9

@trito
  n.jit
def k(x_ptr):
    v = tl  tl.store(x_ptr, DEVICE)
.exp(tl.load(x_ptr))
