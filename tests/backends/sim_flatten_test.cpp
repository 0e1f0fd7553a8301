// benchmarks/matmul_persistent.py (tutorial 09's persistent tile loop, `tl.range(...,
// flatten=True)`) on ragged shapes: the block pipeline's fused loop (passes/
// FlattenLoops.h) against the nest as written and as the pipeline leaves it with
// TRIDENT_FLATTEN=0, in the interpreter (bit for bit); then lowered for sm_90 and sm_80,
// the fused loop pipelined, in the thread-IR simulator against the interpreter.
#include "../core/simt/ThreadSim.h"
#include "SampleCases.h"
#include "trident/backends/nvptx/CodeGen.h"
#include "trident/backends/nvptx/Target.h"
#include "trident/passes/Pipeline.h"

#include <doctest/doctest.h>

#include <cstdlib>

using namespace trident;
using namespace trident::test;

namespace {

// M x K times K x N with leading dimensions padded to 16-element multiples (the kernel's
// loads then vectorize, which pipelining needs), NUM_SMS programs walking the tiles.
struct Shape {
  int M, N, K, programs;
};

int pad16(int x) { return (x + 15) / 16 * 16; }

Case persistentCase(const Shape &s, int blockM, int blockN, int blockK) {
  using P = Param;
  static std::deque<std::string> signatures; // Case holds C strings
  // M, N and K divisible by 16 (as the benchmark's are) let the loads vectorize.
  std::string dims = s.M % 16 || s.N % 16 || s.K % 16 ? "i32, i32, i32" : "i32:16, i32:16, i32:16";
  signatures.push_back("*fp16:16, *fp16:16, *fp16:16, " + dims + ", i32:16, 1, i32:16, 1, i32:16, 1, " +
                       std::to_string(blockM) + ", " + std::to_string(blockN) + ", " + std::to_string(blockK) +
                       ", 8, " + std::to_string(s.programs));
  int lda = pad16(std::max(s.K, 1)), ldb = pad16(s.N), ldc = pad16(s.N);
  return {"matmul_persistent.py",
          "matmul_persistent_kernel",
          signatures.back().c_str(),
          {uint32_t(s.programs), 1, 1},
          {P::buffer(Elem::F16, size_t(s.M) * lda), P::buffer(Elem::F16, size_t(std::max(s.K, 1)) * ldb),
           P::filled(Elem::F16, size_t(s.M) * ldc, -7), P::i32(s.M), P::i32(s.N), P::i32(s.K), P::i32(lda),
           P::i32(ldb), P::i32(ldc)},
          2e-2,
          1e-2};
}

// Shapes no block (64 x 64 x 32) divides: more tiles than programs, fewer, K under one
// k step, K = 0 (the nest without its inner loop: C is zeros); multiples of 16, and
// (the interpreter only: nothing vectorizes, so nothing pipelines) not.
const Shape kShapes[] = {{80, 144, 48, 3}, {80, 144, 48, 8}, {208, 80, 16, 5}, {48, 48, 0, 2}};
const Shape kOddShapes[] = {{100, 72, 40, 3}, {130, 200, 10, 5}};

// True when some tt.dot runs in an scf.for nested in another (the nest as written).
bool nested(const Module &m) {
  bool found = false;
  m.op()->walk([&](Op *op) {
    if (!op->is(OpCode::Dot))
      return;
    int loops = 0;
    for (Op *p = op->parentOp(); p; p = p->parentOp())
      loops += p->is(OpCode::For);
    found = found || loops > 1;
  });
  return found;
}

Module optimized(const Module &m, bool flatten) {
  if (!flatten)
    setenv("TRIDENT_FLATTEN", "0", 1);
  Module out = m.clone();
  PassManager pm;
  addDefaultPipeline(pm);
  Diagnostics diags;
  bool ok = pm.run(out, diags);
  unsetenv("TRIDENT_FLATTEN");
  INFO(diags.str());
  REQUIRE(ok);
  return out;
}

std::vector<std::vector<uint8_t>> run(const Module &m, const Case &c) {
  std::vector<std::vector<uint8_t>> buffers = sampleInputs(c);
  Diagnostics diags;
  bool ok = runInterpreter(m, c, buffers, diags);
  INFO(diags.str());
  REQUIRE(ok);
  return buffers;
}

} // namespace

TEST_CASE("a flattened persistent matmul computes what the nest computes (interpreter, bit for bit)") {
  std::vector<Shape> shapes(std::begin(kShapes), std::end(kShapes));
  shapes.insert(shapes.end(), std::begin(kOddShapes), std::end(kOddShapes));
  for (const Shape &s : shapes) {
    Case c = persistentCase(s, 64, 64, 32);
    INFO("M " << s.M << " N " << s.N << " K " << s.K << " programs " << s.programs);
    Diagnostics diags;
    std::optional<Module> m = compileSample(c, TRIDENT_BENCHMARKS_DIR, diags);
    INFO(diags.str());
    REQUIRE(m.has_value());
    Module fused = optimized(*m, true), kept = optimized(*m, false);
    CHECK(nested(*m));
    CHECK(!nested(fused));
    CHECK(nested(kept)); // TRIDENT_FLATTEN=0
    std::vector<std::vector<uint8_t>> want = run(*m, c), a = run(fused, c), b = run(kept, c);
    CHECK(a[2] == want[2]);
    CHECK(b[2] == want[2]);
    if (s.K == 0) { // every element of C in range is zero
      size_t zeros = 0;
      for (int i = 0; i < s.M; ++i)
        for (int j = 0; j < s.N; ++j)
          zeros += elementAt(a[2], Elem::F16, size_t(i) * pad16(s.N) + j) == 0;
      CHECK(zeros == size_t(s.M) * s.N);
    }
  }
}

TEST_CASE("a flattened persistent matmul, pipelined for sm_90 and sm_80, agrees with the interpreter") {
  for (std::string target : {"sm_90", "sm_80"})
    for (const Shape &s : kShapes) {
      Case c = persistentCase(s, 64, 64, 32);
      INFO(target << ": M " << s.M << " N " << s.N << " K " << s.K << " programs " << s.programs);
      Diagnostics diags;
      std::optional<Module> m = compileSample(c, TRIDENT_BENCHMARKS_DIR, diags);
      INFO(diags.str());
      REQUIRE(m.has_value());
      std::vector<std::vector<uint8_t>> ref = run(*m, c), sim = sampleInputs(c);

      TargetDesc desc = *nvptx::targetDesc(target);
      nvptx::PTXOptions options;
      options.kernel = c.kernel;
      options.numWarps = 4;
      std::optional<Module> threadIR = nvptx::lowerToThreadIR(*m, desc, options, diags);
      INFO(diags.str());
      REQUIRE(threadIR.has_value());
      // The fused loop (the one holding the matrix ops) is pipelined: copies into its
      // rings, and on sm_90 wgmma groups left running from one k step to the next.
      int copies = 0, running = 0, atoms = 0;
      threadIR->op()->walk([&](Op *op) {
        if (!op->parentOp() || !op->parentOp()->is(OpCode::For))
          return;
        copies += op->is(OpCode::ThAsyncCopy);
        running += op->is(OpCode::ThWgmmaWait) && op->intAttr("pending") == 1;
        atoms += op->is(OpCode::ThWgmma) || op->is(OpCode::ThMma);
      });
      CHECK(atoms > 0);
      CHECK(copies > 0);
      CHECK((running > 0) == (target == "sm_90"));

      simt::test::ThreadSim simulator(desc.warpSize, desc.matrixAtoms);
      std::vector<uint64_t> args;
      for (size_t i = 0; i < c.params.size(); ++i) {
        const Param &p = c.params[i];
        if (p.kind == Param::Buffer) {
          simulator.addBuffer(sim[i].data(), sim[i].size());
          args.push_back(reinterpret_cast<uint64_t>(sim[i].data()));
        } else {
          args.push_back(static_cast<uint32_t>(p.i));
        }
      }
      std::string error;
      bool ran = simulator.run(*threadIR, c.kernel, args, c.grid, error);
      INFO(error);
      REQUIRE(ran);
      size_t first = 0, bad = countDifferences(c, 2, ref[2], sim[2], first);
      INFO(bad << " elements of C differ; first at " << first);
      CHECK(bad == 0);
    }
}
