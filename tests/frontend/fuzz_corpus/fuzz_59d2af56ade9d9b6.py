import tguage as tl

@tritoss
