// tl.inline_asm_elementwise: the block IR it makes (one tt.elementwise_inline_asm on
// operands broadcast to one shape, one result per dtype), its misuse errors, and the
// host interpreter's refusal with the kernel's line. The PTX it becomes, and the
// refusals of the other targets, are the tool_inline_asm_* tests (CMakeLists.txt).
#include "FrontendTestUtil.h"

#include "trident/interp/Interpreter.h"

#include <doctest/doctest.h>

using namespace trident;
using namespace trident::test;

namespace {
const std::string kSource = std::string(kHeader) + R"PY(
@triton.jit
def k(x_ptr, y_ptr, o_ptr, s, BLOCK: tl.constexpr):
    offs = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + offs)
    y = tl.load(y_ptr + offs[:, None] * 0 + offs[None, :])
    a, b = tl.inline_asm_elementwise("mov.b32 $0, $2; mov.b32 $1, $3;", "=r,=r,r,r", [x[None, :], y],
                                     dtype=(tl.int32, tl.float32), is_pure=True, pack=2)
    c = tl.inline_asm_elementwise("mul.lo.s32 $0, $1, $2;", "=r,r,r", [x, s], tl.int32, False, 1)
    tl.store(o_ptr + offs, c + tl.sum(a, axis=0) + tl.sum(b, axis=0).to(tl.int32))

@triton.jit
def bad_pack(x_ptr):
    x = tl.load(x_ptr)
    tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x], dtype=tl.int32, is_pure=True, pack=0)

@triton.jit
def bad_dtype(x_ptr):
    x = tl.load(x_ptr)
    tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x], dtype=3, is_pure=True, pack=1)

@triton.jit
def bad_asm(x_ptr):
    x = tl.load(x_ptr)
    tl.inline_asm_elementwise(x, "=r,r", [x], dtype=tl.int32, is_pure=True, pack=1)

@triton.jit
def unused(x_ptr):
    x = tl.load(x_ptr)
    tl.inline_asm_elementwise("mov.b32 $0, $1;", "=r,r", [x], dtype=tl.int32, is_pure=False, pack=1)
)PY";
} // namespace

TEST_CASE("inline asm: one op, operands broadcast to one shape, a result per dtype") {
  std::string t = ir(kSource, "k", "*i32, *fp32, *i32, i32, 16");
  INFO(t);
  CHECK(count(t, "tt.elementwise_inline_asm") == 2);
  CHECK(t.find("asm_string = \"mov.b32 $0, $2; mov.b32 $1, $3;\"") != std::string::npos);
  CHECK(t.find("constraints = \"=r,=r,r,r\"") != std::string::npos);
  CHECK(t.find("packed_element = 2") != std::string::npos);
  CHECK(t.find("pure = true") != std::string::npos);
  CHECK(t.find("pure = false") != std::string::npos);
  // The [1, 16] operand is broadcast to [16, 16]; the scalar s is splat.
  CHECK(t.find(": block<16x16xi32>, block<16x16xf32>") != std::string::npos);
  CHECK(t.find("tt.splat") != std::string::npos);
}

TEST_CASE("inline asm: misuse errors point at the call's argument") {
  CHECK(firstError(kSource, "bad_pack", "*i32") ==
        "18:98: tl.inline_asm_elementwise's pack must be between 1 and 32, got 0");
  CHECK(firstError(kSource, "bad_dtype", "*i32").find("dtype must be a dtype or a tuple of dtypes") !=
        std::string::npos);
  CHECK(firstError(kSource, "bad_asm", "*i32").find("asm must be") != std::string::npos);
}

TEST_CASE("inline asm: kept when not pure and unused; the interpreter refuses it with its line") {
  Compiled c = compileSource(kSource, "unused", "*i32");
  REQUIRE(c.module);
  CHECK(c.ir.find("tt.elementwise_inline_asm") != std::string::npos);
  Interpreter interp;
  int32_t x = 0;
  interp.addBuffer(&x, 4);
  Diagnostics diags;
  std::vector<KernelArg> args = {KernelArg::pointer(&x, Type::i32())};
  CHECK_FALSE(interp.run(*c.module, "unused", args, {1, 1, 1}, diags));
  INFO(diags.str());
  CHECK(diags.str().find("k.py:33:5: error: tl.inline_asm_elementwise is not supported on the host") != std::string::npos);
  CHECK(diags.str().find("not supported on the host interpreter") != std::string::npos);
}
