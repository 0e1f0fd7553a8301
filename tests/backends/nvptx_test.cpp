// Every kernel of tests/core/simt/kernels compiles to PTX for sm_80 and sm_90, and
// ptxas accepts the PTX (the test says loudly when ptxas is absent and it checks less);
// cache hints at every element type. Single kernels' PTX is checked as text in
// tests/lit/translate (nvptx-semantics, nvptx-print, nvptx-print-types).
#include "../core/simt/KernelTemplates.h"
#include "../core/simt/NvidiaAtoms.h"
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
  std::string cmd = std::string(TRIDENT_PTXAS) + " -arch=" + nvptx::llvmProcessor(arch) + " " + file.string() + " -o /dev/null > " +
                    log.string() + " 2>&1";
  int rc = std::system(cmd.c_str());
  output = readFile(log);
  fs::remove(file);
  fs::remove(log);
  return rc;
}

bool sameMap(const MatrixAtom::OperandMap &a, const MatrixAtom::OperandMap &b) {
  return a.registerBits == b.registerBits && a.laneBits == b.laneBits && a.warpBits == b.warpBits;
}

} // namespace

// Core tests simulate th.mma with NvidiaAtoms.h's copy of the atoms (they may not
// link the backends): it must stay the same as the target's.
TEST_CASE("the matrix atoms of every architecture are those of tests/core/simt/NvidiaAtoms.h") {
  for (std::string_view arch : nvptx::supportedArchitectures()) {
    CAPTURE(arch);
    std::vector<MatrixAtom> expected = simt::test::nvidiaAtoms(arch);
    std::vector<MatrixAtom> atoms = nvptx::targetDesc(arch)->matrixAtoms;
    REQUIRE(atoms.size() == expected.size());
    for (size_t i = 0; i < atoms.size(); ++i) {
      const MatrixAtom &a = atoms[i], &e = expected[i];
      CAPTURE(a.name);
      CHECK(a.name == e.name);
      CHECK((a.m == e.m && a.n == e.n && a.k == e.k));
      CHECK((a.aType == e.aType && a.bType == e.bType && a.cType == e.cType));
      CHECK((sameMap(a.a, e.a) && sameMap(a.b, e.b) && sameMap(a.c, e.c)));
      CHECK((a.warps == e.warps && a.sharedB == e.sharedB && a.kMajorOnly == e.kMajorOnly));
    }
  }
}

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
      // PTX 8.0, or 8.4 for fp8 tensor-core atoms only.
      bool fp8Mma = ptx->ptx.find(".e4m3.e4m3.f32") != std::string::npos ||
                    ptx->ptx.find(".e5m2.e5m2.f32") != std::string::npos;
      CHECK(ptx->ptx.find(fp8Mma ? ".version 8.4" : ".version 8.0") != std::string::npos);
      CHECK(fp8Mma == (std::string(arch) == "sm_90" && name == "dot_f8e4m3_f32_32x32x32"));
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

namespace {

// A copy kernel whose loads and stores carry the given attributes (4 f32 per thread).
std::string hintedCopyKernel(const std::string &loadAttrs, const std::string &storeAttrs) {
  return R"(builtin.module ({
  tt.func {arg_divisibility = [16, 16, 16], sym_name = "hinted"} ({
  ^(%out: ptr<f32>, %in: ptr<f32>, %n: i32):
    %i = tt.make_range {end = 512, start = 0} : block<512xi32>
    %ins = tt.splat %in : block<512xptr<f32>>
    %inp = tt.addptr %ins, %i : block<512xptr<f32>>
    %ns = tt.splat %n : block<512xi32>
    %m = arith.cmpi %i, %ns {predicate = "slt"} : block<512xi1>
    %x = tt.load %inp, %m )" + loadAttrs + R"( : block<512xf32>
    %outs = tt.splat %out : block<512xptr<f32>>
    %outp = tt.addptr %outs, %i : block<512xptr<f32>>
    tt.store %outp, %x, %m )" + storeAttrs + R"(
    tt.return
  })
}))";
}

std::string compilePTX(const std::string &text, const char *arch, Diagnostics &diags) {
  std::optional<Module> m = parseModule(text, "test", diags);
  if (!m || !verify(*m, diags))
    return {};
  std::optional<nvptx::PTXModule> ptx = nvptx::compileModuleToPTX(*m, *nvptx::targetDesc(arch), {}, diags);
  return ptx ? ptx->ptx : std::string();
}

size_t countOf(const std::string &text, const std::string &what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1))
    ++n;
  return n;
}

void checkAssembles(const std::string &ptx, const char *arch) {
  if (!havePtxas())
    return;
  std::string output;
  int rc = runPtxas(ptx, arch, output);
  INFO(output);
  CHECK(rc == 0);
}

} // namespace

TEST_CASE("cache operators and eviction priorities reach the PTX, vectorized and predicated") {
  struct Case {
    std::string load, store, ld, st;
  };
  const Case cases[] = {
      {R"({cache = "cg"})", R"({cache = "cs"})", "ld.global.cg.v4.b32", "st.global.cs.v4.b32"},
      {R"({cache = "ca"})", R"({cache = "wt"})", "ld.global.ca.v4.b32", "st.global.wt.v4.b32"},
      {R"({cache = "cv"})", R"({cache = "wb"})", "ld.global.cv.v4.b32", "st.global.wb.v4.b32"},
      {R"({eviction = "evict_last"})", R"({eviction = "evict_first"})", "ld.global.L1::evict_last.v4.b32",
       "st.global.L1::evict_first.v4.b32"},
      // PTX takes one of the two: the cache operator wins.
      {R"({cache = "cg", eviction = "evict_first"})", R"({cache = "cg", eviction = "evict_last"})",
       "ld.global.cg.v4.b32", "st.global.cg.v4.b32"},
  };
  for (const Case &c : cases) {
    for (const char *arch : {"sm_80", "sm_90"}) {
      Diagnostics diags;
      std::string ptx = compilePTX(hintedCopyKernel(c.load, c.store), arch, diags);
      INFO(c.load << " " << c.store << " " << arch << "\n" << diags.str() << ptx);
      REQUIRE(!ptx.empty());
      // 512 elements over 128 threads: one 16-byte access each way per thread.
      CHECK(countOf(ptx, c.ld) == 1);
      CHECK(countOf(ptx, c.st) == 1);
      CHECK(countOf(ptx, "ld.global") == 1);
      CHECK(countOf(ptx, "st.global") == 1);
      // The mask still guards both: a branch around the load, the store predicated.
      CHECK(countOf(ptx, "setp.") >= 1);
      CHECK(countOf(ptx, "bra") >= 1);
      CHECK(countOf(ptx, "@p st.global") == 1);
      checkAssembles(ptx, arch);
    }
  }
  // Without hints nothing changes: LLVM's own vector load and store.
  Diagnostics diags;
  std::string plain = compilePTX(hintedCopyKernel("", ""), "sm_90", diags);
  // (The masked store is one predicated instruction on 32-bit words.)
  CHECK(countOf(plain, "ld.global.v4.") == 1);
  CHECK(countOf(plain, "@p st.global.v4.b32") == 1);
  CHECK(countOf(plain, ".cg") + countOf(plain, ".cs") + countOf(plain, "L1::") == 0);
}

TEST_CASE("cache hints on narrow and wide element types keep their access size") {
  for (auto [type, ld] : {std::pair<std::string, std::string>{"f16", "ld.global.cg.b64"},
                          {"i8", "ld.global.cg.b32"},
                          {"f64", "ld.global.cg.v4.b32"},
                          {"i1", "ld.global.cg.u8"}}) {
    std::string text = hintedCopyKernel(R"({cache = "cg"})", R"({cache = "cs"})");
    for (size_t at = text.find("f32"); at != std::string::npos; at = text.find("f32", at))
      text.replace(at, 3, type);
    Diagnostics diags;
    std::string ptx = compilePTX(text, "sm_90", diags);
    INFO(type << "\n" << diags.str() << ptx);
    REQUIRE(!ptx.empty());
    CHECK(countOf(ptx, ld) >= 1);
    CHECK(countOf(ptx, "st.global.cs.") >= 1);
    checkAssembles(ptx, "sm_90");
  }
}
