// The target descriptions: wave sizes, LDS, architecture names as HIP reports them,
// ISA versions as the device libraries know them, and matrix atoms whose lane maps
// cover each operand exactly once.
#include "CodeObject.h"
#include "trident/backends/amdgpu/Target.h"

#include <doctest/doctest.h>

#include <filesystem>
#include <set>

using namespace trident;

namespace {

// Every (row, col) the XOR-combinations of `bases` reach, zero bases (replication) left out.
std::set<std::pair<int64_t, int64_t>> reach(const std::vector<std::pair<int64_t, int64_t>> &bases) {
  std::set<std::pair<int64_t, int64_t>> out = {{0, 0}};
  for (auto [r, c] : bases) {
    if (r == 0 && c == 0)
      continue;
    std::set<std::pair<int64_t, int64_t>> next = out;
    for (auto [r0, c0] : out)
      next.insert({r0 ^ r, c0 ^ c});
    out = next;
  }
  return out;
}

size_t nonZero(const std::vector<std::pair<int64_t, int64_t>> &bases) {
  size_t n = 0;
  for (auto [r, c] : bases)
    n += (r != 0 || c != 0);
  return n;
}

// The operand map spreads a rows x cols operand over one wave: every element once.
void checkOperand(const MatrixAtom::OperandMap &map, int64_t rows, int64_t cols, unsigned waveSize) {
  CHECK((size_t(1) << map.laneBits.size()) == waveSize);
  auto bases = map.registerBits;
  bases.insert(bases.end(), map.laneBits.begin(), map.laneBits.end());
  std::set<std::pair<int64_t, int64_t>> cells = reach(bases);
  CHECK(cells.size() == size_t(rows * cols));
  CHECK((size_t(1) << nonZero(bases)) == cells.size()); // no two bit combinations meet
  size_t outside = 0;
  for (auto [r, c] : cells)
    outside += r >= rows || c >= cols;
  CHECK(outside == 0);
}

} // namespace

TEST_CASE("AMD target descriptions") {
  REQUIRE(amdgpu::supportedArchitectures().size() == 3);
  for (std::string_view arch : amdgpu::supportedArchitectures()) {
    INFO(arch);
    std::optional<TargetDesc> t = amdgpu::targetDesc(arch);
    REQUIRE(t.has_value());
    CHECK(t->name == "hip:" + std::string(arch));
    CHECK(t->warpSize == (arch == "gfx1100" ? 32u : 64u));
    CHECK(t->warpSize == amdgpu::wavefrontSize(arch));
    CHECK(t->maxThreadsPerProgram == 1024);
    CHECK(t->sharedMemoryBytes == 64 * 1024);
    CHECK(t->maxSharedMemoryBytes == 64 * 1024);
    CHECK(t->maxVectorBytes == 16);
    CHECK(t->log2WarpSize() == (arch == "gfx1100" ? 5u : 6u));
    REQUIRE(!t->matrixAtoms.empty());
    CHECK(t->emitsMatrixAtoms);
    CHECK_FALSE(t->ldmatrix);
    CHECK_FALSE(t->asyncCopy);
    for (const MatrixAtom &atom : t->matrixAtoms) {
      INFO(atom.name);
      CHECK(atom.name.starts_with(arch == "gfx1100" ? "v_wmma_" : "v_mfma_"));
      CHECK(atom.cType == (atom.aType.isInteger() ? Type::i32() : Type::f32()));
      checkOperand(atom.a, atom.m, atom.k, t->warpSize);
      checkOperand(atom.b, atom.k, atom.n, t->warpSize);
      checkOperand(atom.c, atom.m, atom.n, t->warpSize);
    }
  }
  CHECK(amdgpu::architecture("hip:gfx942") == "gfx942");
  CHECK(amdgpu::architecture("gfx90a:sramecc+:xnack-") == "gfx90a"); // HIP's gcnArchName
  CHECK(amdgpu::architecture("hip:gfx1100") == "gfx1100");
  CHECK_FALSE(amdgpu::architecture("hip:gfx908").has_value());
  CHECK_FALSE(amdgpu::architecture("cuda:sm_90").has_value());
  CHECK_FALSE(amdgpu::targetDesc("gfx1030").has_value());
  CHECK(amdgpu::isaVersion("gfx90a") == 9010);
  CHECK(amdgpu::isaVersion("gfx942") == 9402);
  CHECK(amdgpu::isaVersion("gfx1100") == 11000);
}

TEST_CASE("ISA versions agree with the device libraries' own oclc_isa_version files") {
  const char *dir = "/usr/lib/x86_64-linux-gnu/amdgcn/bitcode";
  int checked = 0;
  for (std::string_view arch : amdgpu::supportedArchitectures()) {
    std::string file = std::string(dir) + "/oclc_isa_version_" + std::string(arch.substr(3)) + ".bc";
    if (!std::filesystem::exists(file))
      continue; // ROCm 5.2's package predates gfx942 and gfx1100: the backend defines those itself
    std::string text;
    REQUIRE(amdtest::runCommand(amdtest::llvmToolsDir() + "/llvm-dis -o - " + file, text) == 0);
    INFO(text);
    CHECK(text.find("constant i32 " + std::to_string(amdgpu::isaVersion(arch))) != std::string::npos);
    ++checked;
  }
  if (checked == 0)
    MESSAGE("SKIPPED (partly): no oclc_isa_version file of a supported architecture in " << dir);
  else
    CHECK(checked >= 1);
}
