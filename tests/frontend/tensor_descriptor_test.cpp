// Tensor descriptors (tl.make_tensor_descriptor, tensordesc parameters, desc.load/
// store/atomic_add, tl.load_tensor_descriptor/store_tensor_descriptor): the
// kernel's parameters, Triton's boundary semantics run in the interpreter against
// exact references, and the errors for misuse.
#include "FrontendTestUtil.h"

#include "trident/interp/Interpreter.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstring>
#include <random>
#include <vector>

using namespace trident;
using namespace trident::test;

namespace {

Module build(const std::string &body, const std::string &signature) {
  Compiled c = compileSource(std::string(kHeader) + body, "k", signature);
  INFO(c.diags.str());
  REQUIRE(c.module);
  return std::move(*c.module);
}

void run(Interpreter &interp, const Module &m, const std::vector<KernelArg> &args,
         std::array<uint32_t, 3> grid) {
  Diagnostics diags;
  bool ok = interp.run(m, "k", args, grid, diags);
  INFO(diags.str());
  REQUIRE(ok);
}

std::mt19937 seeded() {
  uint32_t seed = testSeed();
  INFO("seed " << seed);
  return std::mt19937(seed);
}

// A host descriptor's launch arguments: base, shape (i32 each), strides (i64 each).
void pushDescriptor(std::vector<KernelArg> &args, const void *base, Type elem, std::vector<int32_t> shape,
                    std::vector<int64_t> strides) {
  args.push_back(KernelArg::pointer(base, elem));
  for (int32_t s : shape)
    args.push_back(KernelArg::i32(s));
  for (int64_t s : strides)
    args.push_back(KernelArg::i64(s));
}

const char *kShiftedCopy = "@triton.jit\n"
                           "def k(in_desc, out_desc, BM: tl.constexpr, BN: tl.constexpr):\n"
                           "    pm = tl.program_id(0)\n"
                           "    pn = tl.program_id(1)\n"
                           "    t = in_desc.load([pm * BM - 3, pn * BN + 5])\n"
                           "    out_desc.store([pm * BM, pn * BN], t * 2 + 1)\n";

} // namespace

TEST_CASE("tensordesc parameters: base, shape (i32) and strides (i64) per descriptor") {
  std::string text = ir(std::string(kHeader) + kShiftedCopy, "k",
                        "tensordesc<fp32[16, 16]>, tensordesc<fp16[16, 16], #shared>, 16, 16");
  CHECK(text.find("tt.func {arg_divisibility = [16, 1, 1, 1, 1, 16, 1, 1, 1, 1], sym_name = \"k\"}") !=
        std::string::npos);
  CHECK(
      text.find("(%0: ptr<f32>, %1: i32, %2: i32, %3: i64, %4: i64, %5: ptr<f16>, %6: i32, %7: i32, %8: i64, "
                "%9: i64)") != std::string::npos);
  // The load stays one op (the SIMT lowering expands it or copies it by TMA); the store
  // is expanded here.
  CHECK(count(text, "tt.descriptor_load") == 1);
  CHECK(text.find("padding = \"zero\"") != std::string::npos);
  CHECK(count(text, "tt.store") == 1);
}

TEST_CASE("tensordesc signatures: malformed entries are errors") {
  Diagnostics d;
  auto ok = parseSignature("tensordesc<fp16[128, 64]>, i32", d);
  REQUIRE(ok);
  CHECK(ok->size() == 2);
  CHECK((*ok)[0].kind == ArgSpec::Kind::TensorDesc);
  CHECK((*ok)[0].blockShape == std::vector<int64_t>{128, 64});
  for (const char *bad : {"tensordesc<fp16>", "tensordesc<fp16[0, 4]>", "tensordesc<nope[4]>",
                          "tensordesc<fp16[4, 4]", "tensordesc<fp16[1,2,4,4,4,4]>", "tensordesc<i1[16]>"}) {
    CAPTURE(bad);
    Diagnostics diags;
    CHECK(!parseSignature(bad, diags));
    CHECK(diags.str().find("signature entry") != std::string::npos);
  }
}

TEST_CASE("e2e: host descriptors: out-of-bounds boxes read zero, stores clip") {
  std::mt19937 rng = seeded();
  Module m = build(kShiftedCopy, "tensordesc<fp32[16, 16]>, tensordesc<fp32[16, 16]>, 16, 16");
  const int M = 37, N = 45, outStride = 48; // the output's rows are wider than the tensor
  std::vector<float> in(M * N), out(M * outStride, -7.0f);
  for (float &x : in)
    x = float(int(rng() % 2001) - 1000) / 8;
  Interpreter interp;
  interp.addBuffer(in.data(), in.size() * 4);
  interp.addBuffer(out.data(), out.size() * 4);
  std::vector<KernelArg> args;
  pushDescriptor(args, in.data(), Type::f32(), {M, N}, {N, 1});
  pushDescriptor(args, out.data(), Type::f32(), {M, N}, {outStride, 1});
  run(interp, m, args, {3, 3, 1});
  for (int i = 0; i < M; ++i)
    for (int j = 0; j < outStride; ++j) {
      CAPTURE(i);
      CAPTURE(j);
      int si = i - 3, sj = j + 5;
      float src = si >= 0 && si < M && sj < N ? in[si * N + sj] : 0.0f;
      CHECK(out[i * outStride + j] == (j < N ? src * 2 + 1 : -7.0f));
    }
}

TEST_CASE("e2e: tl.make_tensor_descriptor in a kernel: nan padding, functional forms, atomic_add, loops") {
  std::mt19937 rng = seeded();
  Module m = build(
      "@triton.jit(noinline=True)\n"
      "def twice(desc: tl.tensor_descriptor, r, c):\n"
      "    return tl.load_tensor_descriptor(desc, [r, c]) * 2\n"
      "\n"
      "@triton.jit\n"
      "def k(x_ptr, y_ptr, acc_ptr, M, N, BM: tl.constexpr, BN: tl.constexpr):\n"
      "    x = tl.make_tensor_descriptor(x_ptr, shape=[M, N], strides=[N, 1], block_shape=[BM, BN],\n"
      "                                  padding_option='nan')\n"
      "    y = tl.make_tensor_descriptor(y_ptr, [M, N], [N, 1], [BM, BN])\n"
      "    acc = tl.make_tensor_descriptor(acc_ptr, [BM, BN], [BN, 1], [BM, BN])\n"
      "    tl.static_assert(x.block_shape == [BM, BN])\n"
      "    tl.static_assert(x.dtype == tl.float32)\n"
      "    row = tl.program_id(0) * BM\n"
      "    for c in range(0, tl.cdiv(x.shape[1], BN)):\n"
      "        v = x.load([row, c * BN])\n"
      "        tl.store_tensor_descriptor(y, [row, c * BN], tl.where(v != v, -1.0, twice(x, row, c * BN)))\n"
      "        acc.atomic_add([0, 0], tl.where(v != v, 0.0, v).to(tl.float32))\n"
      "        x = tl.make_tensor_descriptor(x_ptr, [M, N], [x.strides[0], 1], [BM, BN], 'nan')\n",
      "*fp32, *fp32, *fp32, i32, i32, 8, 16");
  const int M = 20, N = 37, BM = 8, BN = 16;
  std::vector<float> xf(M * N), y(M * N, -99.0f), acc(BM * BN, 0.0f);
  for (float &v : xf)
    v = float(int(rng() % 64) - 32) / 4; // small sums of these stay exact in fp32
  Interpreter interp;
  interp.addBuffer(xf.data(), xf.size() * 4);
  interp.addBuffer(y.data(), y.size() * 4);
  interp.addBuffer(acc.data(), acc.size() * 4);
  run(interp, m,
      {KernelArg::pointer(xf.data(), Type::f32()), KernelArg::pointer(y.data(), Type::f32()),
       KernelArg::pointer(acc.data(), Type::f32()), KernelArg::i32(M), KernelArg::i32(N)},
      {3, 1, 1});
  std::vector<float> accRef(BM * BN, 0.0f);
  for (int i = 0; i < 3 * BM; ++i)
    for (int j = 0; j < 3 * BN; ++j)
      if (i < M && j < N)
        accRef[(i % BM) * BN + j % BN] += xf[i * N + j];
  for (int i = 0; i < M * N; ++i) {
    CAPTURE(i);
    CHECK(y[i] == xf[i] * 2);
  }
  for (int i = 0; i < BM * BN; ++i) {
    CAPTURE(i);
    CHECK(acc[i] == accRef[i]);
  }
}

TEST_CASE("tensor descriptor misuse: errors at the call, with the caret") {
  auto err = [](const std::string &body, const std::string &sig = "*fp32, i32") {
    return firstError(std::string(kHeader) + "@triton.jit\ndef k(p, n):\n" + body, "k", sig);
  };
  CHECK(err("    d = tl.make_tensor_descriptor(p, [n, n], [n, 2], [16, 16])\n") ==
        "6:46: a tensor descriptor's last stride must be the constant 1, got constexpr[2]");
  CHECK(err("    d = tl.make_tensor_descriptor(p, [n, n], [n, n], [16, 16])\n") ==
        "6:46: a tensor descriptor's last stride must be the constant 1, got int32");
  CHECK(
      err("    d = tl.make_tensor_descriptor(p, [n, n], [n, 1], [16, 2])\n") ==
      "6:9: a tensor descriptor's block needs at least 16 bytes in its last dimension, got 2 * 4 = 8 bytes");
  CHECK(err("    d = tl.make_tensor_descriptor(p, [n, n], [n, 1], [16])\n") ==
        "6:54: tl.make_tensor_descriptor: expected a block_shape of 2 dimensions, got 1");
  CHECK(err("    d = tl.make_tensor_descriptor(p, [n], [1], [16], padding_option='inf')\n") ==
        "6:69: padding_option must be 'zero' or 'nan', got 'inf'");
  CHECK(err("    d = tl.make_tensor_descriptor(p, [n, n], [n, 1], [16, 16])\n    x = d.load([0])\n") ==
        "7:16: desc.load needs 2 offsets, one per dimension of the descriptor, got 1");
  CHECK(err("    d = tl.make_tensor_descriptor(p, [n], [1], [16])\n    x = tl.load(d)\n") ==
        "7:17: tl.load does not take a tensor descriptor; use the descriptor's methods (desc.load(offsets), "
        "desc.store(offsets, value), desc.atomic_add(offsets, value))");
  CHECK(err("    d = tl.make_tensor_descriptor(p, [n], [1], [16])\n    d.store([0], tl.zeros([8], "
            "tl.float32))\n") ==
        "7:18: desc.store's value must have the descriptor's block shape [16], got fp32[8]");
  CHECK(err("    d = tl.make_tensor_descriptor(p, [n], [1], [16])\n    x = d.gather([0])\n") ==
        "7:9: tensor descriptor has no attribute 'gather'");
  CHECK(
      err("    x = tl.load_tensor_descriptor(p, [0])\n") ==
      "6:35: tl.load_tensor_descriptor needs a tensor descriptor (tl.make_tensor_descriptor or a tensordesc "
      "parameter), got pointer<fp32>");
  CHECK(
      err("    x = p.load([0])\n", "tensordesc<fp32[2]>, i32") ==
      "5:7: a tensor descriptor's block needs at least 16 bytes in its last dimension, got 2 * 4 = 8 bytes");
  CHECK(err("    tl.static_assert(isinstance(p, tl.block_type))\n") ==
        "6:36: isinstance() with function 'tl.block_type' is not supported inside a @triton.jit function");
  Compiled c = compileSource(std::string(kHeader) + "@triton.jit\ndef k(p, n):\n"
                                                    "    d = tl.make_tensor_descriptor(p, [n], [n], [16])\n",
                             "k", "*fp32, i32");
  CHECK(c.diags.str() ==
        "k.py:6:43: error: a tensor descriptor's last stride must be the constant 1, got int32\n"
        "        d = tl.make_tensor_descriptor(p, [n], [n], [16])\n"
        "                                              ^\n");
}

TEST_CASE("e2e: one kernel taking a host descriptor or a pointer (isinstance(x, tl.tensor_descriptor))") {
  // The way Triton's attention tutorial writes it: descriptors where the host makes
  // them, tl.make_tensor_descriptor from a pointer elsewhere.
  std::string body =
      "@triton.jit\n"
      "def as_desc(desc_or_ptr, shape, strides, block_shape):\n"
      "    if isinstance(desc_or_ptr, tl.tensor_descriptor):\n"
      "        return desc_or_ptr\n"
      "    else:\n"
      "        return tl.make_tensor_descriptor(desc_or_ptr, shape, strides, block_shape)\n"
      "\n"
      "@triton.jit\n"
      "def k(x, y, M, N, BM: tl.constexpr, BN: tl.constexpr):\n"
      "    tl.static_assert(isinstance(BM, tl.constexpr) and not isinstance(M, tl.constexpr))\n"
      "    tl.static_assert(isinstance(M, tl.tensor) and isinstance(BM, (int, float)))\n"
      "    xd = as_desc(x, [M, N], [N, 1], [BM, BN])\n"
      "    yd = as_desc(y, [M, N], [N, 1], [BM, BN])\n"
      "    r = tl.program_id(0) * BM\n"
      "    yd.store([r, 0], xd.load([r, 0]) + 1)\n";
  const int M = 6, N = 24;
  for (bool host : {false, true}) {
    CAPTURE(host);
    Module m = build(body, host ? "tensordesc<fp32[4, 32]>, tensordesc<fp32[4, 32]>, i32, i32, 4, 32"
                                : "*fp32, *fp32, i32, i32, 4, 32");
    std::vector<float> x(M * N), y(M * N + 8, -5.0f);
    for (int i = 0; i < M * N; ++i)
      x[i] = float(i);
    Interpreter interp;
    interp.addBuffer(x.data(), x.size() * 4);
    interp.addBuffer(y.data(), y.size() * 4);
    std::vector<KernelArg> args;
    if (host) {
      pushDescriptor(args, x.data(), Type::f32(), {M, N}, {N, 1});
      pushDescriptor(args, y.data(), Type::f32(), {M, N}, {N, 1});
    } else {
      args = {KernelArg::pointer(x.data(), Type::f32()), KernelArg::pointer(y.data(), Type::f32())};
    }
    args.push_back(KernelArg::i32(M));
    args.push_back(KernelArg::i32(N));
    run(interp, m, args, {2, 1, 1});
    for (int i = 0; i < M * N + 8; ++i) {
      CAPTURE(i);
      CHECK(y[i] == (i < M * N ? float(i) + 1 : -5.0f));
    }
  }
}
