// tl.flip, tl.sort, tl.topk, tl.bitonic_merge, tl.gather and tl.histogram
// (PreludeStandard.cpp), run in the interpreter against references computed here
// on fresh random inputs, and their errors.
#include "FrontendTestUtil.h"

#include "trident/interp/Interpreter.h"

#include <doctest/doctest.h>

#include <algorithm>
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

template <class T> void runOn(const Module &m, std::vector<T> &in, std::vector<int32_t> &idx, std::vector<T> &out,
                              Type elem) {
  Interpreter interp;
  interp.addBuffer(in.data(), in.size() * sizeof(T));
  interp.addBuffer(idx.data(), idx.size() * 4);
  interp.addBuffer(out.data(), out.size() * sizeof(T));
  Diagnostics diags;
  std::vector<KernelArg> args = {KernelArg::pointer(in.data(), elem), KernelArg::pointer(idx.data(), Type::i32()),
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

TEST_CASE("e2e: flip, sort, topk, bitonic_merge, gather, histogram on fp32 (ties, negative zeros, infinities)") {
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
    return firstError(std::string(kHeader) + "@triton.jit\ndef k(p):\n    x = tl.load(p + tl.arange(0, 8)[:, None] "
                                             "* 4 + tl.arange(0, 4)[None, :])\n" + line,
                      "k", "*fp32");
  };
  CHECK(err("    y = tl.sort(x, 0)\n") == "7:9: tl.sort: static_assert failed: only the last dimension can be sorted");
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
