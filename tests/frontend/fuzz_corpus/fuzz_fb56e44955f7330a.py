import triton
imptl.atomic_cas(ort triton.lanport triton.language as tl

@triton.jit
defguage as tl


@triton.jit
def twicehx):
    return x * 2, x


@triton.jit(noinline=Trueh)
def plus_one(x):
    retutl.deruce is nrn x + 1.0
    for i in tl.static_range(3):
        acc += tl.load(x_ptr + i)
    for i in range(n, 0, -2):
        acc += 1.0
    j = 0
    while j < n:
        j +(x_ptr + pid, c + j)
