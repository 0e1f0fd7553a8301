// Dots on NVIDIA's matrix units (mma.sync, ldmatrix), lowered for sm_80 and run in the
// thread-IR simulator against the reference interpreter: every input type an atom takes
// (f16, bf16, f32 as tf32), operands stored transposed, shapes that need masks, 1 to 8
// warps, the K loop, a fused epilogue. The simulator executes th.mma and th.ldmatrix
// element by element and counts shared-memory bank conflicts.
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

struct DotCase {
  const char *dtype; // "fp16", "bf16", "fp32", "fp64" (f64 accumulator), "i8", "fp8e4nv", "fp8e5"
  int m, n, k;       // problem sizes
  int bm, bn, bk;    // block sizes
  unsigned warps;
  bool aTransposed, bTransposed; // stored transposed: A M-contiguous, B K-contiguous
  bool epilogue = false;
  unsigned stages = 3; // num_stages: 1 is no pipelining
  bool f16Accumulator = false; // out_dtype=tl.float16
  const char *arch = "sm_80";   // sm_90: wgmma; gfx90a, gfx942, gfx1100: MFMA / WMMA
  const char *precision = nullptr; // input_precision (default: tf32 for fp32, else ieee)
  bool fullMantissa = false;       // fp32 inputs uniform in [-1, 1] (not exact in tf32)
  float tolerance = 0;             // |interpreter - simulator| allowed (default: rounding only)
  bool descriptors = false;        // kDescriptorSource (A and B not transposed)
};

// A change of the lowered thread IR's text before it is simulated, and the error the
// simulator must then report (a test of the simulator's checks on real schedules).
struct Mutation {
  std::function<std::string(std::string)> edit;
  const char *expectError;
};

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

struct Outcome {
  int mma = 0, ldmatrix = 0, ldmatrixTrans = 0, asyncCopies = 0, wgmma = 0, tensorCopies = 0;
  std::string atom; // of the last th.mma or th.wgmma
  std::string wgmmaASharedMajor, wgmmaBMajor; // of the last th.wgmma: "k", "mn" (A: or "registers")
  uint64_t bankConflicts = 0;
  int64_t sharedBytes = 0;
  double maxError = 0; // the largest |interpreter - simulator|
};

Outcome runCase(const DotCase &c, const Mutation *mutation = nullptr) {
  std::string source = c.descriptors ? kDescriptorSource : kSource;
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
  std::string sam = c.aTransposed ? "1" : "i32:16", sak = c.aTransposed ? "i32:16" : "1";
  std::string sbk = c.bTransposed ? "1" : "i32:16", sbn = c.bTransposed ? "i32:16" : "1";
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
    amdgpu::HSACOOptions options; // no num_stages: AMD targets do not pipeline
    options.kernel = "dot_kernel";
    options.numWarps = c.warps;
    threadIR = amdgpu::lowerToThreadIR(*m, *target, options, diags);
#endif
  } else {
    target = nvptx::targetDesc(c.arch);
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
    outcome.tensorCopies += op->is(OpCode::ThTmaLoad);
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

} // namespace

TEST_CASE("fp16 dots run on mma.sync with ldmatrix, conflict-free, in 1 to 8 warps") {
  for (unsigned warps : {1u, 2u, 4u, 8u}) {
    INFO("warps " << warps);
    Outcome o = runCase({"fp16", 64, 64, 64, 64, 64, 32, warps, false, false});
    // (64/16) x (64/8) atoms x (32/16) k steps per program, spread over the warps
    // (thread IR is one thread's, so the warp's share).
    CHECK(o.mma == 64 / int(warps));
    CHECK(o.ldmatrix > 0);
    CHECK(o.ldmatrixTrans > 0); // B is N-contiguous: ldmatrix.trans
    CHECK(o.bankConflicts == 0);
  }
}

TEST_CASE("bf16 and tf32 dots, odd sizes with masks, several programs") {
  Outcome bf = runCase({"bf16", 100, 72, 80, 64, 32, 32, 4, false, false});
  CHECK(bf.mma > 0);
  Outcome tf = runCase({"fp32", 48, 40, 40, 32, 32, 16, 4, false, false});
  CHECK(tf.mma > 0);
  CHECK(tf.atom == "mma.m16n8k8.f32.tf32");
  CHECK(bf.atom == "mma.m16n8k16.f32.bf16");
  CHECK(tf.ldmatrix > 0); // A's 32-bit elements as pairs of 16-bit units; B by plain loads
  // B (n-contiguous) is read 4 bytes per lane at 4 k rows: its tile's swizzle is chosen
  // for those reads (16-byte units put two rows on the same banks: 256 conflicts here).
  Outcome wide = runCase({"fp32", 64, 64, 64, 64, 64, 32, 4, false, false});
  CHECK(wide.bankConflicts == 0);
}

TEST_CASE("tf32x3 dots: three tf32 products per step, within f32 rounding where tf32 is not") {
  // Inputs with full f32 mantissas: one tf32 product loses about 2^-11 of each, so plain
  // tf32 must miss a tolerance of 1e-4 over K = 64 that tf32x3 meets.
  DotCase x3 = {"fp32", 48, 40, 64, 32, 32, 16, 4, false, false};
  x3.precision = "tf32x3";
  x3.fullMantissa = true;
  x3.tolerance = 1e-4f;
  Outcome three = runCase(x3);
  CHECK(three.atom == "mma.m16n8k8.f32.tf32");
  DotCase one = x3;
  one.precision = "tf32";
  one.tolerance = 1.0f; // only measured
  Outcome single = runCase(one);
  CHECK(three.mma == 3 * single.mma);
  MESSAGE("largest error: tf32x3 " << three.maxError << ", tf32 " << single.maxError);
  CHECK(three.maxError < 1e-4);
  CHECK(single.maxError > 1e-4);
}

TEST_CASE("f64 dots run on mma.m8n8k4") {
  Outcome o = runCase({"fp64", 64, 32, 48, 32, 32, 16, 4, false, false});
  CHECK(o.atom == "mma.m8n8k4.f64.f64");
  CHECK(o.mma == 16); // per warp: 4 of the 16 8x8 atoms of the tile, in each of 4 k steps
  CHECK(o.asyncCopies > 0);
  // A and B fragments are 8 bytes per lane, 4 lanes along a row of the tile: 32-byte
  // swizzle units keep the 4 rows a 16-lane phase reads on distinct banks (16-byte units,
  // the ldmatrix tiles', gave 1024 conflicts for the benchmark's 64x64x32 tile).
  Outcome bench = runCase({"fp64", 64, 64, 64, 64, 64, 32, 4, false, false});
  CHECK(bench.bankConflicts == 0);
  Outcome odd = runCase({"fp64", 40, 24, 20, 32, 32, 16, 2, true, false, true});
  CHECK(odd.mma > 0);
}

TEST_CASE("int8 dots run on mma.m16n8k32 into exact i32") {
  Outcome o = runCase({"i8", 64, 64, 96, 64, 64, 32, 4, false, false});
  CHECK(o.mma == 8); // warps 2 x 2: (32/16) x (32/8) atoms per warp, one k step of 32 per tile
  CHECK(o.atom == "mma.m16n8k32.s32.s8");
  CHECK(o.asyncCopies > 0);
  CHECK(o.ldmatrix > 0); // A, k-contiguous: bytes in pairs of 16-bit units
  Outcome odd = runCase({"i8", 40, 24, 48, 32, 32, 32, 2, false, false});
  CHECK(odd.mma > 0);
}

TEST_CASE("fp8 dots (e4m3, e5m2) run on mma.m16n8k32 on sm_89 and sm_90, multiply-adds on sm_80") {
  for (const char *arch : {"sm_89", "sm_90"}) {
    INFO(std::string(arch));
    DotCase e4 = {"fp8e4nv", 64, 64, 128, 64, 64, 64, 4, false, false};
    e4.arch = arch;
    Outcome o = runCase(e4);
    CHECK(o.mma > 0);
    CHECK(o.atom == "mma.m16n8k32.f32.e4m3");
    CHECK(o.asyncCopies > 0);
    CHECK(o.ldmatrix > 0); // A; B (n-contiguous) is read byte by byte, not conflict-free yet
    DotCase e5 = {"fp8e5", 40, 24, 72, 32, 32, 32, 2, false, false, true}; // masked edges, epilogue
    e5.arch = arch;
    Outcome odd = runCase(e5);
    CHECK(odd.atom == "mma.m16n8k32.f32.e5m2");
  }
  CHECK(runCase({"fp8e4nv", 64, 64, 64, 64, 64, 32, 4, false, false}).mma == 0);
}

TEST_CASE("f16 dots with f16 accumulators (out_dtype=tl.float16) take the f16 atom") {
  DotCase c{"fp16", 64, 64, 64, 64, 64, 32, 4, false, false};
  c.f16Accumulator = true;
  Outcome o = runCase(c);
  CHECK(o.mma == 16);
  CHECK(o.atom == "mma.m16n8k16.f16.f16");
}

TEST_CASE("transposed operands take ldmatrix.trans for A and plain ldmatrix for B") {
  Outcome o = runCase({"fp16", 64, 64, 64, 64, 64, 32, 4, true, true});
  CHECK(o.mma > 0);
  CHECK(o.ldmatrixTrans > 0);
  CHECK(o.ldmatrix > o.ldmatrixTrans);
  CHECK(o.bankConflicts == 0);
}

TEST_CASE("a fused epilogue works on the accumulator layout") {
  Outcome o = runCase({"fp16", 64, 128, 32, 64, 128, 32, 8, false, false, true});
  CHECK(o.mma > 0);
}

TEST_CASE("1 to 5 pipeline stages: cp.async rings ordered by waits and barriers the simulator checks") {
  for (unsigned stages : {1u, 2u, 3u, 4u, 5u}) {
    INFO("stages " << stages);
    // K = 160: five k tiles, so every depth has a steady state and a drained tail.
    Outcome o = runCase({"fp16", 64, 64, 160, 64, 64, 32, 4, false, false, false, stages});
    CHECK(o.mma == 16);
    CHECK((o.asyncCopies > 0) == (stages > 1));
    CHECK(o.bankConflicts == 0);
  }
  // The last k tile is half past K (K = 80, BK = 32): its masked half is copied as zeros.
  Outcome o = runCase({"fp16", 64, 64, 80, 64, 64, 32, 4, false, false, false, 3});
  CHECK(o.asyncCopies > 0);
}

TEST_CASE("sm_90: descriptor loads of a dot loop come by tensor copies (th.tma_load), tails read zeros") {
  // A 64 x 64 and B 64 x 128 tiles of f16 (one and two 128-byte-wide copies a stage), and
  // sizes that leave partial boxes at every edge; bf16 on 8 warps.
  DotCase even{"fp16", 128, 256, 192, 64, 128, 64, 4, false, false, false, 3, false, "sm_90"};
  even.descriptors = true;
  Outcome o = runCase(even);
  CHECK(o.wgmma > 0);
  CHECK(o.tensorCopies == 3 * 3); // 3 copies a stage: the prologue's 2 stages ahead, then the body's
  CHECK(o.asyncCopies == 0);
  DotCase tails{"fp16", 100, 200, 90, 64, 128, 64, 4, false, false, true, 3, false, "sm_90"};
  tails.descriptors = true;
  CHECK(runCase(tails).tensorCopies > 0);
  DotCase wide{"bf16", 128, 256, 128, 128, 256, 64, 8, false, false, false, 4, false, "sm_90"};
  wide.descriptors = true;
  CHECK(runCase(wide).tensorCopies > 0);
  // sm_80 has no tensor maps: the same kernel's loads are masked loads, copied by cp.async
  // where the sizes are multiples of 16 (else their masks cut the 16-byte copies).
  DotCase ampere{"fp16", 128, 256, 192, 64, 128, 64, 4, false, false, false, 3, false, "sm_80"};
  ampere.descriptors = true;
  Outcome a = runCase(ampere);
  CHECK(a.tensorCopies == 0);
  CHECK(a.asyncCopies > 0);
}

TEST_CASE("sm_90: dots run on wgmma from canonical shared tiles, both majors, 4 and 8 warps, the simulator checks") {
  struct Wg {
    DotCase c;
    const char *atom;
    int wgmma;
    const char *aMajor, *bMajor;
  };
  std::vector<Wg> cases = {
      // One warpgroup, 64 x 64 tile: 2 k steps of 16 per 32-wide k tile, one n64 atom.
      {{"fp16", 64, 64, 96, 64, 64, 32, 4, false, false, false, 3, false, "sm_90"}, "wgmma.m64n64k16.f32.f16", 2,
       "k", "mn"},
      // Two warpgroups along M, one m64n256 atom each per k step, 128B-swizzled blocks.
      {{"fp16", 128, 256, 128, 128, 256, 64, 8, false, false, false, 3, false, "sm_90"},
       "wgmma.m64n256k16.f32.f16", 4, "k", "mn"},
      // Transposed operands: A M-major, B K-major; masked edges; bf16.
      {{"bf16", 100, 136, 72, 64, 128, 32, 4, true, true, false, 2, false, "sm_90"},
       "wgmma.m64n128k16.f32.bf16", 2, "mn", "k"},
      // Not pipelined (num_stages = 1): operands written to shared memory by the threads.
      {{"fp16", 64, 128, 64, 64, 128, 64, 4, false, false, false, 1, false, "sm_90"},
       "wgmma.m64n128k16.f32.f16", 4, "k", "mn"},
      // 8 warps on a 64-row tile: the warpgroups split N.
      {{"fp16", 64, 256, 64, 64, 256, 32, 8, false, false, true, 3, false, "sm_90"},
       "wgmma.m64n128k16.f32.f16", 2, "k", "mn"},
  };
  for (const Wg &w : cases) {
    INFO(std::string(w.atom) << " " << w.c.m << "x" << w.c.n << "x" << w.c.k);
    Outcome o = runCase(w.c);
    CHECK(o.atom == w.atom);
    CHECK(o.wgmma == w.wgmma);
    CHECK(o.mma == 0);
    CHECK(o.wgmmaASharedMajor == w.aMajor);
    CHECK(o.wgmmaBMajor == w.bMajor);
  }
  DotCase half{"fp16", 64, 64, 64, 64, 64, 32, 4, false, false, false, 3, true, "sm_90"};
  CHECK(runCase(half).atom == "wgmma.m64n64k16.f16.f16");
}

TEST_CASE("sm_90: tf32, int8 and fp8 dots run on wgmma when both operands are K-contiguous, on mma.sync otherwise") {
  struct Wg {
    DotCase c;
    const char *atom;
  };
  std::vector<Wg> cases = {
      // A row-major, B stored transposed (k-contiguous, as a weight matrix is): wgmma.
      {{"fp32", 64, 128, 64, 64, 128, 32, 4, false, true, false, 3, false, "sm_90"}, "wgmma.m64n128k8.f32.tf32"},
      {{"i8", 64, 64, 192, 64, 64, 64, 4, false, true, false, 3, false, "sm_90"}, "wgmma.m64n64k32.s32.s8"},
      {{"fp8e4nv", 64, 128, 128, 64, 128, 64, 4, false, true, true, 3, false, "sm_90"},
       "wgmma.m64n128k32.f32.e4m3"},
      // Masked edges, not pipelined.
      {{"fp8e5", 72, 80, 96, 64, 64, 32, 4, false, true, false, 1, false, "sm_90"}, "wgmma.m64n64k32.f32.e5m2"},
      // B n-contiguous (row-major): only mma.sync reads it.
      {{"fp32", 64, 64, 64, 64, 64, 32, 4, false, false, false, 3, false, "sm_90"}, "mma.m16n8k8.f32.tf32"},
      {{"i8", 64, 64, 64, 64, 64, 32, 4, false, false, false, 3, false, "sm_90"}, "mma.m16n8k32.s32.s8"},
  };
  for (const Wg &w : cases) {
    INFO(std::string(w.c.dtype) << " " << w.atom);
    Outcome o = runCase(w.c);
    CHECK(o.atom == w.atom);
    if (std::string_view(w.atom).starts_with("wgmma")) {
      CHECK(o.wgmma > 0);
      CHECK(o.wgmmaASharedMajor == "k");
      CHECK(o.wgmmaBMajor == "k");
    }
  }
  // tf32x3 splits its operands in registers: mma.sync even when both are K-contiguous.
  DotCase x3{"fp32", 64, 64, 64, 64, 64, 32, 4, false, true, false, 3, false, "sm_90"};
  x3.precision = "tf32x3";
  CHECK(runCase(x3).atom == "mma.m16n8k8.f32.tf32");
}

// Changes the lines of `text` that contain every one of `needles` (all of them, or only
// the last with `lastOnly`) by `edit`.
std::string editLines(const std::string &text, std::vector<std::string> needles,
                      const std::function<std::string(std::string)> &edit, bool lastOnly = false) {
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

TEST_CASE("sm_90: the simulator sees a wgmma schedule that reads or overwrites operands too early") {
  // A pipelined wgmma dot of 6 k tiles in 3 stages; each change of its schedule is a
  // real bug the GPU would not report.
  DotCase base{"fp16", 64, 64, 96, 64, 64, 16, 4, false, false, false, 3, false, "sm_90"};
  // The loop's last group still in flight when the epilogue reads the accumulators.
  Mutation early{[](std::string t) {
                   return editLines(t, {"th.wgmma_wait", "pending = 0"},
                                    [](std::string l) { return replaced(l, "pending = 0", "pending = 1"); }, true);
                 },
                 "the result of a th.wgmma still in flight"};
  runCase(base, &early);
  // Two groups left in flight in the loop: the copies of a later tile overwrite the stage
  // the older one still reads.
  Mutation overwrite{[](std::string t) {
                       return editLines(t, {"th.wgmma_wait", "pending = 1"},
                                        [](std::string l) { return replaced(l, "pending = 1", "pending = 2"); });
                     },
                     "is written while a th.wgmma in flight reads it"};
  runCase(base, &overwrite);
  // The copies' bytes reach wgmma without a fence for the async proxy.
  Mutation unfenced{
      [](std::string t) { return editLines(t, {"th.fence_async_shared"}, [](std::string) { return std::string(); }); },
      "read by the async proxy after a write no th.fence_async_shared ordered before it"};
  runCase(base, &unfenced);
  // As lowered, the schedule passes.
  CHECK(runCase(base).wgmma > 0);
}

#ifdef TRIDENT_HAVE_AMDGPU
TEST_CASE("AMD: dots run on MFMA (gfx90a, gfx942: wave64) and WMMA (gfx1100: wave32), simulated from the ISA") {
  struct Amd {
    DotCase c;
    const char *atom;
    int mma; // th.mma per thread in the kernel's text (the K loop's body counted once)
  };
  auto amd = [](const char *arch, const char *dtype, int m, int n, int k, int bm, int bn, int bk, unsigned warps,
                bool at = false, bool bt = false, bool epilogue = false) {
    DotCase c{dtype, m, n, k, bm, bn, bk, warps, at, bt, epilogue};
    c.arch = arch;
    return c;
  };
  std::vector<Amd> cases = {
      // 64 x 64 on 4 waves: 2 x 2 waves of one 32x32 atom each, 4 k steps of 8 per 32-wide k tile.
      {amd("gfx90a", "fp16", 64, 64, 64, 64, 64, 32, 4), "v_mfma_f32_32x32x8f16", 4},
      {amd("gfx942", "fp16", 64, 64, 64, 64, 64, 32, 4), "v_mfma_f32_32x32x8_f16", 4},
      // 64 x 32 would leave two of four waves idle on 32x32 atoms: 16x16 ones, 2 per wave and k step.
      // Sizes off the blocks (masks), several programs.
      {amd("gfx90a", "bf16", 100, 72, 80, 64, 32, 32, 4), "v_mfma_f32_16x16x16bf16_1k", 4},
      {amd("gfx942", "bf16", 100, 72, 80, 64, 32, 32, 4), "v_mfma_f32_16x16x16_bf16", 4},
      // int8 into exact i32: gfx942 has k = 16 per 32x32 atom, gfx90a k = 8.
      {amd("gfx90a", "i8", 64, 64, 96, 64, 64, 32, 4), "v_mfma_i32_32x32x8i8", 4},
      {amd("gfx942", "i8", 64, 64, 96, 64, 64, 32, 4), "v_mfma_i32_32x32x16_i8", 2},
      {amd("gfx942", "i8", 40, 24, 48, 32, 32, 32, 2), "v_mfma_i32_16x16x32_i8", 2},
      // Both operands stored transposed, 8 waves (4 x 2), a fused epilogue; 1 wave alone.
      {amd("gfx942", "fp16", 128, 128, 64, 128, 128, 32, 8, true, true, true), "v_mfma_f32_32x32x8_f16", 8},
      {amd("gfx90a", "fp16", 32, 32, 32, 32, 32, 16, 1), "v_mfma_f32_32x32x8f16", 2},
      // gfx1100: 16x16x16 on wave32, A and B repeated in both half-waves.
      {amd("gfx1100", "fp16", 64, 64, 64, 64, 64, 32, 4), "v_wmma_f32_16x16x16_f16", 8},
      {amd("gfx1100", "bf16", 48, 40, 40, 32, 32, 32, 2, true, true), "v_wmma_f32_16x16x16_bf16", 4},
      {amd("gfx1100", "i8", 64, 64, 96, 64, 64, 32, 4), "v_wmma_i32_16x16x16_iu8", 8},
      {amd("gfx1100", "fp16", 64, 128, 32, 64, 128, 32, 8, false, false, true), "v_wmma_f32_16x16x16_f16", 8},
  };
  for (const Amd &a : cases) {
    INFO(std::string(a.c.arch) << " " << std::string(a.c.dtype) << " " << a.c.m << "x" << a.c.n << "x" << a.c.k << ", " << a.c.warps
                  << " waves");
    Outcome o = runCase(a.c);
    CHECK(o.atom == a.atom);
    CHECK(o.mma == a.mma);
    CHECK(o.ldmatrix == 0);
    CHECK(o.asyncCopies == 0); // no cp.async on AMD: num_stages acts as 1
    CHECK(o.sharedBytes <= 64 * 1024);
    CHECK(o.bankConflicts == 0);
  }
  // f16 accumulators (out_dtype=tl.float16): no AMD atom takes them; multiply-adds.
  DotCase half = amd("gfx942", "fp16", 64, 64, 32, 64, 64, 32, 4);
  half.f16Accumulator = true;
  CHECK(runCase(half).mma == 0);
}
#endif

TEST_CASE("sm_90 tensor copies: the simulator fails copies missing from a phase and reads before its wait") {
  DotCase c{"fp16", 128, 256, 192, 64, 128, 64, 4, false, false, false, 3, false, "sm_90"};
  c.descriptors = true;
  // Every tensor copy gone: each stage's phase expects a tile's bytes that never come.
  Mutation missing{[](std::string t) { return editLines(t, {"th.tma_load"}, [](std::string) { return std::string(); }); },
                   "bytes of tensor copies and gets 0"};
  runCase(c, &missing);
  // No wait in the loop: th.wgmma reads a stage whose copies have not landed.
  Mutation unwaited{[](std::string t) {
                      return editLines(t, {"th.mbarrier_wait"}, [](std::string) { return std::string(); });
                    },
                    "while an asynchronous copy to it is pending"};
  runCase(c, &unwaited);
}
