// Dots on AMD's matrix units, read back from the code objects: the tutorial matmul
// (samples/matmul.py at one of its autotune configs) and a 16x16 dot of each input type
// compile to v_mfma on gfx90a and gfx942 and to v_wmma on gfx1100, as LLVM's
// disassembler decodes them; the kernel descriptors state the LDS the thread IR
// allocates and register counts that agree with the metadata (AGPRs after
// ACCUM_OFFSET on gfx90a/gfx942). Whether the products are right is the simulator's
// part (dot_mma_tests, which runs the MFMA/WMMA semantics from the ISA).
#include "CodeObject.h"
#include "trident/backends/amdgpu/CodeGen.h"
#include "trident/backends/amdgpu/Target.h"
#include "trident/frontend/Frontend.h"
#include "trident/ir/Printer.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

using namespace trident;
namespace fs = std::filesystem;

namespace {

Module compile(const std::string &source, const std::string &file, const std::string &kernel,
               const std::string &signature) {
  Diagnostics diags;
  auto args = parseSignature(signature, diags);
  INFO(diags.str());
  REQUIRE(args.has_value());
  CompileRequest request;
  request.kernel = kernel;
  request.args = std::move(*args);
  std::optional<Module> m = compileKernel(source, file, request, diags);
  INFO(diags.str());
  REQUIRE(m.has_value());
  return std::move(*m);
}

std::string readFile(const fs::path &p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

size_t count(const std::string &text, const std::string &what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    ++n;
  return n;
}

struct Compiled {
  amdtest::CodeObjectView view;
  amdtest::KernelDescriptor kd;
  uint64_t sharedBytes = 0;
  std::string threadIR;
};

Compiled build(const Module &m, const std::string &arch, const std::string &kernel, unsigned warps) {
  Diagnostics diags;
  std::optional<TargetDesc> target = amdgpu::targetDesc(arch);
  REQUIRE(target);
  amdgpu::HSACOOptions options;
  options.kernel = kernel;
  options.numWarps = warps;
  Compiled c;
  c.threadIR = amdgpu::emitThreadIR(m, *target, options, diags);
  std::optional<amdgpu::HSACOModule> code = amdgpu::compileModuleToHSACO(m, *target, options, diags);
  INFO(diags.str());
  REQUIRE(code);
  REQUIRE(code->kernels.size() == 1);
  c.sharedBytes = code->kernels[0].sharedBytes;
  c.view = amdtest::inspect(code->hsaco);
  c.kd = amdtest::readKernelDescriptor(code->hsaco, kernel);
  if (const char *dir = std::getenv("TRIDENT_DUMP_DIR"))
    std::ofstream(fs::path(dir) / (kernel + "." + arch + ".hsaco"), std::ios::binary) << code->hsaco;
  return c;
}

// The descriptor against the metadata: LDS, and the VGPR granules (8 registers each on
// gfx90a/gfx942's unified file and on gfx11 in wave32) covering vgpr_count, which on
// gfx9 is ACCUM_OFFSET's VGPRs plus the AGPRs.
void checkRegisters(const Compiled &c, const std::string &arch) {
  REQUIRE(c.kd.found);
  REQUIRE(c.view.kernels.size() == 1);
  const amdtest::MetadataKernel &k = c.view.kernels[0];
  CHECK(c.kd.groupSegmentFixedSize == c.sharedBytes);
  CHECK(k.groupSegmentFixedSize == int64_t(c.sharedBytes));
  CHECK(c.sharedBytes <= 64 * 1024);
  REQUIRE(k.vgprCount > 0);
  CHECK(k.vgprCount <= (arch == "gfx1100" ? 256 : 512));
  CHECK((c.kd.computePgmRsrc1 & 0x3f) == uint32_t((k.vgprCount + 7) / 8 - 1));
  if (arch != "gfx1100") {
    REQUIRE(k.agprCount >= 0);
    int64_t accumOffset = ((c.kd.computePgmRsrc3 & 0x3f) + 1) * 4;
    if (k.agprCount > 0)
      CHECK(accumOffset + k.agprCount == k.vgprCount);
  }
}

const std::map<std::string, std::string> kMatmulAtom = {
    {"gfx90a", "v_mfma_f32_32x32x8f16"}, {"gfx942", "v_mfma_f32_32x32x8_f16"}, {"gfx1100", "v_wmma_f32_16x16x16_f16"}};

} // namespace

TEST_CASE("the tutorial matmul runs on v_mfma (gfx90a, gfx942) and v_wmma (gfx1100)") {
  // samples/matmul.py at its 128 x 128 x 32 config (4 waves), the specializations the
  // runtime gives aligned buffers and unit strides, with the leaky ReLU epilogue.
  Module m = compile(readFile(fs::path(TRIDENT_SAMPLES_DIR) / "matmul.py"), "matmul.py", "matmul_kernel",
                     "*fp16:16, *fp16:16, *fp16:16, i32:16, i32:16, i32:16, i32:16, 1, i32:16, 1, i32:16, 1, "
                     "128, 128, 32, 8, 'leaky_relu'");
  for (std::string_view a : amdgpu::supportedArchitectures()) {
    std::string arch(a);
    INFO(arch);
    Compiled c = build(m, arch, "matmul_kernel", 4);
    const std::string &atom = kMatmulAtom.at(arch);
    // Thread IR: one th.mma per atom of the wave's 64 x 64 (32x32 atoms) or 32 x 128
    // (16x16) tile and k step; the kernel is versioned (its % M and % N offsets), so
    // the loop is there twice.
    size_t perLoop = arch == "gfx1100" ? 16 * 2 : 4 * 4;
    CHECK(count(c.threadIR, "atom = \"" + atom + "\"") == 2 * perLoop);
    // The code object: the instruction itself, as LLVM decodes it, and no FMA fallback.
    INFO(c.view.disassembly.substr(0, 4000));
    CHECK(count(c.view.disassembly, atom + " ") >= perLoop);
    CHECK(count(c.view.disassembly, arch == "gfx1100" ? "v_mfma" : "v_wmma") == 0);
    checkRegisters(c, arch);
    if (arch != "gfx1100")
      CHECK(c.view.kernels[0].agprCount >= 0);
  }
}

TEST_CASE("every AMD atom reaches its instruction: f16, bf16 and int8 on 16x16 and 32x32 tiles") {
  const char *source = R"(
import triton
import triton.language as tl

@triton.jit
def tile_dot(a_ptr, b_ptr, c_ptr, M: tl.constexpr, N: tl.constexpr, K: tl.constexpr):
    rm = tl.arange(0, M)
    rn = tl.arange(0, N)
    rk = tl.arange(0, K)
    a = tl.load(a_ptr + rm[:, None] * K + rk[None, :])
    b = tl.load(b_ptr + rk[:, None] * N + rn[None, :])
    tl.store(c_ptr + rm[:, None] * N + rn[None, :], tl.dot(a, b))
)";
  struct Case {
    const char *arch, *dtype, *out;
    int m, k;
    unsigned warps;
    const char *instruction;
  };
  const Case cases[] = {
      {"gfx90a", "fp16", "fp32", 32, 16, 1, "v_mfma_f32_32x32x8f16"},
      {"gfx90a", "fp16", "fp32", 16, 16, 1, "v_mfma_f32_16x16x16f16"},
      {"gfx90a", "bf16", "fp32", 32, 16, 1, "v_mfma_f32_32x32x8bf16_1k"},
      {"gfx90a", "bf16", "fp32", 16, 16, 1, "v_mfma_f32_16x16x16bf16_1k"},
      {"gfx90a", "i8", "i32", 32, 16, 1, "v_mfma_i32_32x32x8i8"},
      {"gfx90a", "i8", "i32", 16, 16, 1, "v_mfma_i32_16x16x16i8"},
      {"gfx942", "fp16", "fp32", 32, 16, 1, "v_mfma_f32_32x32x8_f16"},
      {"gfx942", "fp16", "fp32", 16, 16, 1, "v_mfma_f32_16x16x16_f16"},
      {"gfx942", "bf16", "fp32", 32, 16, 1, "v_mfma_f32_32x32x8_bf16"},
      {"gfx942", "bf16", "fp32", 16, 16, 1, "v_mfma_f32_16x16x16_bf16"},
      {"gfx942", "i8", "i32", 32, 32, 1, "v_mfma_i32_32x32x16_i8"},
      {"gfx942", "i8", "i32", 16, 32, 1, "v_mfma_i32_16x16x32_i8"},
      {"gfx1100", "fp16", "fp32", 16, 16, 1, "v_wmma_f32_16x16x16_f16"},
      {"gfx1100", "bf16", "fp32", 32, 32, 2, "v_wmma_f32_16x16x16_bf16"},
      {"gfx1100", "i8", "i32", 16, 16, 1, "v_wmma_i32_16x16x16_iu8"},
  };
  for (const Case &c : cases) {
    INFO(std::string(c.arch) << " " << std::string(c.dtype) << " " << c.m << "x" << c.m << "x" << c.k);
    std::string p = std::string("*") + c.dtype + ":16";
    std::string sig = p + ", " + p + ", *" + c.out + ":16, " + std::to_string(c.m) + ", " + std::to_string(c.m) +
                      ", " + std::to_string(c.k);
    Module m = compile(source, "tile_dot.py", "tile_dot", sig);
    Compiled built = build(m, c.arch, "tile_dot", c.warps);
    INFO(built.view.disassembly.substr(0, 3000));
    CHECK(count(built.view.disassembly, std::string(c.instruction) + " ") >= 1);
    checkRegisters(built, c.arch);
  }
}

TEST_CASE("no AMD atom takes fp8: gfx942's MFMA fp8 formats are FNUZ, not Trident's OCP f8 types") {
  for (std::string_view arch : amdgpu::supportedArchitectures()) {
    std::optional<TargetDesc> target = amdgpu::targetDesc(arch);
    REQUIRE(target);
    for (const MatrixAtom &atom : target->matrixAtoms) {
      INFO(atom.name);
      CHECK(atom.aType != Type::f8e4m3());
      CHECK(atom.aType != Type::f8e5m2());
    }
  }
}
