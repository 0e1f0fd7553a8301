// Inputs built to exhaust the frontend: deep nesting, long chains, runaway
// unrolling and inlining. Each must end in a clear error (or compile), never a
// crash, a hang or unbounded memory.
#include "FrontendTestUtil.h"

#include <doctest/doctest.h>

#include <thread>
#include <vector>

using namespace trident;
using namespace trident::test;

namespace {

std::string kernel(const std::string &body, const std::string &prelude = "") {
  return std::string(kHeader) + prelude + "@triton.jit\ndef k(x_ptr):\n" + body;
}

std::string messageOf(const std::string &err) { return err.substr(err.find(' ') + 1); }

} // namespace

TEST_CASE("long elif chains are bounded") {
  std::string body = "    v = tl.load(x_ptr)\n    if v == 0:\n        pass\n";
  for (int i = 1; i < 300; ++i)
    body += "    elif v == " + std::to_string(i) + ":\n        pass\n";
  CHECK(messageOf(firstError(kernel(body), "k", "*i32")) == "too many elif branches (more than 200)");
  std::string ok = "    v = tl.load(x_ptr)\n    if v == 0:\n        v = v + 1\n";
  for (int i = 1; i < 50; ++i)
    ok += "    elif v == " + std::to_string(i) + ":\n        v = v + " + std::to_string(i) + "\n";
  ok += "    tl.store(x_ptr, v)\n";
  CHECK(firstError(kernel(ok), "k", "*i32") == "no error");
}

TEST_CASE("deep indentation compiles or fails cleanly") {
  std::string body;
  std::string indent = "    ";
  for (int i = 0; i < 150; ++i) {
    body += indent + "if True:\n";
    indent += " ";
  }
  body += indent + "tl.store(x_ptr, 1.0)\n";
  CHECK(firstError(kernel(body), "k", "*fp32") == "no error");
}

TEST_CASE("recursion through deep expressions hits a depth limit") {
  std::string expr = "f(x)";
  for (int i = 0; i < 150; ++i)
    expr = "(" + expr + " + 1)";
  std::string prelude = "@triton.jit\ndef f(x):\n    return " + expr + "\n\n";
  std::string err = firstError(kernel("    tl.store(x_ptr, f(tl.load(x_ptr)))\n", prelude), "k", "*fp32");
  CHECK(err.find("deep") != std::string::npos);
}

TEST_CASE("runaway unrolling and inlining hit the work budget") {
  std::string unroll =
      "    acc = 0.0\n    for i in tl.static_range(60000):\n        for j in tl.static_range(60000):\n"
      "            acc += 1.0\n    tl.store(x_ptr, acc)\n";
  CHECK(messageOf(firstError(kernel(unroll), "k", "*fp32")).rfind("the kernel is too large to compile", 0) ==
        0);
  std::string prelude = "@triton.jit\ndef f0(x):\n    return x + x\n\n";
  for (int i = 1; i < 40; ++i)
    prelude += "@triton.jit\ndef f" + std::to_string(i) + "(x):\n    return f" + std::to_string(i - 1) +
               "(x) + f" + std::to_string(i - 1) + "(x)\n\n";
  CHECK(messageOf(firstError(kernel("    tl.store(x_ptr, f39(tl.load(x_ptr)))\n", prelude), "k", "*fp32"))
            .rfind("the kernel is too large to compile", 0) == 0);
}

TEST_CASE("huge compile-time values are refused") {
  CHECK(messageOf(firstError(kernel("    v: tl.constexpr = 2 ** 100\n"), "k", "*fp32")) ==
        "integer overflow in compile-time expression: the result does not fit in 64 bits");
  CHECK(messageOf(firstError(kernel("    v: tl.constexpr = (1,) * 1000000\n"), "k", "*fp32")) ==
        "sequence too long in compile-time expression");
  CHECK(messageOf(firstError(kernel("    v: tl.constexpr = 1 << 100000\n"), "k", "*fp32")) ==
        "integer overflow in compile-time expression: the result does not fit in 64 bits");
  CHECK(messageOf(firstError(kernel("    v = 123456789012345678901234567890123456789012345\n"), "k",
                             "*fp32")) == "integer literal too large");
}

TEST_CASE("arbitrary bytes never crash the entry points") {
  std::string junk;
  for (int i = 0; i < 4096; ++i)
    junk += static_cast<char>((i * 7919 + 13) % 256);
  Diagnostics diags;
  auto listed = listKernels(junk, "junk.py", diags);
  CHECK((!listed || listed->empty()));
  CompileRequest req;
  req.kernel = "k";
  CHECK(!compileKernel(junk, "junk.py", req, diags));
  CHECK(!diags.empty());
  Diagnostics d2;
  std::string withNul = std::string(kHeader) + "@triton.jit\ndef k(x_ptr):\n    tl.store(x_ptr, 1.0)\n";
  withNul += std::string("\0\xff", 2);
  CHECK(!compileKernel(withNul, "k.py", req, d2));
}

TEST_CASE("the language prelude, read once per process, gives every compile the same result") {
  // The prelude (tl.rand, tl.sort, libdevice ...) is parsed by the first compile and
  // shared read-only afterwards: an error inside it, later compiles and compiles on
  // several threads at once must all see it as the first compile did.
  std::string src = std::string(kHeader) +
                    "@triton.jit\ndef k(x_ptr, seed):\n"
                    "    offs = tl.arange(0, 16)\n"
                    "    r = tl.rand(seed, offs) + tl.sort(tl.load(x_ptr + offs))\n"
                    "    tl.store(x_ptr + offs, r)\n";
  std::string first = ir(src, "k", "*fp32, i32");
  REQUIRE(first.rfind("ERROR", 0) != 0);
  CHECK(count(first, "tt.store") == 1);
  std::string bad = std::string(kHeader) +
                    "@triton.jit\ndef k(x_ptr):\n    r = tl.rand(1.5, tl.arange(0, 16))\n"
                    "    tl.store(x_ptr + tl.arange(0, 16), r)\n";
  CHECK(firstError(bad, "k", "*fp32") ==
        "6:9: tl.rand: static_assert failed: the seed of the random functions must be an integer");
  CHECK(ir(src, "k", "*fp32, i32") == first);
  std::vector<std::string> results(4);
  std::vector<std::thread> threads;
  for (std::string &r : results)
    threads.emplace_back([&r, &src] { r = ir(src, "k", "*fp32, i32"); });
  for (std::thread &t : threads)
    t.join();
  for (const std::string &r : results)
    CHECK(r == first);
}
