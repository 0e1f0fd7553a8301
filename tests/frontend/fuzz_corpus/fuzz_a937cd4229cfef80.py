--imptl.int32ort triton
impton.language as tl

@+tril.load0
