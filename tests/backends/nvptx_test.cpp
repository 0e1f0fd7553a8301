// Every kernel of tests/core/simt/kernels compiles to PTX for sm_80 and sm_90, and
// ptxas accepts the PTX (the test says loudly when ptxas is absent and it checks less).
#include "../core/simt/KernelTemplates.h"
#include "trident/backends/nvptx/CodeGen.h"
#include "trident/backends/nvptx/Target.h"
#include "trident/ir/Parser.h"
#include "trident/ir/Verifier.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <unistd.h>

using namespace trident;
namespace fs = std::filesystem;

namespace {

std::string readFile(const fs::path &p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// (name, block IR text): the kernel files, then the op-family templates at a few shapes.
std::vector<std::pair<std::string, std::string>> kernels() {
  std::vector<fs::path> files;
  for (const auto &entry : fs::directory_iterator(TRIDENT_KERNELS_DIR))
    if (entry.path().extension() == ".ttir")
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  std::vector<std::pair<std::string, std::string>> out;
  for (const fs::path &f : files)
    out.push_back({f.stem().string(), readFile(f)});
  using namespace simt::test;
  out.push_back({"reduce2d_32x64", reduce2dKernel(32, 64)});
  out.push_back({"reduce2d_4x8", reduce2dKernel(4, 8)});
  out.push_back({"transpose_32x64", transposeKernel(32, 64)});
  out.push_back({"loops_256", loopKernel(256)});
  out.push_back({"atomics_16", atomicKernel(16)});
  out.push_back({"argmax_16x16", argmaxKernel(16, 16)});
  out.push_back({"join_split_cat_128", joinSplitCatKernel(128)});
  out.push_back({"scan_32x64_axis1", scanKernel(32, 64, 1, false)});
  out.push_back({"scan_64x32_axis0_reverse", scanKernel(64, 32, 0, true)});
  out.push_back({"dot_f32_64x64x32", dotKernel(64, 64, 32, "f32", "f32")});
  out.push_back({"dot_f16_f32_32x32x32", dotKernel(32, 32, 32, "f16", "f32")});
  out.push_back({"dot_f16_f16_32x32x16", dotKernel(32, 32, 16, "f16", "f16")});
  out.push_back({"dot_bf16_f32_32x32x16", dotKernel(32, 32, 16, "bf16", "f32")});
  out.push_back({"dot_i8_i32_32x32x32", dotKernel(32, 32, 32, "i8", "i32")});
  out.push_back({"dot_f64_16x16x16", dotKernel(16, 16, 16, "f64", "f64")});
  out.push_back({"dot_f8e4m3_f32_32x32x32", dotKernel(32, 32, 32, "f8e4m3", "f32")});
  out.push_back({"dot_f8e5m2_f16_32x32x32", dotKernel(32, 32, 32, "f8e5m2", "f16")});
  return out;
}

bool havePtxas() { return std::string(TRIDENT_PTXAS).size() > 0 && fs::exists(TRIDENT_PTXAS); }

// Runs ptxas on `ptx`; returns its exit status and fills `output`.
int runPtxas(const std::string &ptx, const std::string &arch, std::string &output) {
  fs::path dir = fs::temp_directory_path();
  std::string stem = "trident_ptxas_" + std::to_string(::getpid()) + "_" + arch;
  fs::path file = dir / (stem + ".ptx"), log = dir / (stem + ".log");
  std::ofstream(file) << ptx;
  std::string cmd = std::string(TRIDENT_PTXAS) + " -arch=" + arch + " " + file.string() + " -o /dev/null > " +
                    log.string() + " 2>&1";
  int rc = std::system(cmd.c_str());
  output = readFile(log);
  fs::remove(file);
  fs::remove(log);
  return rc;
}

} // namespace

TEST_CASE("every kernel compiles to PTX that ptxas accepts, for sm_80 and sm_90") {
  if (!havePtxas())
    std::cout << "SKIPPED (partly): ptxas not found (TRIDENT_PTXAS='" << TRIDENT_PTXAS
              << "'); PTX is generated and checked for its kernels but not assembled\n";
  std::vector<std::pair<std::string, std::string>> all = kernels();
  REQUIRE(all.size() >= 9);
  for (const auto &[name, text] : all) {
    Diagnostics diags;
    std::optional<Module> m = parseModule(text, name, diags);
    INFO(name << "\n" << diags.str());
    REQUIRE(m.has_value());
    REQUIRE(verify(*m, diags));
    for (const char *arch : {"sm_80", "sm_90"}) {
      INFO(arch);
      std::optional<TargetDesc> target = nvptx::targetDesc(arch);
      REQUIRE(target.has_value());
      std::optional<nvptx::PTXModule> ptx = nvptx::compileModuleToPTX(*m, *target, {}, diags);
      INFO(diags.str());
      REQUIRE(ptx.has_value());
      if (const char *dump = std::getenv("TRIDENT_DUMP_DIR"))
        std::ofstream(fs::path(dump) / (name + "." + arch + ".ptx")) << ptx->ptx;
      CHECK(ptx->ptx.find(".version 8.0") != std::string::npos);
      CHECK(ptx->ptx.find(std::string(".target ") + arch) != std::string::npos);
      for (const nvptx::KernelInfo &k : ptx->kernels) {
        CHECK(ptx->ptx.find(".entry " + k.name) != std::string::npos);
        CHECK(k.numThreads >= 32);
      }
      if (havePtxas()) {
        std::string output;
        int rc = runPtxas(ptx->ptx, arch, output);
        INFO(output);
        CHECK(rc == 0);
      }
    }
  }
}
