// The harness of dot_mma_tests (DotHarness.h). Dots on NVIDIA's matrix units (mma.sync, ldmatrix), lowered for sm_80 and run in the
// thread-IR simulator against the reference interpreter: every input type an atom takes
// (f16, bf16, f32 as tf32), operands stored transposed, shapes that need masks, 1 to 8
// warps, the K loop, a fused epilogue. The simulator executes th.mma and th.ldmatrix
// element by element and counts shared-memory bank conflicts.
#include "DotHarness.h"

#include "../core/simt/ThreadSim.h"
#ifdef TRIDENT_HAVE_AMDGPU
#include "trident/backends/amdgpu/CodeGen.h"
#include "trident/backends/amdgpu/Target.h"
#endif
#include "trident/backends/nvptx/CodeGen.h"
#include "trident/backends/nvptx/Target.h"
#include "trident/frontend/Frontend.h"
#include "trident/interp/Interpreter.h"
#include "trident/ir/Parser.h"
#include "trident/ir/Printer.h"
#include "trident/ir/Verifier.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <functional>
#include <sstream>
#include <random>

using namespace trident;
using namespace trident::test;

namespace {

// C = A @ B (+ a leaky ReLU when EPILOGUE); A is M x K with strides (sam, sak), B is K x N
// with (sbk, sbn), C is M x N row-major f32 (i32 for int8). Rows, columns and k past the
// sizes are masked.
const char *kSource = R"(
import triton
import triton.language as tl

@triton.jit
def dot_kernel(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn,
               BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, EPILOGUE: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    rk = tl.arange(0, BK)
    acc = tl.zeros((BM, BN), dtype=ACC)
    for k in range(0, K, BK):
        kk = k + rk
        a = tl.load(a_ptr + rm[:, None] * sam + kk[None, :] * sak, mask=(rm[:, None] < M) & (kk[None, :] < K), other=0.0)
        b = tl.load(b_ptr + kk[:, None] * sbk + rn[None, :] * sbn, mask=(kk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(a, b, acc, input_precision="PRECISION"OUTDTYPE)
    if EPILOGUE:
        acc = tl.where(acc >= 0, acc, 0.01 * acc)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))
)";

// The same product through tensor descriptors over the pointers (A and B row-major):
// on sm_90 the loop's tiles come by the tensor-copy engine (th.tma_load), elsewhere as
// masked loads; boxes past the sizes read zeros either way.
const char *kDescriptorSource = R"(
import triton
import triton.language as tl

@triton.jit
def dot_kernel(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn,
               BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, EPILOGUE: tl.constexpr):
    a_desc = tl.make_tensor_descriptor(a_ptr, [M, K], [sam, 1], [BM, BK])
    b_desc = tl.make_tensor_descriptor(b_ptr, [K, N], [sbk, 1], [BK, BN])
    pm = tl.program_id(0) * BM
    pn = tl.program_id(1) * BN
    rm = pm + tl.arange(0, BM)
    rn = pn + tl.arange(0, BN)
    acc = tl.zeros((BM, BN), dtype=ACC)
    for k in range(0, K, BK):
        acc = tl.dot(a_desc.load([pm, k]), b_desc.load([k, pn]), acc, input_precision="PRECISION"OUTDTYPE)
    if EPILOGUE:
        acc = tl.where(acc >= 0, acc, 0.01 * acc)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))
)";



// The product through block pointers, as attention's K and V loops read them: A's base
// moves to the program's rows (a term pid * BM * sam the tensor map takes as a dimension
// of its own), B is read in order (0, 1) (K-contiguous when stored transposed), and
// boundary_check pads the k tail.
const char *kBlockPointerSource = R"(
import triton
import triton.language as tl

@triton.jit
def dot_kernel(a_ptr, b_ptr, c_ptr, M, N, K, sam, sak, sbk, sbn,
               BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr, EPILOGUE: tl.constexpr):
    pid_m = tl.program_id(0)
    pn = tl.program_id(1) * BN
    a_rows = a_ptr + (pid_m * BM).to(tl.int64) * sam
    a_block = tl.make_block_ptr(a_rows, (BM, K), (sam, sak), (0, 0), (BM, BK), order=(1, 0))
    b_block = tl.make_block_ptr(b_ptr, (K, N), (sbk, sbn), (0, pn), (BK, BN), order=(0, 1))
    acc = tl.zeros((BM, BN), dtype=ACC)
    for k in range(0, K, BK):
        a = tl.load(a_block, boundary_check=(0, 1))
        b = tl.load(b_block, boundary_check=(0, 1))
        acc = tl.dot(a, b, acc, input_precision="PRECISION"OUTDTYPE)
        a_block = tl.advance(a_block, (0, BK))
        b_block = tl.advance(b_block, (BK, 0))
    if EPILOGUE:
        acc = tl.where(acc >= 0, acc, 0.01 * acc)
    rm = pid_m * BM + tl.arange(0, BM)
    rn = pn + tl.arange(0, BN)
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], acc, mask=(rm[:, None] < M) & (rn[None, :] < N))
)";

uint16_t toHalfBits(float f, bool bf16) {
  if (bf16) {
    uint32_t x = std::bit_cast<uint32_t>(f);
    return uint16_t((x + 0x7fffu + ((x >> 16) & 1)) >> 16);
  }
  // Values here are k / 64 with small k: exact in f16.
  _Float16 h = static_cast<_Float16>(f);
  return std::bit_cast<uint16_t>(h);
}

bool isFp8(const DotCase &c) { return std::string_view(c.dtype).starts_with("fp8"); }

// The fp8 code of `v` (OCP e4m3: 3 mantissa bits, bias 7; e5m2: 2 bits, bias 15), found
// by decoding every code; `v` must be exact in the format.
uint8_t fp8Bits(float v, bool e4m3) {
  int mantissaBits = e4m3 ? 3 : 2, bias = e4m3 ? 7 : 15;
  for (int code = 0; code < 256; ++code) {
    int e = (code & 0x7f) >> mantissaBits, m = code & ((1 << mantissaBits) - 1);
    float mag = e == 0 ? std::ldexp(float(m), 1 - bias - mantissaBits)
                       : std::ldexp(1.0f + float(m) / float(1 << mantissaBits), e - bias);
    if ((code & 0x80 ? -mag : mag) == v && !(v == 0 && code & 0x80))
      return uint8_t(code);
  }
  FAIL("not exact in fp8: " << v);
  return 0;
}

// Elements of A or B: small multiples of 1/64 (exact in every input type, so the
// interpreter and the matrix unit see the same numbers); for fp8, i/8 with |i| <= 16
// (e4m3) or i/4 with |i| <= 8 (e5m2), which have as many significant bits as the format.
std::vector<uint8_t> matrixBytes(const DotCase &c, size_t count, uint32_t seed) {
  std::mt19937 gen(seed);
  std::uniform_int_distribution<int> dist(-64, 64);
  bool wide = std::string(c.dtype) == "fp32", bytesOnly = std::string(c.dtype) == "i8";
  bool e4m3 = std::string(c.dtype) == "fp8e4nv";
  std::uniform_int_distribution<int> fp8Dist(e4m3 ? -16 : -8, e4m3 ? 16 : 8);
  bool f64 = std::string(c.dtype) == "fp64";
  std::vector<uint8_t> bytes(count * (f64 ? 8 : wide ? 4 : bytesOnly || isFp8(c) ? 1 : 2));
  for (size_t i = 0; i < count; ++i) {
    float v = c.fullMantissa ? std::uniform_real_distribution<float>(-1, 1)(gen) : float(dist(gen)) / 64.0f;
    if (isFp8(c)) {
      bytes[i] = fp8Bits(float(fp8Dist(gen)) / (e4m3 ? 8.0f : 4.0f), e4m3);
    } else if (bytesOnly) {
      bytes[i] = static_cast<uint8_t>(static_cast<int8_t>(dist(gen)));
    } else if (f64) {
      double d = v;
      std::memcpy(&bytes[i * 8], &d, 8);
    } else if (wide) {
      std::memcpy(&bytes[i * 4], &v, 4);
    } else {
      uint16_t h = toHalfBits(v, std::string(c.dtype) == "bf16");
      std::memcpy(&bytes[i * 2], &h, 2);
    }
  }
  return bytes;
}


} // namespace

namespace trident::test {

Outcome runCase(const DotCase &c, const Mutation *mutation) {
  std::string source = c.descriptors ? kDescriptorSource : c.blockPointers ? kBlockPointerSource : kSource;
  std::string precision = c.precision ? c.precision : std::string(c.dtype) == "fp32" ? "tf32" : "ieee";
  source.replace(source.find("PRECISION"), 9, precision);
  bool integer = std::string(c.dtype) == "i8";
  source.replace(source.find("ACC"), 3,
                 integer                             ? "tl.int32"
                 : c.f16Accumulator                  ? "tl.float16"
                 : std::string(c.dtype) == "fp64" ? "tl.float64"
                                                     : "tl.float32");
  source.replace(source.find("OUTDTYPE"), 8, c.f16Accumulator ? ", out_dtype=tl.float16" : "");
  std::string p = std::string("*") + c.dtype + ":16";
  std::string out = integer ? "*i32:16" : "*fp32:16";
  // Unit strides are specialized (as the runtime does), so the loads vectorize along them.
  std::string stride = c.stridesUnknown ? "i32" : "i32:16";
  std::string sam = c.aTransposed ? "1" : stride, sak = c.aTransposed ? stride : "1";
  std::string sbk = c.bTransposed ? "1" : stride, sbn = c.bTransposed ? stride : "1";
  // Sizes that are multiples of 16 are declared so (masks then allow vector accesses).
  bool divisible = c.m % 16 == 0 && c.n % 16 == 0 && c.k % 16 == 0;
  std::string size = divisible ? "i32:16" : "i32";
  std::string signature = p + ", " + p + ", " + out + ", " + size + ", " + size + ", " + size + ", " + sam + ", " + sak + ", " + sbk + ", " + sbn +
                          ", " + std::to_string(c.bm) + ", " + std::to_string(c.bn) + ", " + std::to_string(c.bk) +
                          ", " + (c.epilogue ? "1" : "0");
  INFO(signature);
  Diagnostics diags;
  auto sig = parseSignature(signature, diags);
  REQUIRE(sig);
  CompileRequest request;
  request.kernel = "dot_kernel";
  request.args = *sig;
  std::optional<Module> m = compileKernel(source, "dot.py", request, diags);
  INFO(diags.str());
  REQUIRE(m);
  REQUIRE(verify(*m, diags));

  // Strides padded to multiples of 16 elements, as the signature promises.
  auto pad = [](int v) { return (v + 15) / 16 * 16; };
  int lda = c.aTransposed ? pad(c.m) : pad(c.k), ldb = c.bTransposed ? pad(c.k) : pad(c.n);
  size_t aCount = size_t(c.aTransposed ? c.k : c.m) * lda, bCount = size_t(c.bTransposed ? c.n : c.k) * ldb;
  std::vector<uint8_t> a = matrixBytes(c, aCount, 1), b = matrixBytes(c, bCount, 2);
  std::vector<float> ref(size_t(c.m) * c.n, NAN), sim(ref);
  int32_t strides[4] = {c.aTransposed ? 1 : lda, c.aTransposed ? lda : 1, c.bTransposed ? 1 : ldb,
                        c.bTransposed ? ldb : 1};
  std::array<uint32_t, 3> grid = {uint32_t((c.m + c.bm - 1) / c.bm), uint32_t((c.n + c.bn - 1) / c.bn), 1};

  Type elem = std::string(c.dtype) == "fp64"   ? Type::f64()
              : std::string(c.dtype) == "fp16" ? Type::f16()
              : std::string(c.dtype) == "bf16" ? Type::bf16()
              : integer                        ? Type::i8()
              : std::string(c.dtype) == "fp8e4nv" ? Type::f8e4m3()
              : std::string(c.dtype) == "fp8e5"   ? Type::f8e5m2()
                                               : Type::f32();
  Interpreter interp;
  interp.addBuffer(a.data(), a.size());
  interp.addBuffer(b.data(), b.size());
  interp.addBuffer(ref.data(), ref.size() * 4);
  std::vector<KernelArg> args = {KernelArg::pointer(a.data(), elem), KernelArg::pointer(b.data(), elem),
                                 KernelArg::pointer(ref.data(), integer ? Type::i32() : Type::f32()), KernelArg::i32(c.m),
                                 KernelArg::i32(c.n), KernelArg::i32(c.k)};
  // Specialized unit strides are not parameters any more.
  for (int32_t s : strides)
    if (s != 1)
      args.push_back(KernelArg::i32(s));
  bool interpreted = interp.run(*m, "dot_kernel", args, grid, diags);
  INFO(diags.str());
  REQUIRE(interpreted);

  std::optional<TargetDesc> target;
  std::optional<Module> threadIR;
  if (std::string_view(c.arch).starts_with("gfx")) {
#ifdef TRIDENT_HAVE_AMDGPU
    target = amdgpu::targetDesc(c.arch);
    amdgpu::HSACOOptions options; // num_stages >= 2: loads an iteration ahead into registers
    options.kernel = "dot_kernel";
    options.numWarps = c.warps;
    options.numStages = c.stages;
    threadIR = amdgpu::lowerToThreadIR(*m, *target, options, diags);
#endif
  } else {
    target = nvptx::targetDesc(c.arch);
    target->blockPointerTensorMaps = c.blockPointers && target->tensorMaps; // TRIDENT_CUDA_TMA=all
    nvptx::PTXOptions options;
    options.kernel = "dot_kernel";
    options.numWarps = c.warps;
    options.numStages = c.stages;
    threadIR = nvptx::lowerToThreadIR(*m, *target, options, diags);
  }
  REQUIRE(target);
  INFO(diags.str());
  REQUIRE(threadIR);
  Outcome outcome;
  threadIR->op()->walk([&](Op *op) {
    if (op->is(OpCode::ThMma)) {
      ++outcome.mma;
      outcome.atom = op->stringAttr("atom");
    }
    if (op->is(OpCode::ThWgmma)) {
      ++outcome.wgmma;
      outcome.atom = op->stringAttr("atom");
      outcome.wgmmaASharedMajor = op->stringAttr("a") == "shared" ? op->stringAttr("a_major") : "registers";
      outcome.wgmmaBMajor = op->stringAttr("b_major");
    }
    outcome.asyncCopies += op->is(OpCode::ThAsyncCopy);
    if (op->is(OpCode::ThLoad)) {
      const Op *p = op->parentOp();
      while (p && !p->is(OpCode::For) && !p->is(OpCode::Func))
        p = p->parentOp();
      outcome.loadsOutsideLoops += p && p->is(OpCode::Func);
    }
    if (op->is(OpCode::ThTmaLoad)) {
      ++outcome.tensorCopies;
      outcome.tensorCopyRank = std::max(outcome.tensorCopyRank, int(op->numOperands()) - 6);
    }
    if (op->is(OpCode::ThLdMatrix)) {
      ++outcome.ldmatrix;
      outcome.ldmatrixTrans += op->intAttr("trans") != 0;
    }
  });

  if (mutation) {
    std::string text = mutation->edit(print(*threadIR));
    std::optional<Module> mutated = parseModule(text, "mutated.ttir", diags);
    INFO(diags.str());
    REQUIRE(mutated);
    threadIR = std::move(mutated);
  }
  simt::test::ThreadSim simulator(target->warpSize, target->matrixAtoms);
  simulator.setCoopMatrices(target->coopMatrices);
  simulator.addBuffer(a.data(), a.size());
  simulator.addBuffer(b.data(), b.size());
  simulator.addBuffer(sim.data(), sim.size() * 4);
  std::vector<uint64_t> simArgs = {reinterpret_cast<uint64_t>(a.data()), reinterpret_cast<uint64_t>(b.data()),
                                   reinterpret_cast<uint64_t>(sim.data()), uint32_t(c.m), uint32_t(c.n),
                                   uint32_t(c.k)};
  for (int32_t s : strides)
    if (s != 1)
      simArgs.push_back(uint32_t(s));
  std::string error;
  bool ran = simulator.run(*threadIR, "dot_kernel", simArgs, grid, error);
  INFO(error);
  if (mutation) {
    CHECK(!ran);
    CHECK(error.find(mutation->expectError) != std::string::npos);
    return outcome;
  }
  REQUIRE(ran);
  outcome.bankConflicts = simulator.bankConflicts();
  outcome.sharedBytes = threadIR->functions()[0]->intAttr("shared_bytes");
  // Exact inputs, sums of at most K products: f32 accumulation in another order
  // differs by rounding only (tf32 rounding is exact on these inputs too); int8 into
  // i32 is exact.
  size_t bad = 0, first = SIZE_MAX;
  for (size_t i = 0; i < ref.size(); ++i) {
    // f16 accumulators round after every multiply-add in the interpreter and after
    // every 16 products on the matrix unit.
    float tolerance = c.tolerance ? c.tolerance : c.f16Accumulator ? 1e-2f : 1e-5f;
    if (!integer)
      outcome.maxError = std::max(outcome.maxError, double(std::fabs(ref[i] - sim[i])));
    bool same = integer ? std::bit_cast<int32_t>(ref[i]) == std::bit_cast<int32_t>(sim[i])
                        : std::fabs(ref[i] - sim[i]) <= tolerance * (1 + std::fabs(ref[i]));
    if (!same && !bad++)
      first = i;
  }
  INFO(bad << " of " << ref.size() << " differ; first at " << first << ": interpreter "
            << (bad ? ref[first] : 0) << ", simulator " << (bad ? sim[first] : 0));
  CHECK(bad == 0);
  return outcome;
}


std::string editLines(const std::string &text, std::vector<std::string> needles,
                      const std::function<std::string(std::string)> &edit, bool lastOnly) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);)
    lines.push_back(line);
  std::vector<size_t> hits;
  for (size_t i = 0; i < lines.size(); ++i)
    if (std::all_of(needles.begin(), needles.end(), [&](const std::string &n) { return lines[i].find(n) != std::string::npos; }))
      hits.push_back(i);
  REQUIRE(!hits.empty());
  for (size_t i : hits)
    if (!lastOnly || i == hits.back())
      lines[i] = edit(lines[i]);
  std::string out;
  for (const std::string &line : lines)
    out += line + "\n";
  return out;
}

std::string replaced(std::string line, const std::string &from, const std::string &to) {
  size_t at = line.find(from);
  REQUIRE(at != std::string::npos);
  return line.replace(at, from.size(), to);
}

} // namespace trident::test
