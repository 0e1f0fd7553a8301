# A kernel taking host tensor descriptors (Triton's TensorDescriptor arguments,
# signature "tensordesc<fp32[4, 8]>"), as Triton's tutorials write them: each
# program moves one box, shifted so that some boxes reach outside the tensor.
import triton
import triton.language as tl


@triton.jit
def shifted_tiles(in_desc, out_desc, BLOCK_M: tl.constexpr, BLOCK_N: tl.constexpr):
    pid_m = tl.program_id(axis=0)
    pid_n = tl.program_id(axis=1)
    # Rows above the tensor and columns past it read zero.
    tile = in_desc.load([pid_m * BLOCK_M - 1, pid_n * BLOCK_N + 2])
    # Stores outside the tensor are dropped.
    out_desc.store([pid_m * BLOCK_M, pid_n * BLOCK_N], tile * 2 + 1)
