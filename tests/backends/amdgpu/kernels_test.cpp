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

// e_flags as llvm-readelf prints it ("Flags: 0x53F, gfx90a, xnack, sramecc").
unsigned elfFlags(const std::string &header) {
  size_t at = header.find("Flags:");
  if (at == std::string::npos)
    return 0;
  return static_cast<unsigned>(std::strtoul(header.c_str() + header.find("0x", at), nullptr, 16));
}

// EF_AMDGPU_MACH_* of the ELF ABI (LLVM's AMDGPUUsage, "AMDGPU ELF Header"): the low byte of e_flags.
unsigned machineNumber(const std::string &arch) {
  if (arch == "gfx90a")
    return 0x3f;
  if (arch == "gfx942")
    return 0x4c;
  if (arch == "gfx1100")
    return 0x41;
  return 0;
}

} // namespace

namespace trident::amdtest {

// Checks a code object compiled from `blockIR` for `arch` against the kernel's thread IR.
void checkCodeObject(const Module &blockIR, const std::string &arch, const std::string &what) {
  INFO(what << " for " << arch);
  Diagnostics diags;
  std::optional<TargetDesc> target = amdgpu::targetDesc(arch);
  REQUIRE(target.has_value());
  std::optional<Module> threadIR = amdgpu::lowerToThreadIR(blockIR, *target, {}, diags);
  INFO(diags.str());
  REQUIRE(threadIR.has_value());
  std::optional<amdgpu::HSACOModule> hsaco = amdgpu::compileModuleToHSACO(blockIR, *target, {}, diags);
  INFO(diags.str());
  REQUIRE(hsaco.has_value());
  if (const char *dump = std::getenv("TRIDENT_DUMP_DIR"))
    std::ofstream(fs::path(dump) / (what + "." + arch + ".hsaco"), std::ios::binary) << hsaco->hsaco;
  CodeObjectView view = inspect(hsaco->hsaco);
  INFO(view.header);
  // The ELF header: an AMDGPU shared object whose flags name the architecture.
  CHECK(view.header.find("AMDGPU") != std::string::npos);
  CHECK(view.header.find("DYN (Shared object file)") != std::string::npos);
  CHECK(view.header.find("Machine:                           EM_AMDGPU") != std::string::npos);
  CHECK(view.header.find(", " + arch) != std::string::npos);
  CHECK((elfFlags(view.header) & 0xff) == machineNumber(arch));
  CHECK(view.target.starts_with("amdgcn-amd-amdhsa--" + arch));
  std::vector<Op *> funcs = threadIR->functions();
  REQUIRE(view.kernels.size() == funcs.size());
  REQUIRE(hsaco->kernels.size() == funcs.size());
  for (size_t i = 0; i < funcs.size(); ++i) {
    std::string name(func::name(funcs[i]));
    INFO("kernel " << name << "\n" << view.notes);
    const amdgpu::KernelInfo &info = hsaco->kernels[i];
    auto k = std::find_if(view.kernels.begin(), view.kernels.end(),
                          [&](const MetadataKernel &m) { return m.name == name; });
    REQUIRE(k != view.kernels.end());
    CHECK(info.name == name);
    // The kernel's code and its descriptor are symbols of the object.
    CHECK(view.symbols.find(" FUNC    GLOBAL PROTECTED") != std::string::npos);
    CHECK(view.symbols.find(" " + name + "\n") != std::string::npos);
    CHECK(view.symbols.find(" " + name + ".kd\n") != std::string::npos);
    CHECK(k->symbol == name + ".kd");
    CHECK(k->wavefrontSize == amdgpu::wavefrontSize(arch));
    CHECK(k->maxFlatWorkgroupSize == info.numThreads);
    CHECK(info.numThreads % amdgpu::wavefrontSize(arch) == 0);
    CHECK(k->groupSegmentFixedSize >= static_cast<int64_t>(info.sharedBytes));
    CHECK(static_cast<uint64_t>(k->groupSegmentFixedSize) <= target->maxSharedMemoryBytes);
    // The explicit arguments, then only hidden ones (code object v5's implicit arguments).
    std::vector<MetadataArg> expected = expectedArgs(funcs[i]);
    REQUIRE(k->args.size() >= expected.size());
    for (size_t a = 0; a < expected.size(); ++a) {
      INFO("argument " << a);
      CHECK(k->args[a].offset == expected[a].offset);
      CHECK(k->args[a].size == expected[a].size);
      CHECK(k->args[a].valueKind == expected[a].valueKind);
      CHECK(k->args[a].addressSpace == expected[a].addressSpace);
    }
    for (size_t a = expected.size(); a < k->args.size(); ++a)
      CHECK(k->args[a].valueKind.starts_with("hidden_"));
    CHECK(k->kernargSegmentSize >= (expected.empty() ? 0 : expected.back().offset + expected.back().size));
  }
  // The disassembler reads the code for this architecture and finds each kernel.
  CHECK(view.disassembly.find("s_endpgm") != std::string::npos);
  for (Op *f : funcs)
    CHECK(view.disassembly.find("<" + std::string(func::name(f)) + ">:") != std::string::npos);
}

} // namespace trident::amdtest

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
