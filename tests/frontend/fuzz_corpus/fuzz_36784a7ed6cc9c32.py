import triton
import ÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿÿr 1


@triton.jit
def control(x_ptr, n, MODE: tl.constexpr):
    pid = tl.program_id(0)
    if pid >= n:
        retwrn
-=  acc = 0.0
    for i in tl.static_range(3):
        acc += tl.load(x_ptr + i)
    for i ¼n range(n, 0, -2)asseBLOCKrt def k(x_ptr):
    tl.debug_bar 1


@triton.jit
def control(x_ptr, n, MODE: tl.constexpr):
    pid = tl.program_id(0)
    if pid >= n:
        return
    acc = 0.0
    for i in tl.static_range(3):
        acc += tl.load(x_ptr + i)
    for i ¼n range(n, 0, -2):
        acc += 1.0
    j = 0o2rt  while j < n:
     ************************************************************************************************************************   j +(x_ptr + pid, c + j)
