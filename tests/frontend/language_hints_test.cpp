// tl.void, tl.slice, tl.condition, tl.async_task, tl.target_info, tl.squeeze and
// tl.unsqueeze (data/language_hints.py): what the kernel computes in the interpreter,
// exactly, for the compile targets tl.target_info tells apart; that the hints leave
// the IR they should; and the diagnostics for their misuse (line:col, snippet, caret).
#include "FrontendTestUtil.h"

#include "trident/interp/Interpreter.h"

#include <doctest/doctest.h>

#include <cmath>

using namespace trident;
using namespace trident::test;

namespace {

std::string hintsSource() {
  std::ifstream in(std::string(TRIDENT_SAMPLES_DIR) + "/../tests/frontend/data/language_hints.py");
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Compiled compileFor(const std::string &source, const std::string &kernel, const std::string &signature,
                    const std::string &target) {
  Compiled c;
  auto sig = parseSignature(signature, c.diags);
  if (!sig)
    return c;
  CompileRequest req;
  req.kernel = kernel;
  req.args = *sig;
  req.target = target;
  req.staticPrint = [](const std::string &) {};
  c.module = compileKernel(source, "language_hints.py", req, c.diags);
  if (c.module)
    c.ir = print(*c.module, PrintOptions{false});
  return c;
}

// The full first diagnostic: "line:col: message" and the snippet with its caret.
std::string fullError(const std::string &body, const std::string &signature = "*fp32, i32") {
  Compiled c = compileSource(std::string(kHeader) + "@triton.jit\ndef k(p, n):\n" + body, "k", signature);
  if (c.module)
    return "no error";
  return c.diags.empty() ? "no diagnostic" : c.diags.str();
}

std::string error(const std::string &body, const std::string &signature = "*fp32, i32") {
  return firstError(std::string(kHeader) + "@triton.jit\ndef k(p, n):\n" + body, "k", signature);
}

} // namespace

TEST_CASE("language hints: void, slice, condition, async_task, target_info, squeeze run as Triton's") {
  const std::string src = hintsSource();
  REQUIRE(!src.empty());
  constexpr int B = 16, n = 11;
  std::vector<float> x(B);
  for (int i = 0; i < B; ++i)
    x[i] = 0.5f * float(i) - 2.0f; // exact in fp16, sums exact in fp32
  float sum = 0;
  for (int i = 0; i < n; ++i)
    sum += x[i];
  // target -> the flags tl.target_info gives: is_cuda 1, cc >= 9.0 2, is_hip 4, cc >= 10.0 8, cdna3 16.
  const std::pair<const char *, int> targets[] = {{"", 0},           {"host", 0},        {"vulkan", 0},
                                                  {"cuda:sm_80", 1}, {"cuda:sm_90", 3},  {"cuda:sm_90a", 3},
                                                  {"cuda:sm_100", 11}, {"hip:gfx942", 20}, {"hip:gfx1100", 4}};
  for (const auto &[target, flags] : targets) {
    CAPTURE(target);
    Compiled c = compileFor(src, "hints", "*fp32, *fp32, i32, 16", target);
    INFO(c.diags.str());
    REQUIRE(c.module);
    // The while loop carries tl.condition's hint; the async tasks leave nothing behind.
    CHECK(count(c.ir, "disable_licm = true") == 1);
    CHECK(count(c.ir, "async") == 0);
    std::vector<float> out(4 * B, -7.0f);
    Interpreter interp;
    interp.addBuffer(x.data(), x.size() * 4);
    interp.addBuffer(out.data(), out.size() * 4);
    Diagnostics diags;
    std::vector<KernelArg> args = {KernelArg::pointer(x.data(), Type::f32()),
                                   KernelArg::pointer(out.data(), Type::f32()), KernelArg::i32(n)};
    bool ok = interp.run(*c.module, "hints", args, {1, 1, 1}, diags);
    INFO(diags.str());
    REQUIRE(ok);
    for (int i = 0; i < B; ++i) {
      CAPTURE(i);
      bool in = i < n;
      CHECK(out[i] == (in ? x[i] * sum : -7.0f));
      CHECK(out[B + i] == (in ? float(n) * x[i] : -7.0f));
      CHECK(out[2 * B + i] == (in ? 2.0f * x[i] + 1.0f : -7.0f));
      CHECK(out[3 * B + i] == (in ? float(flags) : -7.0f));
    }
  }
}

TEST_CASE("language hints: tl.void in dtype positions, tl.slice values, squeeze/unsqueeze shapes") {
  // Compile-time facts, each checked by tl.static_assert inside the kernel.
  CHECK(error("    tl.static_assert(tl.void == tl.void and tl.void != tl.float32 and tl.void.name == 'void')\n"
              "    tl.static_assert(not tl.void.is_floating() and not tl.void.is_int() and not tl.void.is_ptr())\n"
              "    s = tl.slice(1, None, 2)\n"
              "    tl.static_assert(s.start == 1 and s.stop is None and s.step == 2)\n"
              "    tl.static_assert((10, 11, 12, 13, 14)[s] == (11, 13))\n"
              "    tl.static_assert((10, 11, 12)[tl.slice(None, None, -1)] == (12, 11, 10))\n"
              "    tl.static_assert((10, 11, 12, 13)[3:0:-2] == (13, 11) and 'abc'[::-1] == 'cba')\n"
              "    tl.static_assert(tl.to_tensor(3).dtype == tl.int32 and tl.to_tensor(2.5).dtype == tl.float32)\n"
              "    a = tl.zeros((4, 1, 8), tl.float32)\n"
              "    tl.static_assert(tl.squeeze(a, 1).shape == (4, 8) and tl.squeeze(a, -2).shape == (4, 8))\n"
              "    tl.static_assert(tl.unsqueeze(a, 0).shape == (1, 4, 1, 8))\n"
              "    tl.static_assert(tl.unsqueeze(a, -1).shape == (4, 1, 8, 1))\n"
              "    tl.static_assert(tl.target_info.is_cuda() == False)\n") == "no error");
}

TEST_CASE("language hints: several async tasks in one with; target_info through the module's own import") {
  std::string src = std::string(kHeader) + "import triton.language.target_info\n\n"
                    "@triton.jit\ndef k(p):\n"
                    "    with tl.async_task([0]), tl.async_task([1, 3]):\n"
                    "        tl.store(p, 1.0)\n"
                    "    tl.static_assert(triton.language.target_info.is_hip_cdna4())\n"
                    "    tl.static_assert(not tl.target_info.is_hip_cdna3() and tl.target_info.is_hip())\n"
                    "    tl.static_assert(not tl.target_info.cuda_capability_geq(1, 0))\n";
  Compiled gfx950 = compileFor(src, "k", "*fp32", "hip:gfx950");
  INFO(gfx950.diags.str());
  CHECK(gfx950.module);
  CHECK(count(gfx950.ir, "tt.store") == 1);
  Compiled none = compileFor(src, "k", "*fp32", "");
  REQUIRE(!none.module); // no target: is_hip_cdna4() is False
  CHECK(none.diags.str().find("static_assert failed") != std::string::npos);
}

TEST_CASE("a block pointer's dtype: its element_ty casts as Triton's does") {
  std::string src = std::string(kHeader) + "@triton.jit\ndef k(src, dst, N, BLOCK: tl.constexpr):\n"
                    "    bp = tl.make_block_ptr(base=src, shape=(N, ), strides=(1, ), offsets=(0, ), "
                    "block_shape=(BLOCK, ), order=(0, ))\n"
                    "    v = tl.load(bp, boundary_check=(0, ), padding_option='zero').to(bp.dtype.element_ty)\n"
                    "    tl.static_assert(v.dtype == tl.float16 and bp.dtype.is_ptr())\n"
                    "    tl.store(dst + tl.arange(0, BLOCK), v)\n";
  CHECK(firstError(src, "k", "*fp16, *fp16, i32, 16") == "no error");
}

TEST_CASE("language hints: misuse is diagnosed at its line and column") {
  CHECK(error("    c = tl.condition(n > 0)\n") ==
        "6:9: tl.condition(...) can only be the condition of a while loop: `while tl.condition(c):`");
  CHECK(error("    if tl.condition(n > 0):\n        pass\n") ==
        "6:8: tl.condition(...) can only be the condition of a while loop: `while tl.condition(c):`");
  CHECK(error("    i = 0\n    while tl.condition(i < n, disable_licm=n):\n        i += 1\n") ==
        "7:44: tl.condition's disable_licm must be a tl.constexpr bool, got int32");
  CHECK(error("    i = 0\n    while tl.condition(i < n, unroll=2):\n        i += 1\n") ==
        "7:38: tl.condition() got an unexpected keyword argument 'unroll'");
  CHECK(error("    t = tl.async_task([0])\n") ==
        "6:9: tl.async_task(...) can only be used as a context manager: `with tl.async_task([0]):`");
  CHECK(error("    with tl.async_task([]):\n        pass\n") ==
        "6:24: tl.async_task needs a non-empty list of task ids, got tuple");
  CHECK(error("    with tl.async_task([tl.program_id(0)]):\n        pass\n") ==
        "6:24: tl.async_task's task ids must be non-negative compile-time integers, got int32");
  CHECK(error("    with tl.async_task([-1]):\n        pass\n") ==
        "6:24: tl.async_task's task ids must be non-negative compile-time integers, got constexpr[-1]");
  CHECK(error("    with tl.program_id(0):\n        pass\n") ==
        "6:10: 'with' inside a @triton.jit function needs tl.async_task([...]), the language's context manager; "
        "got int32");
  CHECK(error("    with tl.async_task([0]) as t:\n        pass\n") == "6:5: unsupported Python construct 'with'");
  CHECK(error("    x = tl.zeros((4,), tl.void)\n") ==
        "6:24: tl.zeros's dtype cannot be tl.void: no value has that type (it marks the absence of one)");
  CHECK(error("    x = tl.load(p).to(tl.void)\n") ==
        "6:23: the dtype cannot be tl.void: no value has that type (it marks the absence of one)");
  CHECK(error("    w = tl.void.fp_mantissa_width\n") == "6:9: dtype has no attribute 'fp_mantissa_width'");
  CHECK(error("    y = tl.inline_asm_elementwise('mov.b32 $0, $1;', '=r,r', [n], dtype=tl.void, is_pure=True, "
              "pack=1)\n") ==
        "6:73: tl.inline_asm_elementwise cannot return tl.void: as in Triton, the asm must have at least one "
        "result (return a dummy one you do not use)");
  CHECK(error("    x = tl.load(p + tl.arange(0, 8))\n    y = x[tl.slice(1, 4, None)]\n") ==
        "7:9: unsupported tensor index: slice(1, 4, None) (only None and ':' are supported)");
  CHECK(error("    s = tl.slice(1, 2)\n") == "6:9: tl.slice() missing required argument 'step'");
  CHECK(error("    s = tl.slice(n, None, None)\n") ==
        "6:18: tl.slice's bounds must be compile-time values (None or an int), got int32");
  CHECK(error("    t = tl.target_info.current_target()\n").find("6:9: tl.target_info.current_target() returns "
                                                              "Triton's GPUTarget object") == 0);
  CHECK(error("    c = tl.target_info.is_cuda(8)\n") ==
        "6:32: tl.target_info.is_cuda() takes at most 0 positional arguments (1 given)");
  CHECK(error("    c = tl.target_info.is_amd()\n") ==
        "6:9: tl.target_info.is_amd is not supported by Trident (or does not exist in triton.language.target_info)");
  CHECK(error("    x = tl.zeros((4, 2), tl.float32)\n    y = tl.squeeze(x, 1)\n") ==
        "7:23: tl.squeeze: dimension 1 has length 2, not 1");
  CHECK(error("    x = tl.zeros((4, 1), tl.float32)\n    y = tl.squeeze(x, 2)\n") ==
        "7:23: tl.squeeze: dim 2 is out of range for a tensor of rank 2");
  // The snippet, and the caret under the call ('tl' of tl.condition).
  std::string full = fullError("    c = tl.condition(n > 0)\n");
  size_t at = full.find("c = tl.condition(n > 0)\n");
  REQUIRE(at != std::string::npos);
  size_t lineStart = full.rfind('\n', at) + 1, caretLine = full.find('\n', at) + 1;
  size_t caret = full.find('^', caretLine);
  REQUIRE(caret != std::string::npos);
  CHECK(caret - caretLine == at + 4 - lineStart);
  CHECK(full.find('\n', caretLine) > caret);
}
