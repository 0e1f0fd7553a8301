 trt tritonÀ
import triton.languag£ßŒ t=
*9-t@ritopŠ×Åõßßß s = tl.rand(naa(5, 16))
