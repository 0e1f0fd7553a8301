// Every kernel of tests/core/simt/kernels compiles to PTX for sm_80 and sm_90, and
// ptxas accepts the PTX (the test says loudly when ptxas is absent and it checks less).
#include "../core/simt/KernelTemplates.h"
#include "../core/simt/NvidiaAtoms.h"
#include "trident/backends/nvptx/CodeGen.h"
#include "trident/backends/nvptx/Target.h"
#include "trident/ir/Parser.h"
#include "trident/ir/Printer.h"
#include "trident/ir/Verifier.h"
#include "trident/simt/VerifyThreadIR.h"

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

namespace {

// tt.print of a block, a scalar and nothing, and a tt.assert, in one kernel.
const char *kDebugKernel = R"(builtin.module ({
  tt.func {arg_divisibility = [16, 1], sym_name = "debug"} ({
  ^(%in: ptr<f32>, %n: i32):
    %i = tt.make_range {end = 256, start = 0} : block<256xi32>
    %ins = tt.splat %in : block<256xptr<f32>>
    %p = tt.addptr %ins, %i : block<256xptr<f32>>
    %x = tt.load %p : block<256xf32>
    tt.print %x, %i {hex = false, prefix = "x 100%: "}
    tt.print %n {hex = true, prefix = "n="}
    tt.print {hex = false, prefix = "hello"}
    %zero = arith.constant {value = 0.0} : block<256xf32>
    %ok = arith.cmpf %x, %zero {predicate = "oge"} : block<256xi1>
    tt.assert %ok {message = "x must be non-negative"}
    tt.return
  })
}))";

} // namespace

TEST_CASE("tt.print and tt.assert lower to th.printf and th.assert, which round-trip and verify") {
  Diagnostics diags;
  std::optional<Module> m = parseModule(kDebugKernel, "debug.ttir", diags);
  INFO(diags.str());
  REQUIRE(m.has_value());
  REQUIRE(verify(*m, diags));
  nvptx::PTXOptions options;
  options.numWarps = 4;
  std::string text = nvptx::emitThreadIR(*m, *nvptx::targetDesc("sm_90"), options, diags);
  INFO(diags.str() << text);
  REQUIRE(!text.empty());
  // 256 elements over 128 threads: two of each operand per thread, each printed once.
  CHECK(countOf(text, "th.printf") == 2 * 2 + 1 + 1);
  CHECK(countOf(text, "th.assert") == 1);
  CHECK(text.find(R"(pid (%d, %d, %d) idx (%d) x 100%%: %.8g (operand 0)\n)") != std::string::npos);
  CHECK(text.find(R"(pid (%d, %d, %d) idx (%d) x 100%%: %d (operand 1)\n)") != std::string::npos);
  CHECK(text.find(R"(pid (%d, %d, %d) n=0x%x\n)") != std::string::npos);
  CHECK(text.find(R"(pid (%d, %d, %d) hello\n)") != std::string::npos);
  CHECK(text.find(R"(message = "x must be non-negative")") != std::string::npos);
  CHECK(text.find(R"(function = "debug")") != std::string::npos);
  // Parsed text has no source positions; the frontend's ops have them.
  CHECK(text.find(R"(file = "<unknown>", function = "debug", line = 0)") != std::string::npos);
  // The printed thread IR parses back, verifies and prints the same.
  std::optional<Module> again = parseModule(text, "thread.ttir", diags);
  INFO(diags.str());
  REQUIRE(again.has_value());
  CHECK(verify(*again, diags));
  CHECK(simt::verifyThreadIR(*again, diags));
  CHECK(print(*again) == text);
}

TEST_CASE("tt.print and tt.assert reach the PTX as vprintf and __assertfail") {
  for (const char *arch : {"sm_80", "sm_90"}) {
    Diagnostics diags;
    std::string ptx = compilePTX(kDebugKernel, arch, diags);
    INFO(arch << "\n" << diags.str() << ptx);
    REQUIRE(!ptx.empty());
    CHECK(ptx.find(".extern .func  (.param .b32 func_retval0) vprintf") != std::string::npos);
    CHECK(ptx.find(".extern .func __assertfail") != std::string::npos);
    CHECK(countOf(ptx, "call.uni (retval0),") + countOf(ptx, "call (retval0),") == 6);
    CHECK(countOf(ptx, "vprintf,") == 6);
    CHECK(countOf(ptx, "__assertfail,") == 1);
    // The format strings and the assertion's text are in global memory.
    // Equal format strings share one array: 4 distinct formats.
    CHECK(countOf(ptx, ".global .align 1 .b8 printf_format") == 4);
    CHECK(ptx.find(".global .align 1 .b8 assert_message") != std::string::npos);
    // The argument buffer is one local array.
    CHECK(ptx.find(".local .align 8 .b8 \t__local_depot") != std::string::npos);
    checkAssembles(ptx, arch);
  }
}

TEST_CASE("tt.print widens every element type to what vprintf takes") {
  const char *kernel = R"(builtin.module ({
  tt.func {arg_divisibility = [16, 1, 1], sym_name = "types"} ({
  ^(%h: ptr<f16>, %l: i64, %d: f64):
    %i = tt.make_range {end = 128, start = 0} : block<128xi32>
    %hs = tt.splat %h : block<128xptr<f16>>
    %hp = tt.addptr %hs, %i : block<128xptr<f16>>
    %x = tt.load %hp : block<128xf16>
    %b = arith.trunci %i : block<128xi8>
    %c = arith.cmpi %i, %i {predicate = "eq"} : block<128xi1>
    tt.print %x, %b, %c {hex = false, prefix = ""}
    tt.print %x, %l, %d, %hp {hex = true, prefix = ""}
    tt.print %l, %d {hex = false, prefix = ""}
    tt.return
  })
}))";
  Diagnostics diags;
  std::optional<Module> m = parseModule(kernel, "types.ttir", diags);
  INFO(diags.str());
  REQUIRE(m.has_value());
  REQUIRE(verify(*m, diags));
  std::string text = nvptx::emitThreadIR(*m, *nvptx::targetDesc("sm_90"), {}, diags);
  INFO(diags.str() << text);
  REQUIRE(!text.empty());
  CHECK(text.find(R"(idx (%d) %.8g (operand 0)\n)") != std::string::npos);  // f16 as f64
  CHECK(text.find(R"(idx (%d) %d (operand 1)\n)") != std::string::npos);    // i8 sign-extended
  CHECK(text.find(R"(idx (%d) %d (operand 2)\n)") != std::string::npos);    // i1 as 0/1
  CHECK(text.find(R"(idx (%d) 0x%x (operand 0)\n)") != std::string::npos);  // f16 bits
  CHECK(text.find(R"(pid (%d, %d, %d) 0x%llx (operand 1)\n)") != std::string::npos); // i64 bits
  CHECK(text.find(R"(pid (%d, %d, %d) 0x%llx (operand 2)\n)") != std::string::npos); // f64 bits
  CHECK(text.find(R"(idx (%d) 0x%llx (operand 3)\n)") != std::string::npos); // a pointer
  CHECK(text.find(R"(pid (%d, %d, %d) %lld (operand 0)\n)") != std::string::npos);
  CHECK(text.find(R"(pid (%d, %d, %d) %.17g (operand 1)\n)") != std::string::npos);
  std::string ptx = compilePTX(kernel, "sm_90", diags);
  INFO(diags.str());
  CHECK(countOf(ptx, "vprintf,") > 0);
  checkAssembles(ptx, "sm_90");
}

TEST_CASE("sitofp of i1 gives -1.0 for true (LLVM 19's NVPTX backend would give +1.0)") {
  // Random seed 87 on an H200 stored +1.0 where the interpreter gives -1.0.
  const char *text = R"(builtin.module ({
  tt.func {sym_name = "k"} ({
  ^(%p: ptr<i1>, %q: ptr<f32>):
    %0 = tt.make_range {end = 128, start = 0} : block<128xi32>
    %1 = tt.splat %p : block<128xptr<i1>>
    %2 = tt.addptr %1, %0 : block<128xptr<i1>>
    %3 = tt.load %2 : block<128xi1>
    %4 = arith.sitofp %3 : block<128xf32>
    %5 = tt.splat %q : block<128xptr<f32>>
    %6 = tt.addptr %5, %0 : block<128xptr<f32>>
    tt.store %6, %4
    tt.return
  })
})
)";
  Diagnostics diags;
  std::string ptx = compilePTX(text, "sm_90", diags);
  INFO(diags.str() << ptx);
  REQUIRE(!ptx.empty());
  CHECK(countOf(ptx, "0fBF800000") >= 1); // -1.0, chosen by a select
  CHECK(countOf(ptx, "cvt.rn.f32.s32") == 0);
  CHECK(countOf(ptx, "cvt.rn.f32.u32") == 0);
  checkAssembles(ptx, "sm_90");
}

TEST_CASE("atomics keep their memory order: fence.acq_rel at their scope (LLVM 19's NVPTX drops orderings)") {
  // A spin lock as layer norm's backward takes it: acquire by compare-and-swap, release by
  // exchange; then a relaxed add of a block, which needs no fence.
  const char *text = R"(builtin.module ({
  tt.func {sym_name = "k"} ({
  ^(%lock: ptr<i32>, %x: ptr<f32>):
    %c0 = arith.constant {value = 0} : i32
    %c1 = arith.constant {value = 1} : i32
    %got = tt.atomic_cas %lock, %c0, %c1 {scope = "gpu", sem = "acquire"} : i32
    %free = tt.atomic_rmw %lock, %c0 {kind = "xchg", scope = "cta", sem = "release"} : i32
    %r = tt.make_range {end = 512, start = 0} : block<512xi32>
    %xs = tt.splat %x : block<512xptr<f32>>
    %xp = tt.addptr %xs, %r : block<512xptr<f32>>
    %one = arith.constant {value = 1.0} : block<512xf32>
    %old = tt.atomic_rmw %xp, %one {kind = "fadd", scope = "gpu", sem = "relaxed"} : block<512xf32>
    %all = tt.atomic_rmw %xp, %one {kind = "fadd", scope = "sys", sem = "acq_rel"} : block<512xf32>
    tt.return
  })
})
)";
  Diagnostics diags;
  std::string ptx = compilePTX(text, "sm_90", diags);
  INFO(diags.str() << ptx);
  REQUIRE(!ptx.empty());
  size_t cas = ptx.find("atom.global.cas"), exch = ptx.find("atom.global.exch");
  REQUIRE(cas != std::string::npos);
  REQUIRE(exch != std::string::npos);
  // The acquire's fence follows the compare-and-swap; the release's precedes the exchange.
  size_t acquireFence = ptx.find("fence.acq_rel.gpu;", cas), releaseFence = ptx.find("fence.acq_rel.cta;");
  CHECK(acquireFence != std::string::npos);
  CHECK(acquireFence < exch);
  CHECK(ptx.rfind("fence.acq_rel.gpu;", cas) == std::string::npos); // nothing before an acquire
  CHECK(releaseFence != std::string::npos);
  CHECK(releaseFence > acquireFence);
  CHECK(releaseFence < exch);
  CHECK(ptx.find("fence.acq_rel.cta;", exch) == std::string::npos); // nothing after a release
  // acq_rel at system scope on 4 elements per thread: a fence before each add and after
  // the last, the one between two adds shared (5, not 8).
  CHECK(countOf(ptx, "fence.acq_rel.sys;") == 5);
  checkAssembles(ptx, "sm_90");
}

TEST_CASE("shifts by the bit width or more give Trident's defined results, not LLVM poison") {
  // Random kernels on an H200 lost whole stores to `lshr i64 %x, 64` (poison in LLVM).
  const char *text = R"(builtin.module ({
  tt.func {sym_name = "k"} ({
  ^(%p: ptr<i64>, %q: ptr<i32>):
    %x = tt.load %p : i64
    %s = arith.constant {value = 64} : i64
    %r = arith.shrui %x, %s : i64
    tt.store %p, %r
    %y = tt.load %q : i32
    %t = arith.constant {value = 40} : i32
    %u = arith.shrsi %y, %t : i32
    tt.store %q, %u
    tt.return
  })
})
)";
  Diagnostics diags;
  std::optional<Module> m = parseModule(text, "test", diags);
  REQUIRE_MESSAGE((m && verify(*m, diags)), diags.str());
  std::string ll = nvptx::emitLLVM(*m, *nvptx::targetDesc("sm_90"), {}, diags);
  INFO(diags.str() << ll);
  REQUIRE(!ll.empty());
  CHECK(countOf(ll, "@p st.global") == 2);  // the two stores (one thread's: predicated inline PTX)
  CHECK(countOf(ll, ", i64 0, i16") == 1);  // shrui by 64: 0
  CHECK(countOf(ll, "ashr i32") == 1);       // shrsi by 40: the sign everywhere, a shift by 31
  size_t ashr = ll.find("ashr i32");
  REQUIRE(ashr != std::string::npos);
  std::string ashrLine = ll.substr(ashr, ll.find('\n', ashr) - ashr);
  CHECK_MESSAGE(ashrLine.size() > 4, ashrLine);
  CHECK_MESSAGE(ashrLine.substr(ashrLine.size() - 4) == ", 31", ashrLine);
  CHECK(countOf(ll, "poison") == 0);
}

TEST_CASE("x * s - m fuses into one fma and f32 exp2 is ex2.approx.ftz, as Triton compiles them") {
  const char *text = R"(builtin.module ({
  tt.func {sym_name = "k"} ({
  ^(%p: ptr<f32>, %s: f32, %m: f32):
    %0 = tt.make_range {end = 128, start = 0} : block<128xi32>
    %1 = tt.splat %p : block<128xptr<f32>>
    %2 = tt.addptr %1, %0 : block<128xptr<f32>>
    %3 = tt.load %2 : block<128xf32>
    %4 = tt.splat %s : block<128xf32>
    %5 = tt.splat %m : block<128xf32>
    %6 = arith.mulf %3, %4 : block<128xf32>
    %7 = arith.subf %6, %5 : block<128xf32>
    %8 = math.exp2 %7 : block<128xf32>
    tt.store %2, %8
    tt.return
  })
})
)";
  Diagnostics diags;
  std::string ptx = compilePTX(text, "sm_90", diags);
  INFO(diags.str() << ptx);
  REQUIRE(!ptx.empty());
  CHECK(countOf(ptx, "fma.rn.f32") >= 1);
  CHECK(countOf(ptx, "mul.rn.f32") == 0);
  CHECK(countOf(ptx, "ex2.approx.ftz.f32") >= 1);
  CHECK(countOf(ptx, "ex2.approx.f32") == 0);
  checkAssembles(ptx, "sm_90");
}
