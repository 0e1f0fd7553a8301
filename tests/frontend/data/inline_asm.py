# tl.inline_asm_elementwise as Triton's users write it: PTX for NVIDIA GPUs. Compiled
# for cuda:sm_90 (tests/frontend/CMakeLists.txt, ptxas where installed) and refused,
# with this file's line, on host, vulkan and the CPU (AMDGPU's assembler rejects it).
import triton
import triton.language as tl


@triton.jit
def shift_add(x_ptr, y_ptr, out_ptr, BLOCK: tl.constexpr):
    # out = (x << 3) + y on int32, one element per asm instance.
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs)
    z = tl.inline_asm_elementwise("shl.b32 $0, $1, 3;\n\tadd.s32 $0, $0, $2;", "=r,r,r", [x, y],
                                  dtype=tl.int32, is_pure=True, pack=1)
    tl.store(out_ptr + offs, z)


@triton.jit
def bytes_to_halves(x_ptr, lo_ptr, hi_ptr, BLOCK: tl.constexpr):
    # Four uint8 per asm instance, packed into one 32-bit register, and two fp16
    # results packed two to a register (Triton's rule): each byte as fp16 (exact), and
    # the byte + 1.
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    lo, hi = tl.inline_asm_elementwise(
        asm="""
        {
        .reg .b32 t<4>;
        .reg .b16 h<8>;
        bfe.u32 t0, $4, 0, 8;
        bfe.u32 t1, $4, 8, 8;
        bfe.u32 t2, $4, 16, 8;
        bfe.u32 t3, $4, 24, 8;
        cvt.rn.f16.u32 h0, t0;
        cvt.rn.f16.u32 h1, t1;
        cvt.rn.f16.u32 h2, t2;
        cvt.rn.f16.u32 h3, t3;
        mov.b32 $0, {h0, h1};
        mov.b32 $1, {h2, h3};
        add.u32 t0, t0, 1;
        add.u32 t1, t1, 1;
        add.u32 t2, t2, 1;
        add.u32 t3, t3, 1;
        cvt.rn.f16.u32 h4, t0;
        cvt.rn.f16.u32 h5, t1;
        cvt.rn.f16.u32 h6, t2;
        cvt.rn.f16.u32 h7, t3;
        mov.b32 $2, {h4, h5};
        mov.b32 $3, {h6, h7};
        }
        """,
        constraints="=r,=r,=r,=r,r",
        args=[x],
        dtype=(tl.float16, tl.float16),
        is_pure=True,
        pack=4,
    )
    tl.store(lo_ptr + offs, lo)
    tl.store(hi_ptr + offs, hi)


@triton.jit
def scalar_broadcast(x_ptr, out_ptr, s, BLOCK: tl.constexpr):
    # A scalar argument broadcast to the block; a side-effecting (not pure) asm.
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    z = tl.inline_asm_elementwise("mul.lo.s32 $0, $1, $2;", "=r,r,r", [x, s], dtype=tl.int32, is_pure=False,
                                  pack=1)
    tl.store(out_ptr + offs, z)
