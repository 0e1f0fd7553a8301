// Every kernel of samples/*.py, through the frontend with a signature like the
// sample's launch, compiles to PTX for sm_80, sm_86, sm_89 and sm_90 that ptxas accepts.
#include "trident/backends/nvptx/CodeGen.h"
#include "trident/backends/nvptx/Target.h"
#include "trident/frontend/Frontend.h"
#include "trident/ir/Verifier.h"

#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <unistd.h>

using namespace trident;
namespace fs = std::filesystem;

namespace {

struct SampleKernel {
  const char *file, *kernel, *signature;
};

// Signatures as the samples launch them (constexprs last, strides of 1 as constants).
const SampleKernel kSamples[] = {
    {"vector_add.py", "add_kernel", "*fp32:16, *fp32:16, *fp32:16, i32:16, 1024"},
    {"fused_softmax.py", "softmax_kernel", "*fp32:16, *fp32:16, i32:16, i32:16, i32, i32, 1024, 2"},
    {"layer_norm.py", "_layer_norm_fwd_fused",
     "*fp16:16, *fp16:16, *fp16:16, *fp16:16, *fp32:16, *fp32:16, i32:16, i32:16, fp32, 1024"},
    {"layer_norm.py", "_layer_norm_bwd_dx_fused",
     "*fp16:16, *fp16:16, *fp32:16, *fp32:16, *fp16:16, *fp16:16, *fp32:16, *fp32:16, *i32:16, i32:16, "
     "i32:16, 64, 1024"},
    {"layer_norm.py", "_layer_norm_bwd_dwdb", "*fp32:16, *fp32:16, *fp16:16, *fp16:16, i32, i32:16, 32, 128"},
    {"matmul.py", "matmul_kernel",
     "*fp16:16, *fp16:16, *fp16:16, i32:16, i32:16, i32:16, i32:16, 1, i32:16, 1, i32:16, 1, 64, 64, 32, 8, "
     "''"},
    {"dropout.py", "_seeded_dropout", "*fp32:16, *fp32:16, i32:16, fp32, i32, 1024"},
    {"reduce_custom.py", "row_absmax_kernel", "*fp32:16, *fp32:16, *i32:16, i32, i32:16, 1024"},
    {"reduce_custom.py", "column_product_kernel", "*fp32:16, *fp32:16, i32, i32, 16, 64"},
    {"scan.py", "running_sum_kernel", "*fp32:16, *fp32:16, i32, 1024"},
    {"scan.py", "linear_recurrence_kernel", "*fp32:16, *fp32:16, *fp32:16, i32, 8, 128"},
    {"attention.py", "_attn_fwd",
     "*fp16:16, *fp16:16, *fp16:16, fp32, *fp32:16, *fp16:16, i32:16, i32:16, i32:16, 1, i32:16, i32:16, "
     "i32:16, 1, "
     "i32:16, i32:16, i32:16, 1, i32:16, i32:16, i32:16, 1, i32, i32, i32:16, 64, 64, 32, 3"},
    {"attention_bwd.py", "_attn_bwd_preprocess", "*fp16:16, *fp16:16, *fp32:16, i32:16, 64, 128"},
    {"attention_bwd.py", "_attn_bwd_dkdv",
     "*fp16:16, *fp16:16, *fp16:16, *fp16:16, *fp32:16, *fp32:16, *fp16:16, *fp16:16, fp32, i32:16, 64, 32, 128, 1"},
    {"attention_bwd.py", "_attn_bwd_dq",
     "*fp16:16, *fp16:16, *fp16:16, *fp16:16, *fp32:16, *fp32:16, *fp16:16, fp32, i32:16, 64, 128, 32, 1"},
    // trident-bench's matmul variants (benchmarks/, beside samples/): device-side tensor
    // descriptors, and tutorial 09's persistent tile loop on 132 programs.
    {"../benchmarks/matmul_descriptor.py", "matmul_descriptor_kernel",
     "*fp16:16, *fp16:16, *fp16:16, i32:16, i32:16, i32:16, 64, 64, 32, 8"},
    {"../benchmarks/matmul_persistent.py", "matmul_persistent_kernel",
     "*fp16:16, *fp16:16, *fp16:16, i32:16, i32:16, i32:16, i32:16, 1, i32:16, 1, i32:16, 1, 64, 64, 32, 8, 132"},
    // Attention through host tensor descriptors, causal (two K loops, one map each for K and V).
    {"../benchmarks/attention_descriptor.py", "_attn_fwd_desc",
     "fp32, *fp32:16, i32, i32, tensordesc<fp16[128, 64]>, tensordesc<fp16[64, 64]>, tensordesc<fp16[64, 64]>, "
     "tensordesc<fp16[128, 64]>, 4096, 64, 128, 64, 3"},
};

std::string readFile(const fs::path &p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// samples/attention.py's _attn_fwd with 16-divisible pointers and strides (unit strides
// specialized), then `constants`: N_CTX, HEAD_DIM, BLOCK_M, BLOCK_N, STAGE.
std::optional<Module> compileAttention(const std::string &constants, Diagnostics &diags) {
  std::string signature = "*fp16:16, *fp16:16, *fp16:16, fp32, *fp32:16, *fp16:16";
  for (int tensor = 0; tensor < 4; ++tensor)
    signature += ", i32:16, i32:16, i32:16, 1";
  auto sig = parseSignature(signature + ", i32, i32, " + constants, diags);
  if (!sig)
    return std::nullopt;
  CompileRequest request;
  request.kernel = "_attn_fwd";
  request.args = *sig;
  return compileKernel(readFile(fs::path(TRIDENT_SAMPLES_DIR) / "attention.py"), "attention.py", request, diags);
}

bool havePtxas() { return std::string(TRIDENT_PTXAS).size() > 0 && fs::exists(TRIDENT_PTXAS); }

int runPtxas(const std::string &ptx, const std::string &arch, std::string &output) {
  fs::path dir = fs::temp_directory_path();
  std::string stem = "trident_samples_" + std::to_string(::getpid()) + "_" + arch;
  fs::path file = dir / (stem + ".ptx"), log = dir / (stem + ".log");
  std::ofstream(file) << ptx;
  std::string cmd = std::string(TRIDENT_PTXAS) + " -arch=" + nvptx::llvmProcessor(arch) + " " + file.string() + " -o /dev/null > " +
                    log.string() + " 2>&1";
  int rc = std::system(cmd.c_str());
  output = readFile(log);
  fs::remove(file);
  fs::remove(log);
  return rc;
}

} // namespace

TEST_CASE("every sample kernel compiles to PTX for sm_80, sm_86, sm_89 and sm_90") {
  if (!havePtxas())
    std::cout << "SKIPPED (partly): ptxas not found; sample PTX is generated but not assembled\n";
  for (const SampleKernel &s : kSamples) {
    INFO(s.file << ": " << s.kernel << " (" << s.signature << ")");
    std::string source = readFile(fs::path(TRIDENT_SAMPLES_DIR) / s.file);
    REQUIRE(!source.empty());
    Diagnostics diags;
    auto sig = parseSignature(s.signature, diags);
    INFO(diags.str());
    REQUIRE(sig.has_value());
    CompileRequest request;
    request.kernel = s.kernel;
    request.args = *sig;
    std::optional<Module> m = compileKernel(source, s.file, request, diags);
    INFO(diags.str());
    REQUIRE(m.has_value());
    REQUIRE(verify(*m, diags));
    for (const char *arch : {"sm_80", "sm_86", "sm_89", "sm_90"}) {
      INFO(arch);
      nvptx::PTXOptions options;
      options.kernel = s.kernel;
      std::optional<nvptx::PTXModule> ptx =
          nvptx::compileModuleToPTX(*m, *nvptx::targetDesc(arch), options, diags);
      INFO(diags.str());
      CHECK(ptx.has_value());
      if (!ptx)
        continue;
      // The dots run on the tensor cores, loads pipelined: mma.sync with operands through
      // ldmatrix, or on sm_90 wgmma reading them from shared memory.
      std::vector<const char *> expected = {"mma.sync.aligned.m16n8k16", "ldmatrix.sync.aligned", "cp.async.cg"};
      if (std::string_view(arch) == "sm_90")
        expected = {"wgmma.mma_async.sync.aligned.m64n", "fence.proxy.async", "cp.async.cg"};
      // Tensor-descriptor loads come by the tensor-copy engine there, completing on mbarriers,
      // and so do block pointers' (attention's) in kernels of one warpgroup.
      if (std::string_view(arch) == "sm_90" && (std::string(s.file).find("_descriptor.py") != std::string::npos ||
                                                 std::string(s.file) == "attention.py"))
        expected = {"wgmma.mma_async.sync.aligned.m64n",
                    std::string(s.file) == "attention.py" ? "cp.async.bulk.tensor.4d" : "cp.async.bulk.tensor.2d",
                    "mbarrier.arrive.expect_tx", "mbarrier.try_wait.parity"};

      // The backward's too, whose loads feed two dots each (one of them through tt.trans):
      // both read the same pipelined stage.
      bool dots = std::string(s.file) == "matmul.py" || std::string(s.file) == "attention.py" ||
                  std::string(s.file).starts_with("../benchmarks/matmul_") ||
                  // (its tensordesc sizes have no known divisibility: before sm_90 its masked
                  // loads are element by element, not cp.async)
                  (std::string(s.file) == "../benchmarks/attention_descriptor.py" && std::string_view(arch) == "sm_90") ||
                  (std::string(s.file) == "attention_bwd.py" && std::string(s.kernel) != "_attn_bwd_preprocess");
      if (dots)
        for (const char *instruction : expected)
          CHECK_MESSAGE(ptx->ptx.find(instruction) != std::string::npos, std::string(instruction));
      if (const char *dump = std::getenv("TRIDENT_DUMP_DIR"))
        std::ofstream(fs::path(dump) / (std::string(s.kernel) + "." + arch + ".ptx")) << ptx->ptx;
      if (havePtxas()) {
        std::string output;
        int rc = runPtxas(ptx->ptx, arch, output);
        INFO(output);
        CHECK(rc == 0);
        // No "Potential Performance Loss" note: wgmma serialized (C7514) because other
        // instructions read its accumulators, or warpgroup.arrive injected (C7519) because
        // A registers were written after the fence.
        CHECK_MESSAGE(output.find("(C75") == std::string::npos, output);
      }
    }
  }
}

TEST_CASE("sm_90: one ring stage fewer where it lets a second program share a multiprocessor") {
  // attention.py at HEAD_DIM 128: Q (32 KB) and rings of K and V tiles (16 KB a stage
  // each). 3 stages take 131072 bytes, one program a multiprocessor; 2 take 98304, two
  // (4 warps: 255 registers a thread still leave room for both). On 4 warps K and V come
  // through tensor maps: their rings start at 1024 bytes (the 128-byte swizzle's period)
  // after Q and the stages' mbarriers, 99328 bytes in all. On 8 warps the registers allow
  // one program either way, so the 3 stages stay.
  Diagnostics diags;
  std::optional<Module> m = compileAttention("4096, 128, 128, 64, 1", diags);
  INFO(diags.str());
  REQUIRE(m);
  for (auto [warps, shared] : {std::pair{4u, 99328ull}, std::pair{8u, 131072ull}}) {
    INFO("warps " << warps);
    nvptx::PTXOptions options;
    options.kernel = "_attn_fwd";
    options.numWarps = warps;
    options.numStages = 3;
    std::optional<nvptx::PTXModule> ptx = nvptx::compileModuleToPTX(*m, *nvptx::targetDesc("sm_90"), options, diags);
    INFO(diags.str());
    REQUIRE(ptx);
    CHECK(ptx->kernels[0].sharedBytes == shared);
  }
}

TEST_CASE("sm_90 with block-pointer tensor maps (TRIDENT_CUDA_TMA=all): attention's K and V come by 4-d copies") {
  // The batch and head terms of K's and V's base (off_z * stride_kz + off_h * stride_kh)
  // are dimensions of their maps; K^T (order (0, 1)) is read as the transposed box.
  Diagnostics diags;
  for (const char *stage : {"1", "3"}) {
    INFO("STAGE " << stage);
    std::optional<Module> m = compileAttention(std::string("4096, 64, 128, 64, ") + stage, diags);
    INFO(diags.str());
    REQUIRE(m);
    TargetDesc target = *nvptx::targetDesc("sm_90");
    target.blockPointerTensorMaps = true;
    nvptx::PTXOptions options;
    options.kernel = "_attn_fwd";
    options.numWarps = 4;
    options.numStages = 3;
    std::optional<nvptx::PTXModule> ptx = nvptx::compileModuleToPTX(*m, target, options, diags);
    INFO(diags.str());
    REQUIRE(ptx);
    for (const char *instruction : {"wgmma.mma_async.sync.aligned.m64n", "cp.async.bulk.tensor.4d",
                                    "mbarrier.arrive.expect_tx", "mbarrier.try_wait.parity"})
      CHECK_MESSAGE(ptx->ptx.find(instruction) != std::string::npos, std::string(instruction));
    CHECK(ptx->ptx.find("cp.async.cg") == std::string::npos); // nothing left on cp.async
    CHECK(ptx->kernels[0].tensorMaps.size() == 2 * 19);        // K's map and V's, each shared by both loops
    if (havePtxas()) {
      std::string output;
      int rc = runPtxas(ptx->ptx, "sm_90", output);
      INFO(output);
      CHECK(rc == 0);
    }
  }
}

TEST_CASE("sm_90: the descriptor matmul with WARP_SPECIALIZE: a producer warpgroup, ptxas takes it without notes") {
  // trident-bench's "matmul descriptor ws" configurations: 128x256x64 on 8 consumer warps
  // (two warpgroups, 232 registers each, the producer 40) and 128x128x64 on 4 (one: no
  // setmaxnreg), 4 producer warps.
  if (!havePtxas())
    std::cout << "SKIPPED (partly): ptxas not found; the warp-specialized PTX is generated but not assembled\n";
  std::string source = readFile(fs::path(TRIDENT_SAMPLES_DIR) / "../benchmarks/matmul_descriptor.py");
  REQUIRE(!source.empty());
  struct Config {
    const char *blocks;
    unsigned warps, stages, registers;
  };
  for (Config c : {Config{"128, 256, 64", 8, 3, 232}, Config{"128, 128, 64", 4, 4, 0}}) {
    INFO(std::string(c.blocks) << " on " << c.warps << " warps");
    Diagnostics diags;
    auto sig = parseSignature(std::string("*fp16:16, *fp16:16, *fp16:16, i32:16, i32:16, i32:16, ") + c.blocks + ", 8, True",
                              diags);
    REQUIRE(sig);
    CompileRequest request;
    request.kernel = "matmul_descriptor_kernel";
    request.args = *sig;
    std::optional<Module> m = compileKernel(source, "matmul_descriptor.py", request, diags);
    INFO(diags.str());
    REQUIRE(m);
    nvptx::PTXOptions options;
    options.kernel = "matmul_descriptor_kernel";
    options.numWarps = c.warps;
    options.numStages = c.stages;
    std::optional<nvptx::PTXModule> ptx = nvptx::compileModuleToPTX(*m, *nvptx::targetDesc("sm_90"), options, diags);
    INFO(diags.str());
    REQUIRE(ptx);
    CHECK(ptx->kernels[0].numThreads == (c.warps + 4) * 32);
    std::string text; // the PTX with each run of blanks one space
    for (char ch : ptx->ptx)
      if (!((ch == ' ' || ch == '\t') && !text.empty() && (text.back() == ' ' || text.back() == '\t')))
        text += ch == '\t' ? ' ' : ch;
    for (std::string instruction : {"barrier.sync 1, " + std::to_string(c.warps * 32) + ";",
                                    std::string("mbarrier.arrive.shared::cta.b64"),
                                    std::string("cp.async.bulk.tensor.2d"), std::string("wgmma.mma_async")})
      CHECK_MESSAGE(text.find(instruction) != std::string::npos, instruction);
    // 256 threads get 255 registers each without it (ptxas would ignore it, C7508).
    CHECK((text.find("setmaxnreg.dec.sync.aligned.u32 40;") != std::string::npos) == (c.registers > 0));
    if (c.registers)
      CHECK(text.find("setmaxnreg.inc.sync.aligned.u32 " + std::to_string(c.registers) + ";") != std::string::npos);
    if (havePtxas()) {
      std::string output;
      int rc = runPtxas(ptx->ptx, "sm_90", output);
      INFO(output);
      CHECK(rc == 0);
      CHECK_MESSAGE(output.find("(C75") == std::string::npos, output); // no serialized wgmma, no injected arrives
      CHECK_MESSAGE(output.find("setmaxnreg") == std::string::npos, output); // none ignored
    }
  }
}
