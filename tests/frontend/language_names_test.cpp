// The names of triton.language that no other test used by name, each checked for
// what it computes (in the interpreter) or what it means (static asserts), and the
// conformance list (tests/frontend/conformance/triton_language.txt): every public
// name of triton.language with whether Trident understands it and the test that
// uses it; this test fails when the list and the frontend disagree, or when a
// listed test no longer mentions its name.
#include "FrontendTestUtil.h"

#include "trident/interp/Interpreter.h"

#include <doctest/doctest.h>

#include <cmath>
#include <fstream>
#include <set>
#include <sstream>

using namespace trident;
using namespace trident::test;

namespace {

Module build(const std::string &src, const std::string &kernel, const std::string &signature) {
  Compiled c = compileSource(src, kernel, signature);
  INFO(c.diags.str());
  REQUIRE(c.module);
  return std::move(*c.module);
}

void run(Interpreter &interp, const Module &m, const std::string &kernel,
         const std::vector<KernelArg> &args) {
  Diagnostics diags;
  bool ok = interp.run(m, kernel, args, {1, 1, 1}, diags);
  INFO(diags.str());
  REQUIRE(ok);
}

// Trident's own statement of swizzle2d's contract, for the reference.
std::pair<int, int> swizzleReference(int i, int j, int sizeI, int sizeJ, int sizeG) {
  int linear = i * sizeJ + j, perGroup = sizeG * sizeJ;
  int firstRow = linear / perGroup * sizeG;
  int rows = std::min(sizeI - firstRow, sizeG);
  int k = linear % perGroup;
  return {firstRow + k % rows, k / rows};
}

} // namespace

TEST_CASE("language names: integer reductions, atomics, add/sub/mul, tuple, swizzle2d, view, broadcast") {
  std::string src = std::string(kHeader) + R"PY(
@triton.jit
def helper(x: tl.tensor, d: tl.dtype, c: tl.constexpr_type, p: tl.const, q: tl.block_type = None):
    return x.to(d) + c

@triton.jit
def k(a_ptr, b_ptr, out_ptr, atom_ptr, sw_ptr):
    tl.static_assert(tl.TRITON_MAX_TENSOR_NUMEL == 1048576)
    tl.static_assert(tl.pi32_t.element_ty == tl.int32)
    i = tl.arange(0, 16)
    a = tl.load(a_ptr + i)
    b = tl.load(b_ptr + i)
    tl.store(out_ptr + 0, tl.argmin(a, 0))
    tl.store(out_ptr + 1, tl.min(a, 0))
    tl.store(out_ptr + 2, tl.reduce_or(a, 0))
    tl.store(out_ptr + 3, tl.sum(tl.view(a, (4, 4))))
    x, y = tl.broadcast(a[:, None], b[None, :])
    tl.store(out_ptr + 4, tl.sum(x * 0 + y))
    t = tl.tuple((a, b))
    tl.store(out_ptr + 32 + i, tl.add(t[0], t[1]))
    tl.store(out_ptr + 48 + i, tl.sub(a, b))
    tl.store(out_ptr + 64 + i, tl.mul(a, 3))
    tl.store(out_ptr + 80 + i, tl.cumprod(tl.where(i < 4, a, 1), 0))
    tl.store(out_ptr + 96 + i, tl.max_constancy(helper(a, tl.int32, 1, 0), 16))
    tl.atomic_and(atom_ptr + 0, tl.sum(a * 0 + 0x7F))
    tl.atomic_or(atom_ptr + 1, 0x100)
    tl.atomic_xor(atom_ptr + 2, 0xFF)
    r = tl.arange(0, 8)[:, None]
    c = tl.arange(0, 4)[None, :]
    si, sj = tl.swizzle2d(r, c, 8, 4, 3)
    tl.store(sw_ptr + r * 4 + c, si * 100 + sj)
)PY";
  Module m = build(src, "k", "*i32, *i32, *i32, *i32, *i32");
  std::vector<int32_t> a = {5, -3, 8, 2, 9, -3, 1, 0, 4, 4, 7, 6, 3, 2, 1, 11};
  std::vector<int32_t> b = {1, 2, 3, 4, 5, 6, 7, 8, -1, -2, -3, -4, -5, -6, -7, -8};
  std::vector<int32_t> out(112, -99), atom = {0x1F0, 0x1, 0x0F}, sw(32, -1);
  Interpreter interp;
  for (auto *v : {&a, &b, &out, &atom, &sw})
    interp.addBuffer(v->data(), v->size() * 4);
  run(interp, m, "k",
      {KernelArg::pointer(a.data(), Type::i32()), KernelArg::pointer(b.data(), Type::i32()),
       KernelArg::pointer(out.data(), Type::i32()), KernelArg::pointer(atom.data(), Type::i32()),
       KernelArg::pointer(sw.data(), Type::i32())});
  int sumA = 0, sumB = 0, orA = 0;
  for (int i = 0; i < 16; ++i) {
    sumA += a[i];
    sumB += b[i];
    orA |= a[i];
  }
  CHECK(out[0] == 1); // the first of the two -3s
  CHECK(out[1] == -3);
  CHECK(out[2] == orA);
  CHECK(out[3] == sumA);
  CHECK(out[4] == 16 * sumB);
  int prod = 1;
  for (int i = 0; i < 16; ++i) {
    CAPTURE(i);
    CHECK(out[32 + i] == a[i] + b[i]);
    CHECK(out[48 + i] == a[i] - b[i]);
    CHECK(out[64 + i] == a[i] * 3);
    prod *= i < 4 ? a[i] : 1;
    CHECK(out[80 + i] == prod);
    CHECK(out[96 + i] == a[i] + 1);
  }
  CHECK(atom[0] == (0x1F0 & (16 * 0x7F)));
  CHECK(atom[1] == 0x101);
  CHECK(atom[2] == (0x0F ^ 0xFF));
  for (int r = 0; r < 8; ++r)
    for (int c = 0; c < 4; ++c) {
      auto [si, sj] = swizzleReference(r, c, 8, 4, 3);
      CHECK(sw[r * 4 + c] == si * 100 + sj);
    }
}

TEST_CASE("language names: dtypes (bfloat16, float64, int1, uint8, uint16, fp8), cast, full, log, div_rn") {
  std::string src = std::string(kHeader) + R"PY(
@triton.jit
def k(x_ptr, out_ptr, wide_ptr, bits_ptr: tl.pointer_type):
    tl.static_assert(tl.bfloat16.primitive_bitwidth == 16 and tl.float64.primitive_bitwidth == 64)
    tl.static_assert(tl.uint8.is_int_unsigned() and tl.uint16.int_bitwidth == 16 and tl.int1.is_bool())
    tl.static_assert(tl.float8e4nv.is_fp8() and tl.float8e5.is_fp8())
    i = tl.arange(0, 8)
    x = tl.load(x_ptr + i)
    tl.store(out_ptr + i, x.to(tl.bfloat16).to(tl.float32))
    tl.store(out_ptr + 8 + i, x.to(tl.float8e4nv).to(tl.float32))
    tl.store(out_ptr + 16 + i, x.to(tl.float8e5).to(tl.float32))
    tl.store(out_ptr + 24 + i, tl.log(tl.exp(x)))
    tl.store(out_ptr + 32 + i, tl.div_rn(x, 4.0))
    tl.store(out_ptr + 40 + i, tl.full((8,), 2.5, tl.float32))
    tl.store(wide_ptr + i, tl.cast(x, tl.float64) * 3)
    big = (x * 100).to(tl.int32)
    tl.store(bits_ptr + i, big.to(tl.uint8).to(tl.int32))
    tl.store(bits_ptr + 8 + i, (big * 1000).to(tl.uint16).to(tl.int32))
    tl.store(bits_ptr + 16 + i, (x > 0).to(tl.int1).to(tl.int32))
    small = (x * 2).to(tl.int32)
    tl.store(bits_ptr + 24 + i, small.to(tl.float8e4nv).to(tl.int32) + small.to(tl.float8e5).to(tl.int32))
)PY";
  Module m = build(src, "k", "*fp32, *fp32, *fp64, *i32");
  std::vector<float> x = {1.5f, -2.0f, 0.25f, 3.0f, -0.5f, 4.0f, 0.0f, 6.0f}, out(48, -1);
  std::vector<double> wide(8, -1);
  std::vector<int32_t> bits(32, -1);
  Interpreter interp;
  interp.addBuffer(x.data(), x.size() * 4);
  interp.addBuffer(out.data(), out.size() * 4);
  interp.addBuffer(wide.data(), wide.size() * 8);
  interp.addBuffer(bits.data(), bits.size() * 4);
  run(interp, m, "k",
      {KernelArg::pointer(x.data(), Type::f32()), KernelArg::pointer(out.data(), Type::f32()),
       KernelArg::pointer(wide.data(), Type::f64()), KernelArg::pointer(bits.data(), Type::i32())});
  for (int i = 0; i < 8; ++i) {
    CAPTURE(i);
    CHECK(out[i] == x[i]); // exact in bf16, e4m3 and e5m2
    CHECK(out[8 + i] == x[i]);
    CHECK(out[16 + i] == x[i]);
    CHECK(std::fabs(out[24 + i] - x[i]) <= 1e-5f);
    CHECK(out[32 + i] == x[i] / 4);
    CHECK(out[40 + i] == 2.5f);
    CHECK(wide[i] == double(x[i]) * 3);
    int32_t big = int32_t(x[i] * 100);
    CHECK(bits[i] == int32_t(uint8_t(big)));
    CHECK(bits[8 + i] == int32_t(uint16_t(big * 1000)));
    CHECK(bits[16 + i] == (x[i] > 0 ? 1 : 0));
    CHECK(bits[24 + i] == 2 * int32_t(x[i] * 2)); // integers through fp8 and back, exact
  }
}

TEST_CASE(
    "language names: the random functions agree with each other (philox, philox_impl, randint, rand4x...)") {
  std::string src = std::string(kHeader) + R"PY(
@triton.jit
def k(out_ptr, seed):
    off = tl.arange(0, 16)
    zero = off * 0
    p0, p1, p2, p3 = tl.philox(seed, off, zero, zero, zero)
    key_lo = (seed & 0xFFFFFFFF).to(tl.uint32)
    key_hi = ((seed.to(tl.uint64) >> 32) & 0xFFFFFFFF).to(tl.uint32)
    u = off.to(tl.uint32)
    z = u * 0
    q0, q1, q2, q3 = tl.philox_impl(u, z, z, z, key_lo, key_hi)
    tl.store(out_ptr + off, (p0 == q0) & (p3 == q3))
    r = tl.randint(seed, off)
    tl.store(out_ptr + 16 + off, r == p0)
    f = tl.uint_to_uniform_float(r)
    a, _, _, _ = tl.rand4x(seed, off)
    tl.store(out_ptr + 32 + off, (f == tl.rand(seed, off)) & (a == f))
    n, _, _, _ = tl.randn4x(seed, off)
    u1 = tl.uint_to_uniform_float(p0)
    u2 = tl.uint_to_uniform_float(p1)
    g, _ = tl.pair_uniform_to_normal(u1, u2)
    tl.store(out_ptr + 48 + off, (n == g) & (g == tl.randn(seed, off)))
)PY";
  Module m = build(src, "k", "*i32, i64");
  std::vector<int32_t> out(64, -1);
  Interpreter interp;
  interp.addBuffer(out.data(), out.size() * 4);
  run(interp, m, "k", {KernelArg::pointer(out.data(), Type::i32()), KernelArg::i64(0x123456789LL)});
  for (int i = 0; i < 64; ++i) {
    CAPTURE(i);
    CHECK(out[i] == 1);
  }
}

TEST_CASE("the conformance list of triton.language names matches the frontend and the tests") {
  std::string root = std::string(TRIDENT_SAMPLES_DIR) + "/..";
  std::ifstream list(root + "/tests/frontend/conformance/triton_language.txt");
  REQUIRE(list);
  std::string line, asserts;
  std::set<std::string> seen;
  size_t understood = 0, total = 0;
  std::vector<std::pair<std::string, std::string>> tested; // name, file
  while (std::getline(list, line)) {
    if (line.empty() || line[0] == '#')
      continue;
    std::istringstream fields(line);
    std::string name, status, file;
    fields >> name >> status >> file;
    CAPTURE(line);
    REQUIRE((status == "yes" || status == "no"));
    CHECK(seen.insert(name).second);
    ++total;
    asserts += "    tl.static_assert(hasattr(tl, \"" + name +
               "\") == " + (status == "yes" ? "True" : "False") + ", \"" + name + "\")\n";
    if (status == "yes") {
      ++understood;
      REQUIRE(!file.empty());
      tested.emplace_back(name, file);
    }
  }
  MESSAGE("triton.language names understood: " << understood << " of " << total);
  CHECK(total >= 144);
  // hasattr(tl, name) is true exactly for the names listed as understood.
  std::string src = std::string(kHeader) + "@triton.jit\ndef k(p):\n" + asserts;
  CHECK(firstError(src, "k", "*fp32") == "no error");
  // Each understood name is used, as tl.<name>, by the test listed for it.
  for (const auto &[name, file] : tested) {
    CAPTURE(name);
    CAPTURE(file);
    std::ifstream in(root + "/" + file);
    REQUIRE(in);
    std::stringstream text;
    text << in.rdbuf();
    std::string s = text.str(), needle = "tl." + name;
    bool found = false;
    for (size_t p = s.find(needle); p != std::string::npos && !found; p = s.find(needle, p + 1)) {
      char after = p + needle.size() < s.size() ? s[p + needle.size()] : ' ';
      found = !std::isalnum(static_cast<unsigned char>(after)) && after != '_';
    }
    CHECK(found);
  }
}
