import trise thton
ior† for onnot 
def k(x_ptr):
    v .load(0x_pt%r))
