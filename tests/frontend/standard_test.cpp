// tl.flip, tl.sort, tl.topk, tl.bitonic_merge, tl.gather and tl.histogram
// (PreludeStandard.cpp), run in the interpreter against references computed here
// on fresh random inputs, and their errors.
#include "FrontendTestUtil.h"

#include "trident/interp/Interpreter.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <random>
#include <sstream>
#include <vector>

using namespace trident;
using namespace trident::test;

namespace {

Module build(const std::string &source, const std::string &signature) {
  Compiled c = compileSource(source, "k", signature);
  INFO(c.diags.str());
  REQUIRE(c.module);
  return std::move(*c.module);
}

template <class T>
void runOn(const Module &m, std::vector<T> &in, std::vector<int32_t> &idx, std::vector<T> &out, Type elem) {
  Interpreter interp;
  interp.addBuffer(in.data(), in.size() * sizeof(T));
  interp.addBuffer(idx.data(), idx.size() * 4);
  interp.addBuffer(out.data(), out.size() * sizeof(T));
  Diagnostics diags;
  std::vector<KernelArg> args = {KernelArg::pointer(in.data(), elem),
                                 KernelArg::pointer(idx.data(), Type::i32()),
                                 KernelArg::pointer(out.data(), elem)};
  bool ok = interp.run(m, "k", args, {1, 1, 1}, diags);
  INFO(diags.str());
  REQUIRE(ok);
}

uint32_t freshSeed() {
  std::random_device rd;
  return rd();
}

// The kernel (also the targets' tool tests'): x is R x C; each result goes to its own slice of out.
std::string kernelSource() {
  std::ifstream in(std::string(TRIDENT_SAMPLES_DIR) + "/../tests/frontend/data/standard.py");
  REQUIRE(in);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

template <class T> void checkAll(const std::string &sig, Type elem, std::function<T(std::mt19937 &)> draw) {
  const int R = 4, C = 32, K = 8, n = R * C;
  uint32_t seed = freshSeed();
  CAPTURE(seed);
  std::mt19937 rng(seed);
  Module m = build(kernelSource(), sig);
  std::vector<T> x(n), out(9 * n, T(-1));
  std::vector<int32_t> idx(n);
  for (int i = 0; i < n; ++i) {
    x[i] = draw(rng);
    idx[i] = int32_t(rng() % 1000);
  }
  runOn(m, x, idx, out, elem);
  auto at = [&](int slice, int i) { return out[slice * n + i]; };
  std::vector<int> hist(8, 0);
  for (int r = 0; r < R; ++r) {
    CAPTURE(r);
    std::vector<T> row(x.begin() + r * C, x.begin() + (r + 1) * C), up = row, down = row;
    std::sort(up.begin(), up.end());
    std::sort(down.begin(), down.end(), std::greater<T>());
    for (int c = 0; c < C; ++c) {
      CAPTURE(c);
      CHECK(at(0, r * C + c) == row[C - 1 - c]);
      CHECK(at(1, r * C + c) == x[(R - 1 - r) * C + c]);
      CHECK(at(2, r * C + c) == up[c]);
      CHECK(at(3, r * C + c) == down[c]);
      if (c < K)
        CHECK(at(4, r * K + c) == down[c]);
      CHECK(at(5, r * C + c) == row[idx[r * C + c] % C]);
      CHECK(at(6, r * C + c) == x[(idx[r * C + c] % R) * C + c]);
      CHECK(at(7, r * C + c) == up[c]);
      if (c < C - 1)
        ++hist[idx[r * C + c] % 8];
    }
  }
  for (int b = 0; b < 8; ++b) {
    CAPTURE(b);
    CHECK(at(8, b) == T(hist[b]));
  }
}

} // namespace

TEST_CASE(
    "e2e: flip, sort, topk, bitonic_merge, gather, histogram on fp32 (ties, negative zeros, infinities)") {
  checkAll<float>("*fp32, *i32, *fp32, 4, 32, 8", Type::f32(), [](std::mt19937 &rng) {
    int v = int(rng() % 41) - 20; // many ties
    if (v == 20)
      return float(INFINITY);
    if (v == -20)
      return -float(INFINITY);
    return v == 0 && rng() % 2 ? -0.0f : float(v) / 4;
  });
}

TEST_CASE("e2e: flip, sort, topk, bitonic_merge, gather, histogram on int32 and int64") {
  checkAll<int32_t>("*i32, *i32, *i32, 4, 32, 8", Type::i32(),
                    [](std::mt19937 &rng) { return int32_t(rng()); });
  checkAll<int64_t>("*i64, *i32, *i64, 4, 32, 8", Type::i64(), [](std::mt19937 &rng) {
    return int64_t((uint64_t(rng()) << 32) | rng()) >> int(rng() % 40);
  });
}

TEST_CASE("flip, sort, topk, gather, histogram: errors point at the user's call") {
  auto err = [](const std::string &line) {
    return firstError(std::string(kHeader) +
                          "@triton.jit\ndef k(p):\n    x = tl.load(p + tl.arange(0, 8)[:, None] "
                          "* 4 + tl.arange(0, 4)[None, :])\n" +
                          line,
                      "k", "*fp32");
  };
  CHECK(err("    y = tl.sort(x, 0)\n") ==
        "7:9: tl.sort: static_assert failed: only the last dimension can be sorted");
  CHECK(err("    y = tl.topk(x, 3)\n") ==
        "7:9: tl.topk: static_assert failed: tl.topk: k must be a power of two, at most the dimension");
  CHECK(err("    y = tl.flip(x, 2)\n") == "7:9: tl.flip: static_assert failed: tl.flip: dim is out of range");
  CHECK(err("    y = tl.gather(x, tl.arange(0, 4), 0)\n") ==
        "7:9: tl.gather: static_assert failed: tl.gather: the index must have the source's rank");
  CHECK(err("    y = tl.histogram(x.to(tl.int32), 8)\n") ==
        "7:9: tl.histogram: static_assert failed: tl.histogram takes a 1-d tensor");
}

TEST_CASE("tl.extra.cuda.gdc_wait and gdc_launch_dependents compile to nothing") {
  // Programmatic dependent launch, as Triton's tutorial 11 writes it: kernels launch in
  // stream order, so there is nothing to wait for.
  std::string src = std::string(kHeader) + "@triton.jit\ndef k(p, USE_GDC: tl.constexpr):\n"
                                           "    if USE_GDC:\n        tl.extra.cuda.gdc_wait()\n"
                                           "    x = tl.load(p)\n"
                                           "    if USE_GDC:\n        tl.extra.cuda.gdc_launch_dependents()\n"
                                           "    tl.store(p, x + 1)\n";
  CHECK(ir(src, "k", "*fp32, True") == ir(src, "k", "*fp32, False"));
  CHECK(firstError(src + "@triton.jit\ndef j(p):\n    tl.extra.cuda.gdc_wait(p)\n", "j", "*fp32") ==
        "14:28: tl.extra.cuda.gdc_wait() takes at most 0 positional arguments (1 given)");
}

TEST_CASE("e2e: tl.map_elementwise if-converts ifs on the element (returns, assignments, elif, tuples)") {
  std::string src = std::string(kHeader) + R"PY(
@triton.jit
def selu(x, alpha):
    if x > 0:
        return x
    else:
        return alpha * (tl.exp(x) - 1)


@triton.jit
def classify(x, lo):
    kind = 0
    if x < lo:
        kind = -1
        y = x * 0
    elif x > 1.0:
        kind = 1
        y = x * 2
    else:
        y = x
    return kind, y


@triton.jit
def k(x_ptr, o_ptr, c_ptr, y_ptr, BLOCK: tl.constexpr):
    i = tl.arange(0, BLOCK)
    x = tl.load(x_ptr + i)
    tl.store(o_ptr + i, tl.map_elementwise(selu, x, 1.5))
    kind, y = tl.map_elementwise(classify, x, -1.0, pack=2)
    tl.store(c_ptr + i, kind)
    tl.store(y_ptr + i, y)
)PY";
  Compiled c = compileSource(src, "k", "*fp32, *fp32, *i32, *fp32, 64");
  INFO(c.diags.str());
  REQUIRE(c.module);
  std::mt19937 rng(freshSeed());
  std::vector<float> x(64), o(64, -9), y(64, -9);
  std::vector<int32_t> kind(64, -9);
  for (float &v : x)
    v = float(int(rng() % 49) - 24) / 8;
  Interpreter interp;
  interp.addBuffer(x.data(), 256);
  interp.addBuffer(o.data(), 256);
  interp.addBuffer(kind.data(), 256);
  interp.addBuffer(y.data(), 256);
  std::vector<KernelArg> args = {
      KernelArg::pointer(x.data(), Type::f32()), KernelArg::pointer(o.data(), Type::f32()),
      KernelArg::pointer(kind.data(), Type::i32()), KernelArg::pointer(y.data(), Type::f32())};
  Diagnostics diags;
  REQUIRE(interp.run(*c.module, "k", args, {1, 1, 1}, diags));
  for (int i = 0; i < 64; ++i) {
    CAPTURE(x[i]);
    CHECK(o[i] == (x[i] > 0 ? x[i] : 1.5f * (std::exp(x[i]) - 1)));
    CHECK(kind[i] == (x[i] < -1 ? -1 : x[i] > 1 ? 1 : 0));
    CHECK(y[i] == (x[i] < -1 ? 0.0f : x[i] > 1 ? x[i] * 2 : x[i]));
  }
  // Outside tl.map_elementwise an if on a block is still an error; a loop on the element is refused.
  std::string bad = std::string(kHeader) +
                    "@triton.jit\ndef down(x):\n    while x > 0:\n        x = x - 1\n"
                    "    return x\n\n@triton.jit\ndef k(p):\n"
                    "    x = tl.load(p + tl.arange(0, 16))\n"
                    "    tl.store(p + tl.arange(0, 16), tl.map_elementwise(down, x))\n";
  CHECK(firstError(bad, "k", "*fp32").find("6:11: ") == 0);
  CHECK(firstError(
            std::string(kHeader) + "@triton.jit\ndef k(p):\n    y = tl.map_elementwise(tl.exp, tl.load(p))\n",
            "k", "*fp32") == "6:28: tl.map_elementwise needs a @triton.jit function, got function 'tl.exp'");
}
