// Decorators written as calls (`k = triton.jit(f)`, `triton.autotune(...)(f)`),
// @triton.jit() with options, @triton.constexpr_function helpers, a kernel whose
// decorator cannot be read next to kernels that can, and range()'s tl.range keywords.
#include "FrontendTestUtil.h"

#include "trident/interp/Interpreter.h"

#include <doctest/doctest.h>

using namespace trident;
using namespace trident::test;

namespace {

std::vector<KernelInfo> kernelsOf(const std::string &src) {
  Diagnostics diags;
  auto list = listKernels(src, "d.py", diags);
  INFO(diags.str());
  REQUIRE(list);
  return *list;
}

const KernelInfo &named(const std::vector<KernelInfo> &list, const std::string &name) {
  for (const KernelInfo &k : list)
    if (k.name == name)
      return k;
  FAIL("no kernel named " << name);
  return list.front();
}

std::vector<float> runOut(const Module &m, const std::string &kernel, int n) {
  std::vector<float> out(static_cast<size_t>(n), -1.0f);
  Interpreter interp;
  interp.addBuffer(out.data(), out.size() * sizeof(float));
  Diagnostics diags;
  std::vector<KernelArg> args = {KernelArg::pointer(out.data(), Type::f32())};
  bool ok = interp.run(m, kernel, args, {1, 1, 1}, diags);
  INFO(diags.str());
  REQUIRE(ok);
  return out;
}

const std::string kCalls = std::string(kHeader) + R"PY(
def fill(out_ptr, BLOCK: tl.constexpr):
    i = tl.arange(0, BLOCK)
    tl.store(out_ptr + i, i.to(tl.float32) * 2)

fill_kernel = triton.jit(fill)

def scaled(x_ptr, n, BLOCK: tl.constexpr):
    i = tl.arange(0, BLOCK)
    tl.store(x_ptr + i, tl.load(x_ptr + i) * n, mask=i < n)

scaled_kernel = triton.jit(scaled, do_not_specialize=["n"])
tuned = triton.autotune(configs=[triton.Config({'BLOCK': 32}, num_warps=2),
                                 triton.Config({'BLOCK': 64}, num_warps=4, num_stages=2)],
                        key=['n'])(triton.jit(scaled))

@triton.jit
def base(x_ptr, n, EVEN: tl.constexpr):
    tl.store(x_ptr, n)

with_heuristics = triton.heuristics({'EVEN': lambda args: args['n'] % 2 == 0})(base)
late = triton.jit(do_not_specialize=[1])(scaled)

@triton.jit()
def empty_options(out_ptr):
    tl.store(out_ptr, 1.0)

@triton.jit(debug=False, repr=None)
def other_options(out_ptr):
    tl.store(out_ptr, 2.0)

not_a_kernel = print(fill)
)PY";

} // namespace

TEST_CASE("decorators as calls: triton.jit(fn), with options, autotune(...)(fn), heuristics(...)(fn)") {
  std::vector<KernelInfo> list = kernelsOf(kCalls);
  std::vector<std::string> names;
  for (const KernelInfo &k : list)
    names.push_back(k.name);
  CHECK(names == std::vector<std::string>{"fill_kernel", "scaled_kernel", "tuned", "base", "with_heuristics",
                                          "late", "empty_options", "other_options"});
  CHECK(named(list, "scaled_kernel").doNotSpecialize == std::vector<std::string>{"n"});
  CHECK(named(list, "late").doNotSpecialize == std::vector<std::string>{"n"});
  const KernelInfo &tuned = named(list, "tuned");
  REQUIRE(tuned.autotuneConfigs.size() == 2);
  CHECK(tuned.autotuneConfigs[0].kwargs == std::vector<std::pair<std::string, std::string>>{{"BLOCK", "32"}});
  CHECK(tuned.autotuneConfigs[0].numWarps == 2);
  CHECK(tuned.autotuneConfigs[1].numStages == 2);
  CHECK(tuned.autotuneKeys == std::vector<std::string>{"n"});
  const KernelInfo &h = named(list, "with_heuristics");
  REQUIRE(h.heuristics.size() == 1);
  CHECK(h.heuristics[0].first == "EVEN");
  CHECK(h.heuristics[0].second == "lambda args: args['n'] % 2 == 0");
  for (const KernelInfo &k : list)
    CHECK(k.error.empty());

  // The kernel compiles under the name it is launched through, and runs.
  Compiled c = compileSource(kCalls, "fill_kernel", "*fp32, 8");
  INFO(c.diags.str());
  REQUIRE(c.module);
  CHECK(c.ir.find("sym_name = \"fill_kernel\"") != std::string::npos);
  std::vector<float> out = runOut(*c.module, "fill_kernel", 8);
  for (int i = 0; i < 8; ++i)
    CHECK(out[i] == 2.0f * i);
  // do_not_specialize given as a call keyword: n is not specialized on its :16.
  CHECK(ir(kCalls, "scaled_kernel", "*fp32:16, i32:16, 32").find("arg_divisibility = [16, 1]") !=
        std::string::npos);
  CHECK(ir(kCalls, "tuned", "*fp32:16, i32:16, 32").find("arg_divisibility = [16, 16]") != std::string::npos);
  CHECK(firstError(kCalls, "empty_options", "*fp32") == "no error");
  CHECK(firstError(kCalls, "other_options", "*fp32") == "no error");
  // A plain def is still not a kernel.
  CHECK(firstError(kCalls, "fill", "*fp32, 8") == "1:1: no @triton.jit function named 'fill' in k.py");
}

TEST_CASE("@triton.constexpr_function helpers run as Python at compile time") {
  std::string src = std::string(kHeader) + R"PY(
import math

@triton.constexpr_function
def next_pow2(n):
    b = 1
    while b < n:
        b *= 2
    return b

@triton.constexpr_function
def triangle(n):
    total = 0
    for i in range(n + 1):
        total += i
    return total

def log2_int(n):
    return int(math.log2(n))

log2_of = triton.constexpr_function(log2_int)

@triton.jit
def k(out_ptr, N: tl.constexpr):
    i = tl.arange(0, next_pow2(N))
    tl.store(out_ptr + i, (i * 0 + triangle(log2_of(next_pow2(N)))).to(tl.float32))

@triton.jit
def bad(out_ptr, n):
    tl.store(out_ptr, next_pow2(n))
)PY";
  Compiled c = compileSource(src, "k", "*fp32, 5");
  INFO(c.diags.str());
  REQUIRE(c.module);
  std::vector<float> out = runOut(*c.module, "k", 8);
  for (int i = 0; i < 8; ++i)
    CHECK(out[i] == 6.0f); // next_pow2(5) = 8 elements, triangle(log2(8)) = 6
  CHECK(firstError(src, "bad", "*fp32, i32") ==
        "33:33: @triton.constexpr_function 'next_pow2' takes compile-time values, got int32");
  CHECK(firstError(src, "next_pow2", "4") ==
        "8:1: 'next_pow2' is a @triton.constexpr_function, not a kernel");
  std::vector<std::string> names;
  for (const KernelInfo &info : kernelsOf(src))
    names.push_back(info.name);
  CHECK(names == std::vector<std::string>{"k", "bad"});
}

TEST_CASE("a kernel whose decorator cannot be read does not stop the file's other kernels") {
  std::string src = std::string(kHeader) + R"PY(
def make():
    return {}

@triton.heuristics(values=make())
@triton.jit
def broken(x_ptr, EVEN: tl.constexpr):
    pass

@triton.jit
def fine(x_ptr):
    tl.store(x_ptr, 1.0)
)PY";
  std::vector<KernelInfo> list = kernelsOf(src);
  REQUIRE(list.size() == 2);
  CHECK(list[0].name == "broken");
  CHECK(list[0].error.find("d.py:8:2: error: @triton.heuristics needs a dict literal") == 0);
  CHECK(list[0].params == std::vector<std::string>{"x_ptr", "EVEN"});
  CHECK(list[1].name == "fine");
  CHECK(list[1].error.empty());
}

TEST_CASE("range() inside a kernel takes tl.range's keywords") {
  std::string src = std::string(kHeader) +
                    "@triton.jit\ndef k(x_ptr, n):\n"
                    "    acc = 0.0\n"
                    "    for i in range(0, n, 1, num_stages=2, loop_unroll_factor=4, flatten=True):\n"
                    "        acc += tl.load(x_ptr + i)\n"
                    "    tl.store(x_ptr, acc)\n";
  std::string text = ir(src, "k", "*fp32, i32");
  CHECK(text.find("num_stages = 2") != std::string::npos);
  CHECK(text.find("loop_unroll_factor = 4") != std::string::npos);
  CHECK(text.find("flatten = true") != std::string::npos);
}
