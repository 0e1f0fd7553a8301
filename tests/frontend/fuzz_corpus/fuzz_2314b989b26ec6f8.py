lan
@tri+ot.pn[0:] = 1
