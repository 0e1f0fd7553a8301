// Every sample kernel (samples/*.py through the frontend, with small constexpr
// sizes) compiles to a code object for gfx90a, gfx942 and gfx1100 that LLVM's tools
// accept, with the kernel's argument layout in its metadata.
#include "CodeObject.h"
#include "trident/backends/amdgpu/Target.h"
#include "trident/frontend/Frontend.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>

using namespace trident;
namespace fs = std::filesystem;

namespace {

struct Sample {
  const char *file, *kernel, *signature;
};

// Signatures as the samples' own host code calls them, with small blocks.
const Sample kSamples[] = {
    {"vector_add.py", "add_kernel", "*fp32:16, *fp32:16, *fp32:16, i32, 256"},
    {"dropout.py", "_seeded_dropout", "*fp32:16, *fp32:16, i32, fp32, i32, 256"},
    {"fused_softmax.py", "softmax_kernel", "*fp32:16, *fp32:16, i32, i32, i32, i32, 128, 2"},
    {"layer_norm.py", "_layer_norm_fwd_fused",
     "*fp32, *fp32, *fp32, *fp32, *fp32, *fp32, i32, i32, fp32, 32"},
    {"layer_norm.py", "_layer_norm_bwd_dx_fused",
     "*fp32, *fp32, *fp32, *fp32, *fp32, *fp32, *fp32, *fp32, *i32, i32, i32, 3, 128"},
    {"layer_norm.py", "_layer_norm_bwd_dwdb", "*fp32, *fp32, *fp32, *fp32, i32, i32, 32, 64"},
    {"matmul.py", "matmul_kernel",
     "*fp16, *fp16, *fp16, i32, i32, i32, i32, i32, i32, i32, i32, i32, 16, 16, 32, 2, "
     "'leaky_relu'"},
    {"attention.py", "_attn_fwd",
     "*fp16, *fp16, *fp16, fp32, *fp32, *fp16, i32, i32, i32, i32, i32, i32, i32, i32, "
     "i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, i32, 16, 16, 16, 3"},
    {"attention_bwd.py", "_attn_bwd_preprocess", "*fp16, *fp16, *fp32, i32, 16, 32"},
    {"attention_bwd.py", "_attn_bwd_dkdv", "*fp16, *fp16, *fp16, *fp16, *fp32, *fp32, *fp16, *fp16, fp32, i32, 16, 16, 32, 1"},
    {"attention_bwd.py", "_attn_bwd_dq", "*fp16, *fp16, *fp16, *fp16, *fp32, *fp32, *fp16, fp32, i32, 16, 32, 16, 0"},
    {"reduce_custom.py", "row_absmax_kernel", "*fp32, *fp32, *i32, i32, i32, 128"},
    {"reduce_custom.py", "column_product_kernel", "*fp32, *fp32, i32, i32, 16, 16"},
    {"scan.py", "running_sum_kernel", "*fp32, *fp32, i32, 1024"},
    {"scan.py", "linear_recurrence_kernel", "*fp32, *fp32, *fp32, i32, 4, 64"},
};

std::string readFile(const fs::path &p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

Module compileSample(const Sample &s) {
  Diagnostics diags;
  auto args = parseSignature(s.signature, diags);
  INFO(diags.str());
  REQUIRE(args.has_value());
  CompileRequest request;
  request.kernel = s.kernel;
  request.args = std::move(*args);
  std::optional<Module> m =
      compileKernel(readFile(fs::path(TRIDENT_SAMPLES_DIR) / s.file), s.file, request, diags);
  INFO(diags.str());
  REQUIRE(m.has_value());
  return std::move(*m);
}

} // namespace

TEST_CASE("every sample kernel compiles to a code object for gfx90a, gfx942 and gfx1100") {
  // Every sample file is covered, so a new sample cannot go untested here.
  std::set<std::string> covered, present;
  for (const Sample &s : kSamples)
    covered.insert(s.file);
  for (const auto &entry : fs::directory_iterator(TRIDENT_SAMPLES_DIR))
    if (entry.path().extension() == ".py")
      present.insert(entry.path().filename().string());
  CHECK(covered == present);
  for (const Sample &s : kSamples) {
    INFO(s.file << ": " << s.kernel << "(" << s.signature << ")");
    Module m = compileSample(s);
    for (std::string_view arch : amdgpu::supportedArchitectures())
      amdtest::checkCodeObject(m, std::string(arch), s.kernel);
  }
}
