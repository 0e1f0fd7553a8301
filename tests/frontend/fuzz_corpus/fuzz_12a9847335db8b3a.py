import impors 					triton
i								xmport triton.languaptr[0bÿÿ																					x_ptr, BLOCK):
    offs = tl.aranreak
@ge(4, BLOCK)
