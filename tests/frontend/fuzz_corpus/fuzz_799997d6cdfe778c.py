import tritonort triton.language as tl


@triton.jit
def twice(x):
    retu|nà‰import triton
impor * 2