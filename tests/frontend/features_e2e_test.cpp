// End to end: language features beyond the samples, compiled and run in the
// interpreter against references computed here.
#include "FrontendTestUtil.h"

#include "trident/interp/Interpreter.h"

#include <doctest/doctest.h>

#include <cmath>
#include <random>
#include <vector>

using namespace trident;
using namespace trident::test;

namespace {

Module build(const std::string &body, const std::string &signature, const std::string &prelude = "") {
  std::string src = std::string(kHeader) + prelude + body;
  Compiled c = compileSource(src, "k", signature);
  INFO(c.diags.str());
  REQUIRE(c.module);
  return std::move(*c.module);
}

void run(Interpreter &interp, const Module &m, const std::vector<KernelArg> &args, uint32_t grid) {
  Diagnostics diags;
  bool ok = interp.run(m, "k", args, {grid, 1, 1}, diags);
  INFO(diags.str());
  REQUIRE(ok);
}

uint64_t freshSeed() {
  std::random_device rd;
  return (uint64_t(rd()) << 32) ^ rd();
}

} // namespace

TEST_CASE("e2e: integer // and % round toward zero; unsigned and shifts") {
  Module m = build("@triton.jit\ndef k(a_ptr, b_ptr, q_ptr, r_ptr, u_ptr):\n"
                   "    i = tl.arange(0, 8)\n    a = tl.load(a_ptr + i)\n    b = tl.load(b_ptr + i)\n"
                   "    tl.store(q_ptr + i, a // b)\n    tl.store(r_ptr + i, a % b)\n"
                   "    u = a.to(tl.uint32, bitcast=True)\n    tl.store(u_ptr + i, (u >> 28).to(tl.int32, "
                   "bitcast=True))\n",
                   "*i32, *i32, *i32, *i32, *i32");
  std::vector<int32_t> a = {-7, 7, -7, 7, -1, 100, -100, 5}, b = {2, -2, -2, 2, 3, 7, 7, -5};
  std::vector<int32_t> q(8), r(8), u(8);
  Interpreter interp;
  for (auto *v : {&a, &b, &q, &r, &u})
    interp.addBuffer(v->data(), v->size() * 4);
  run(interp, m,
      {KernelArg::pointer(a.data(), Type::i32()), KernelArg::pointer(b.data(), Type::i32()),
       KernelArg::pointer(q.data(), Type::i32()), KernelArg::pointer(r.data(), Type::i32()),
       KernelArg::pointer(u.data(), Type::i32())},
      1);
  for (int i = 0; i < 8; ++i) {
    CAPTURE(i);
    CHECK(q[i] == a[i] / b[i]); // C semantics
    CHECK(r[i] == a[i] % b[i]);
    CHECK(u[i] == static_cast<int32_t>(static_cast<uint32_t>(a[i]) >> 28));
  }
}

TEST_CASE("e2e: atomics, including float max/min through integer atomics") {
  uint64_t seed = freshSeed();
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  Module m =
      build("@triton.jit\ndef k(v_ptr, sum_ptr, max_ptr, min_ptr, cnt_ptr):\n"
            "    pid = tl.program_id(0)\n    v = tl.load(v_ptr + pid)\n"
            "    tl.atomic_add(sum_ptr, v)\n    tl.atomic_max(max_ptr, v)\n    tl.atomic_min(min_ptr, v)\n"
            "    old = tl.atomic_add(cnt_ptr, 1)\n    tl.atomic_xchg(cnt_ptr + 1 + old, pid)\n",
            "*fp32, *fp32, *fp32, *fp32, *i32");
  const int n = 16;
  std::vector<float> v(n);
  for (float &x : v)
    x = std::uniform_real_distribution<float>(-4, 4)(rng);
  std::vector<float> sum(1, 0), mx(1, -INFINITY), mn(1, INFINITY);
  std::vector<int32_t> cnt(n + 1, -1);
  cnt[0] = 0;
  Interpreter interp;
  interp.addBuffer(v.data(), v.size() * 4);
  interp.addBuffer(sum.data(), 4);
  interp.addBuffer(mx.data(), 4);
  interp.addBuffer(mn.data(), 4);
  interp.addBuffer(cnt.data(), cnt.size() * 4);
  run(interp, m,
      {KernelArg::pointer(v.data()), KernelArg::pointer(sum.data()), KernelArg::pointer(mx.data()),
       KernelArg::pointer(mn.data()), KernelArg::pointer(cnt.data(), Type::i32())},
      n);
  double s = 0, refMax = -INFINITY, refMin = INFINITY;
  for (float x : v) {
    s += x;
    refMax = std::max<double>(refMax, x);
    refMin = std::min<double>(refMin, x);
  }
  CHECK(std::fabs(sum[0] - s) < 1e-4);
  CHECK(mx[0] == refMax);
  CHECK(mn[0] == refMin);
  CHECK(cnt[0] == n);
  for (int i = 0; i < n; ++i)
    CHECK(cnt[1 + i] == i); // programs run in order
}

TEST_CASE("e2e: block pointers with boundary checks and padding") {
  Module m = build("@triton.jit\ndef k(x_ptr, y_ptr, M, N):\n"
                   "    p = tl.make_block_ptr(x_ptr, (M, N), (N, 1), (16, 8), (16, 16), (1, 0))\n"
                   "    t = tl.load(p, boundary_check=(0, 1), padding_option='zero')\n"
                   "    q = tl.make_block_ptr(y_ptr, (16, 16), (16, 1), (0, 0), (16, 16), (1, 0))\n"
                   "    tl.store(q, t)\n"
                   "    r = tl.advance(q, (8, 0))\n"
                   "    tl.store(r, t + 1000.0, boundary_check=(0,))\n",
                   "*fp32, *fp32, i32, i32");
  const int M = 20, N = 20;
  std::vector<float> x(M * N), y(16 * 16, -1);
  for (int i = 0; i < M * N; ++i)
    x[i] = float(i);
  Interpreter interp;
  interp.addBuffer(x.data(), x.size() * 4);
  interp.addBuffer(y.data(), y.size() * 4);
  run(interp, m,
      {KernelArg::pointer(x.data()), KernelArg::pointer(y.data()), KernelArg::i32(M), KernelArg::i32(N)}, 1);
  // The tile read at rows 16.., columns 8.., zero past the 20 x 20 matrix.
  auto tile = [&](int i, int j) {
    int r = 16 + i, c = 8 + j;
    return (r < M && c < N) ? x[r * N + c] : 0.0f;
  };
  // y holds the tile, then rows 8..15 were overwritten through the advanced pointer
  // with rows 0..7 plus 1000 (its rows 8..15 fall outside y's 16 rows: masked off).
  for (int i = 0; i < 16; ++i)
    for (int j = 0; j < 16; ++j) {
      CAPTURE(i);
      CAPTURE(j);
      CHECK(y[i * 16 + j] == (i < 8 ? tile(i, j) : tile(i - 8, j) + 1000.0f));
    }
}

TEST_CASE("e2e: early return, while loops, dynamic if, noinline calls") {
  Module m = build(
      "@triton.jit(noinline=True)\ndef steps(v):\n    n = 0\n    while v > 1:\n"
      "        if v % 2 == 0:\n            v = v // 2\n        else:\n            v = 3 * v + 1\n"
      "        n += 1\n    return n\n\n"
      "@triton.jit\ndef k(x_ptr, out_ptr, n):\n    pid = tl.program_id(0)\n    if pid >= n:\n        return\n"
      "    tl.store(out_ptr + pid, steps(tl.load(x_ptr + pid)))\n",
      "*i32, *i32, i32");
  std::vector<int32_t> x = {1, 2, 3, 6, 7, 27, 97, 871}, out(8, -1);
  Interpreter interp;
  interp.addBuffer(x.data(), x.size() * 4);
  interp.addBuffer(out.data(), out.size() * 4);
  run(interp, m,
      {KernelArg::pointer(x.data(), Type::i32()), KernelArg::pointer(out.data(), Type::i32()),
       KernelArg::i32(6)},
      8);
  for (int i = 0; i < 8; ++i) {
    int v = x[i], steps = 0;
    while (v > 1) {
      v = v % 2 == 0 ? v / 2 : 3 * v + 1;
      ++steps;
    }
    CAPTURE(i);
    CHECK(out[i] == (i < 6 ? steps : -1));
  }
}

TEST_CASE("e2e: math builtins against float64") {
  uint64_t seed = freshSeed();
  CAPTURE(seed);
  std::mt19937_64 rng(seed);
  Module m = build("@triton.jit\ndef k(x_ptr, o_ptr):\n    i = tl.arange(0, 64)\n    x = tl.load(x_ptr + i)\n"
                   "    tl.store(o_ptr + i, tl.sigmoid(x))\n"
                   "    tl.store(o_ptr + 64 + i, tl.softmax(x))\n"
                   "    tl.store(o_ptr + 128 + i, tl.clamp(x, -0.5, 0.5))\n"
                   "    tl.store(o_ptr + 192 + i, tl.fma(x, x, 1.0))\n"
                   "    tl.store(o_ptr + 256 + i, tl.fdiv(x, 3.0))\n"
                   "    tl.store(o_ptr + 320 + i, tl.cumsum(x, 0))\n"
                   "    tl.store(o_ptr + 384 + i, tl.where(x > 0, tl.sqrt(tl.abs(x)), tl.exp2(x)))\n"
                   "    tl.store(o_ptr + 448 + i, (x * 10.0) % 3.0)\n"
                   "    tl.store(o_ptr + 512, tl.argmax(x, 0).to(tl.float32))\n"
                   "    tl.store(o_ptr + 513, tl.max(x, 0))\n",
                   "*fp32, *fp32");
  std::vector<float> x(64), o(576, NAN);
  for (float &v : x)
    v = std::uniform_real_distribution<float>(-3, 3)(rng);
  Interpreter interp;
  interp.addBuffer(x.data(), x.size() * 4);
  interp.addBuffer(o.data(), o.size() * 4);
  run(interp, m, {KernelArg::pointer(x.data()), KernelArg::pointer(o.data())}, 1);
  double mx = -INFINITY, sum = 0, run = 0;
  int arg = 0;
  for (int i = 0; i < 64; ++i) {
    if (x[i] > mx) {
      mx = x[i];
      arg = i;
    }
  }
  for (float v : x)
    sum += std::exp(v - mx);
  for (int i = 0; i < 64; ++i) {
    double v = x[i];
    run += v;
    CAPTURE(i);
    CHECK(std::fabs(o[i] - 1 / (1 + std::exp(-v))) < 1e-6);
    CHECK(std::fabs(o[64 + i] - std::exp(v - mx) / sum) < 1e-6);
    CHECK(o[128 + i] == std::clamp(x[i], -0.5f, 0.5f));
    CHECK(std::fabs(o[192 + i] - (v * v + 1)) < 1e-5);
    CHECK(std::fabs(o[256 + i] - v / 3) < 1e-6);
    CHECK(std::fabs(o[320 + i] - run) < 1e-4);
    CHECK(std::fabs(o[384 + i] - (v > 0 ? std::sqrt(std::fabs(v)) : std::exp2(v))) < 1e-6);
    double tenX = double(x[i] * 10.0f);
    CHECK(std::fabs(o[448 + i] - (tenX - std::floor(tenX / 3) * 3)) < 1e-4);
  }
  CHECK(o[512] == float(arg));
  CHECK(o[513] == float(mx));
}
