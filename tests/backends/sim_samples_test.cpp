// The sample kernels (samples/*.py) lowered for sm_90 (and, where the AMD backend is
// built, for gfx942: matmul and attention on MFMA) and run in the
// thread-IR simulator, against the reference interpreter: a check of the SIMT lowering
// on real kernels that needs no GPU (the simulator also checks shared-memory races).
#include "../core/simt/ThreadSim.h"
#include "SampleCases.h"
#ifdef TRIDENT_HAVE_AMDGPU
#include "trident/backends/amdgpu/CodeGen.h"
#include "trident/backends/amdgpu/Target.h"
#endif
#ifdef TRIDENT_HAVE_SPIRV
#include "trident/backends/spirv/CodeGen.h"
#include "trident/backends/spirv/Target.h"
#endif
#include "trident/backends/nvptx/CodeGen.h"
#include "trident/backends/nvptx/Target.h"
#include "trident/ir/Printer.h"

#include <doctest/doctest.h>

using namespace trident;
using namespace trident::test;

namespace {

// The kernel lowered for `target` ("sm_90", "gfx942", ...) and that target's description.
std::optional<Module> lowerFor(const Module &m, const Case &c, const std::string &target, TargetDesc &desc,
                               Diagnostics &diags) {
#ifdef TRIDENT_HAVE_AMDGPU
  if (target.starts_with("gfx")) {
    desc = *amdgpu::targetDesc(target);
    amdgpu::HSACOOptions options;
    options.kernel = c.kernel;
    options.numStages = 3; // dot loops' loads an iteration ahead into registers
    return amdgpu::lowerToThreadIR(m, desc, options, diags);
  }
#endif
#ifdef TRIDENT_HAVE_SPIRV
  if (std::optional<spirv::DeviceInfo> device = spirv::profileDevice(target)) {
    desc = spirv::targetDesc(*device);
    spirv::SpirvOptions options;
    return spirv::lowerToThreadIR(m, *device, options, diags);
  }
#endif
  // "sm_90 tma=all": block pointers' loads through tensor maps too (TRIDENT_CUDA_TMA=all).
  bool allMaps = target.ends_with(" tma=all");
  desc = *nvptx::targetDesc(allMaps ? target.substr(0, target.size() - 8) : target);
  desc.blockPointerTensorMaps = allMaps;
  nvptx::PTXOptions options;
  options.kernel = c.kernel;
  return nvptx::lowerToThreadIR(m, desc, options, diags);
}

// `onlyDots`: just the samples with dots (matmul, attention), the part a target's own
// matrix atoms change; the others run for AMD in backend_amdgpu_tests' simulator cases.
void runSamples(const std::string &target, bool onlyDots = false, const std::vector<Case> &all = cases()) {
  for (const Case &c : all) {
    bool dots = std::string(c.file) == "matmul.py" || std::string(c.file) == "attention.py";
    if (onlyDots && !dots)
      continue;
    std::string name = target + ": " + c.file + ": " + c.kernel;
    INFO(name);
    Diagnostics diags;
    std::optional<Module> m = compileSample(c, TRIDENT_SAMPLES_DIR, diags);
    INFO(diags.str());
    REQUIRE(m.has_value());
    std::vector<std::vector<uint8_t>> inputs = sampleInputs(c), ref = inputs, sim = inputs;
    REQUIRE(runInterpreter(*m, c, ref, diags));

    TargetDesc desc;
    std::optional<Module> threadIR = lowerFor(*m, c, target, desc, diags);
    INFO(diags.str());
    REQUIRE(threadIR.has_value());
    if (dots) {
      int atoms = 0; // the dots run on the matrix units
      threadIR->op()->walk([&](Op *op) {
        atoms += op->is(OpCode::ThMma) || op->is(OpCode::ThWgmma) || op->is(OpCode::ThCoopMma);
      });
      CHECK(atoms > 0);
      if (desc.blockPointerTensorMaps && std::string(c.file) == "attention.py") {
        int copies = 0;
        threadIR->op()->walk([&](Op *op) { copies += op->is(OpCode::ThTmaLoad); });
        CHECK(copies > 0);
      }
    }
    simt::test::ThreadSim simulator(desc.warpSize, desc.matrixAtoms);
    simulator.setCoopMatrices(desc.coopMatrices);
    simulator.checkReleases(); // the layer-norm backward's lock: released after a barrier
    std::vector<uint64_t> args;
    for (size_t i = 0; i < c.params.size(); ++i) {
      const Param &p = c.params[i];
      if (p.kind == Param::Buffer) {
        simulator.addBuffer(sim[i].data(), sim[i].size());
        args.push_back(reinterpret_cast<uint64_t>(sim[i].data()));
      } else if (p.kind == Param::I32) {
        args.push_back(static_cast<uint32_t>(p.i));
      } else {
        args.push_back(std::bit_cast<uint32_t>(p.f));
      }
    }
    std::string error;
    bool ran = simulator.run(*threadIR, c.kernel, args, c.grid, error);
    INFO(error);
    REQUIRE(ran);
    for (size_t i = 0; i < c.params.size(); ++i) {
      const Param &p = c.params[i];
      if (p.kind != Param::Buffer)
        continue;
      size_t first = 0, bad = countDifferences(c, i, ref[i], sim[i], first);
      INFO("parameter " << i << ": " << bad << " of " << p.count << " elements differ; first at " << first
                        << ": interpreter " << (first < p.count ? elementAt(ref[i], p.elem, first) : 0)
                        << ", simulator " << (first < p.count ? elementAt(sim[i], p.elem, first) : 0));
      CHECK(bad == 0);
    }
  }
}

} // namespace

TEST_CASE("sample kernels in the thread-IR simulator agree with the interpreter") { runSamples("sm_90"); }
TEST_CASE("matmul and attention with block-pointer tensor maps (sm_90, TRIDENT_CUDA_TMA=all) agree with the interpreter") {
  runSamples("sm_90 tma=all", true);
}

#ifdef TRIDENT_HAVE_AMDGPU
// gfx942's MFMA only: under ASan both AMD targets took over 6 minutes; WMMA (gfx1100)
// dots are simulated in dot_mma_tests (and random kernels with dots by
// `trident-randtest --compile sim:gfx1100`).
TEST_CASE("matmul and attention lowered for gfx942 (MFMA, wave64) agree with the interpreter") {
  runSamples("gfx942", true);
}
#endif

#ifdef TRIDENT_HAVE_SPIRV
// The vulkan:nvidia profile's lowering (cooperative matrices, 48 KiB of shared memory)
// of attention at HEAD_DIM 128 with the benchmark's 128 x 64 tiles
// (Q's tiles held in registers through the loop; every conversion between the tiles
// and the blocks in rows of tiles), causal: the masked diagonal stage, two key tiles.
// About 15 s optimized, over 15 minutes under ASan: skipped by default and run by its
// own CTest entry in optimized builds (sim_samples_vulkan_attention).
TEST_CASE("attention at HEAD_DIM 128 lowered for vulkan:nvidia (cooperative matrices) agrees with the interpreter" *
          doctest::skip()) {
  runSamples("vulkan:nvidia", true, {attentionCase(1, 1, 128, 128, 128, 64, 3)});
}

// The matmul sample's 128 x 256 x 64 tiles on vulkan:nvidia: padded rows would take 51 KiB
// of its 48, so A and B lie in shared memory tile by tile (LowerCoopMatrix.cpp,
// OperandArray); 128 x 256 x 128. Run with the attention case
// (sim_samples_vulkan_attention).
TEST_CASE("matmul 128x256x64 lowered for vulkan:nvidia (operands tile by tile) agrees with the interpreter" *
          doctest::skip()) {
  using P = Param;
  const int M = 128, N = 256, K = 128; // one program, two k iterations
  Case c{"matmul.py",
         "matmul_kernel",
         "*fp16:16, *fp16:16, *fp16:16, i32:16, i32:16, i32:16, i32:16, 1, i32:16, 1, i32:16, 1, 128, 256, "
         "64, 8, ''",
         {1, 1, 1},
         {P::buffer(Elem::F16, M * K), P::buffer(Elem::F16, K * N), P::filled(Elem::F16, M * N, -7),
          P::i32(M), P::i32(N), P::i32(K), P::i32(K), P::i32(N), P::i32(N)},
         2e-2,
         1e-2};
  runSamples("vulkan:nvidia", true, {c});
}

// The matmul sample on bf16 inputs (fp16 results) for vulkan:nvidia: its dots on the
// bf16 x bf16 -> f32 cooperative matrices (VK_KHR_shader_bfloat16), 64 x 64 x 128 in one
// program of 64 x 64 x 32 tiles (four k iterations). Cheap: in the default entry.
TEST_CASE("a bf16 matmul lowered for vulkan:nvidia (bf16 cooperative matrices) agrees with the interpreter") {
  using P = Param;
  const int M = 64, N = 64, K = 128;
  Case c{"matmul.py",
         "matmul_kernel",
         "*bf16:16, *bf16:16, *fp16:16, i32:16, i32:16, i32:16, i32:16, 1, i32:16, 1, i32:16, 1, 64, 64, 32, "
         "8, ''",
         {1, 1, 1},
         {P::buffer(Elem::BF16, M * K), P::buffer(Elem::BF16, K * N), P::filled(Elem::F16, M * N, -7),
          P::i32(M), P::i32(N), P::i32(K), P::i32(K), P::i32(N), P::i32(N)},
         2e-2,
         1e-2};
  runSamples("vulkan:nvidia", true, {c});
}
#endif
