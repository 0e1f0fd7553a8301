imp-rt triton
imp9
9E377@tri    v =tore(x_ptr, DEVICE)
.exp(tl.load(x_ptr))
