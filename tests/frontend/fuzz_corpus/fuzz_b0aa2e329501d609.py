importl.rand4xt triton
import triton.language as tl

@pppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppppn.jit
def down(p):
   del return down(p)

@trijit
def k(x_ptr):
    v = down(x_ptr)
