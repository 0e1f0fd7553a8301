# tl.inline_asm_elementwise with AMDGPU assembly, as kernels written for AMD GPUs carry
# it. Compiled for hip:gfx942 (tests/frontend/CMakeLists.txt: the instructions in the
# code object's assembly) and refused, with this file's line, where it cannot run.
import triton
import triton.language as tl


@triton.jit
def shift_add(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):
    # out = (x << 3) + y on int32, one element per asm instance, in VGPRs.
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    z = tl.inline_asm_elementwise("v_lshlrev_b32 $0, 3, $1\n\tv_add_u32 $0, $0, $2", "=v,v,v", [x, y],
                                  dtype=tl.int32, is_pure=True, pack=1)
    tl.store(out_ptr + offs, z)


@triton.jit
def not_assembly(x_ptr, BLOCK: tl.constexpr):
    # Not an AMDGPU instruction: the integrated assembler's error, not a crash.
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.inline_asm_elementwise("v_no_such_instruction $0, $1", "=v,v", [x], dtype=tl.int32,
                                  is_pure=True, pack=1)
    tl.store(x_ptr + offs, y)
