// Every kernel of tests/core/simt/kernels (one per op family) compiles to a code
// object for gfx90a, gfx942 and gfx1100, and LLVM's tools find in it what a loader
// needs: the architecture in the ELF flags, the kernel symbol and its descriptor,
// and the argument layout of the kernel's signature in the metadata note.
#include "CodeObject.h"
#include "trident/backends/amdgpu/CodeGen.h"
#include "trident/backends/amdgpu/Target.h"
#include "trident/ir/Parser.h"
#include "trident/ir/Verifier.h"

#include <doctest/doctest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace trident;
namespace fs = std::filesystem;

namespace {

std::string readFile(const fs::path &p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<fs::path> kernelFiles() {
  std::vector<fs::path> files;
  for (const auto &entry : fs::directory_iterator(TRIDENT_KERNELS_DIR))
    if (entry.path().extension() == ".ttir")
      files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  return files;
}

} // namespace

TEST_CASE("every op-family kernel compiles to a code object for gfx90a, gfx942 and gfx1100") {
  std::vector<fs::path> files = kernelFiles();
  REQUIRE(files.size() >= 2);
  for (const fs::path &file : files) {
    Diagnostics diags;
    std::optional<Module> m = parseModule(readFile(file), file.filename().string(), diags);
    INFO(file.string() << "\n" << diags.str());
    REQUIRE(m.has_value());
    REQUIRE(verify(*m, diags));
    for (std::string_view arch : amdgpu::supportedArchitectures())
      amdtest::checkCodeObject(*m, std::string(arch), file.stem().string());
  }
}
