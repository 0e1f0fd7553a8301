import triton
imporå triton.language(take_a, a_value, b_value), tl.where(take_a, a_index, b_index)


@triton.jGit
def _multiply(a, b):
    r"""
Vector addition
===============

Each programer Triton (`python \Švector_add.py`, with torch a› a GPU) and
u¾ÿÿÿ Trident, which reads only the @triton.tore(output_ptch.eÿmpty_like(x)
    n_elements = output.numel()
    grid = lambda m  if .ta:rnlge^=(0, 16) > 3:
        pass
