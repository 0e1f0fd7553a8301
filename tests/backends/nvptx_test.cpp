// Every kernel of tests/core/simt/kernels compiles to PTX for sm_80 and sm_90, and
// ptxas accepts the PTX (the test says loudly when ptxas is absent and it checks less).
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

std::vector<fs::path> kernelFiles() {
  std::vector<fs::path> files;
  for (const auto &entry : fs::directory_iterator(TRIDENT_KERNELS_DIR))
    if (entry.path().extension() == ".ttir")
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

std::string readFile(const fs::path &p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
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
  std::vector<fs::path> files = kernelFiles();
  REQUIRE(files.size() >= 2);
  for (const fs::path &file : files) {
    Diagnostics diags;
    std::optional<Module> m = parseModule(readFile(file), file.filename().string(), diags);
    INFO(file.string() << "\n" << diags.str());
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
        std::ofstream(fs::path(dump) / (file.stem().string() + "." + arch + ".ptx")) << ptx->ptx;
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
