// Dots on NVIDIA's matrix units (mma.sync, ldmatrix), lowered for sm_80 and run in the
// thread-IR simulator against the reference interpreter: every input type an atom takes
// (f16, bf16, f32 as tf32), operands stored transposed, shapes that need masks, 1 to 8
// warps, the K loop, a fused epilogue. The simulator executes th.mma and th.ldmatrix
// element by element and counts shared-memory bank conflicts.
#include "DotHarness.h"

#include <doctest/doctest.h>

#include <string>

using namespace trident;
using namespace trident::test;

TEST_CASE("fp16 dots run on mma.sync with ldmatrix, conflict-free, in 1 to 8 warps") {
  for (unsigned warps : {1u, 2u, 4u, 8u}) {
    INFO("warps " << warps);
    Outcome o = runCase({"fp16", 64, 64, 64, 64, 64, 32, warps, false, false});
    // (64/16) x (64/8) atoms x (32/16) k steps per program, spread over the warps
    // (thread IR is one thread's, so the warp's share).
    CHECK(o.mma == 64 / int(warps));
    CHECK(o.ldmatrix > 0);
    CHECK(o.ldmatrixTrans > 0); // B is N-contiguous: ldmatrix.trans
    CHECK(o.bankConflicts == 0);
  }
}

TEST_CASE("bf16 and tf32 dots, odd sizes with masks, several programs") {
  Outcome bf = runCase({"bf16", 100, 72, 80, 64, 32, 32, 4, false, false});
  CHECK(bf.mma > 0);
  Outcome tf = runCase({"fp32", 48, 40, 40, 32, 32, 16, 4, false, false});
  CHECK(tf.mma > 0);
  CHECK(tf.atom == "mma.m16n8k8.f32.tf32");
  CHECK(bf.atom == "mma.m16n8k16.f32.bf16");
  CHECK(tf.ldmatrix > 0); // A's 32-bit elements as pairs of 16-bit units; B by plain loads
  // B (n-contiguous) is read 4 bytes per lane at 4 k rows: its tile's swizzle is chosen
  // for those reads (16-byte units put two rows on the same banks: 256 conflicts here).
  Outcome wide = runCase({"fp32", 64, 64, 64, 64, 64, 32, 4, false, false});
  CHECK(wide.bankConflicts == 0);
}

TEST_CASE("tf32x3 dots: three tf32 products per step, within f32 rounding where tf32 is not") {
  // Inputs with full f32 mantissas: one tf32 product loses about 2^-11 of each, so plain
  // tf32 must miss a tolerance of 1e-4 over K = 64 that tf32x3 meets.
  DotCase x3 = {"fp32", 48, 40, 64, 32, 32, 16, 4, false, false};
  x3.precision = "tf32x3";
  x3.fullMantissa = true;
  x3.tolerance = 1e-4f;
  Outcome three = runCase(x3);
  CHECK(three.atom == "mma.m16n8k8.f32.tf32");
  DotCase one = x3;
  one.precision = "tf32";
  one.tolerance = 1.0f; // only measured
  Outcome single = runCase(one);
  CHECK(three.mma == 3 * single.mma);
  MESSAGE("largest error: tf32x3 " << three.maxError << ", tf32 " << single.maxError);
  CHECK(three.maxError < 1e-4);
  CHECK(single.maxError > 1e-4);
}

TEST_CASE("f64 dots run on mma.m8n8k4") {
  Outcome o = runCase({"fp64", 64, 32, 48, 32, 32, 16, 4, false, false});
  CHECK(o.atom == "mma.m8n8k4.f64.f64");
  CHECK(o.mma == 16); // per warp: 4 of the 16 8x8 atoms of the tile, in each of 4 k steps
  CHECK(o.asyncCopies > 0);
  // A and B fragments are 8 bytes per lane, 4 lanes along a row of the tile: 32-byte
  // swizzle units keep the 4 rows a 16-lane phase reads on distinct banks (16-byte units,
  // the ldmatrix tiles', gave 1024 conflicts for the benchmark's 64x64x32 tile).
  Outcome bench = runCase({"fp64", 64, 64, 64, 64, 64, 32, 4, false, false});
  CHECK(bench.bankConflicts == 0);
  Outcome odd = runCase({"fp64", 40, 24, 20, 32, 32, 16, 2, true, false, true});
  CHECK(odd.mma > 0);
}

TEST_CASE("int8 dots run on mma.m16n8k32 into exact i32") {
  Outcome o = runCase({"i8", 64, 64, 96, 64, 64, 32, 4, false, false});
  CHECK(o.mma == 8); // warps 2 x 2: (32/16) x (32/8) atoms per warp, one k step of 32 per tile
  CHECK(o.atom == "mma.m16n8k32.s32.s8");
  CHECK(o.asyncCopies > 0);
  CHECK(o.ldmatrix > 0); // A, k-contiguous: bytes in pairs of 16-bit units
  Outcome odd = runCase({"i8", 40, 24, 48, 32, 32, 32, 2, false, false});
  CHECK(odd.mma > 0);
}

TEST_CASE("fp8 dots (e4m3, e5m2) run on mma.m16n8k32 on sm_89 and sm_90, multiply-adds on sm_80") {
  for (const char *arch : {"sm_89", "sm_90"}) {
    INFO(std::string(arch));
    DotCase e4 = {"fp8e4nv", 64, 64, 128, 64, 64, 64, 4, false, false};
    e4.arch = arch;
    Outcome o = runCase(e4);
    CHECK(o.mma > 0);
    CHECK(o.atom == "mma.m16n8k32.f32.e4m3");
    CHECK(o.asyncCopies > 0);
    CHECK(o.ldmatrix > 0); // A; B (n-contiguous) is read byte by byte, not conflict-free yet
    DotCase e5 = {"fp8e5", 40, 24, 72, 32, 32, 32, 2, false, false, true}; // masked edges, epilogue
    e5.arch = arch;
    Outcome odd = runCase(e5);
    CHECK(odd.atom == "mma.m16n8k32.f32.e5m2");
  }
  CHECK(runCase({"fp8e4nv", 64, 64, 64, 64, 64, 32, 4, false, false}).mma == 0);
}

TEST_CASE("f16 dots with f16 accumulators (out_dtype=tl.float16) take the f16 atom") {
  DotCase c{"fp16", 64, 64, 64, 64, 64, 32, 4, false, false};
  c.f16Accumulator = true;
  Outcome o = runCase(c);
  CHECK(o.mma == 16);
  CHECK(o.atom == "mma.m16n8k16.f16.f16");
}

TEST_CASE("transposed operands take ldmatrix.trans for A and plain ldmatrix for B") {
  Outcome o = runCase({"fp16", 64, 64, 64, 64, 64, 32, 4, true, true});
  CHECK(o.mma > 0);
  CHECK(o.ldmatrixTrans > 0);
  CHECK(o.ldmatrix > o.ldmatrixTrans);
  CHECK(o.bankConflicts == 0);
}

TEST_CASE("a fused epilogue works on the accumulator layout") {
  Outcome o = runCase({"fp16", 64, 128, 32, 64, 128, 32, 8, false, false, true});
  CHECK(o.mma > 0);
}

TEST_CASE("1 to 5 pipeline stages: cp.async rings ordered by waits and barriers the simulator checks") {
  for (unsigned stages : {1u, 2u, 3u, 4u, 5u}) {
    INFO("stages " << stages);
    // K = 160: five k tiles, so every depth has a steady state and a drained tail.
    Outcome o = runCase({"fp16", 64, 64, 160, 64, 64, 32, 4, false, false, false, stages});
    CHECK(o.mma == 16);
    CHECK((o.asyncCopies > 0) == (stages > 1));
    CHECK(o.bankConflicts == 0);
  }
  // The last k tile is half past K (K = 80, BK = 32): its masked half is copied as zeros.
  Outcome o = runCase({"fp16", 64, 64, 80, 64, 64, 32, 4, false, false, false, 3});
  CHECK(o.asyncCopies > 0);
}

TEST_CASE("sm_90: dots run on wgmma from canonical shared tiles, both majors, 4 and 8 warps, the simulator checks") {
  struct Wg {
    DotCase c;
    const char *atom;
    int wgmma;
    const char *aMajor, *bMajor;
  };
  std::vector<Wg> cases = {
      // One warpgroup, 64 x 64 tile: 2 k steps of 16 per 32-wide k tile, one n64 atom.
      {{"fp16", 64, 64, 96, 64, 64, 32, 4, false, false, false, 3, false, "sm_90"}, "wgmma.m64n64k16.f32.f16", 2,
       "k", "mn"},
      // Two warpgroups along M, one m64n256 atom each per k step, 128B-swizzled blocks.
      {{"fp16", 128, 256, 128, 128, 256, 64, 8, false, false, false, 3, false, "sm_90"},
       "wgmma.m64n256k16.f32.f16", 4, "k", "mn"},
      // Transposed operands: A M-major, B K-major; masked edges; bf16.
      {{"bf16", 100, 136, 72, 64, 128, 32, 4, true, true, false, 2, false, "sm_90"},
       "wgmma.m64n128k16.f32.bf16", 2, "mn", "k"},
      // Not pipelined (num_stages = 1): operands written to shared memory by the threads.
      {{"fp16", 64, 128, 64, 64, 128, 64, 4, false, false, false, 1, false, "sm_90"},
       "wgmma.m64n128k16.f32.f16", 4, "k", "mn"},
      // 8 warps on a 64-row tile: the warpgroups split N.
      {{"fp16", 64, 256, 64, 64, 256, 32, 8, false, false, true, 3, false, "sm_90"},
       "wgmma.m64n128k16.f32.f16", 2, "k", "mn"},
  };
  for (const Wg &w : cases) {
    INFO(std::string(w.atom) << " " << w.c.m << "x" << w.c.n << "x" << w.c.k);
    Outcome o = runCase(w.c);
    CHECK(o.atom == w.atom);
    CHECK(o.wgmma == w.wgmma);
    CHECK(o.mma == 0);
    CHECK(o.wgmmaASharedMajor == w.aMajor);
    CHECK(o.wgmmaBMajor == w.bMajor);
  }
  DotCase half{"fp16", 64, 64, 64, 64, 64, 32, 4, false, false, false, 3, true, "sm_90"};
  CHECK(runCase(half).atom == "wgmma.m64n64k16.f16.f16");
}

TEST_CASE("sm_90: tf32, int8 and fp8 dots run on wgmma when both operands are K-contiguous, on mma.sync otherwise") {
  struct Wg {
    DotCase c;
    const char *atom;
  };
  std::vector<Wg> cases = {
      // A row-major, B stored transposed (k-contiguous, as a weight matrix is): wgmma.
      {{"fp32", 64, 128, 64, 64, 128, 32, 4, false, true, false, 3, false, "sm_90"}, "wgmma.m64n128k8.f32.tf32"},
      {{"i8", 64, 64, 192, 64, 64, 64, 4, false, true, false, 3, false, "sm_90"}, "wgmma.m64n64k32.s32.s8"},
      {{"fp8e4nv", 64, 128, 128, 64, 128, 64, 4, false, true, true, 3, false, "sm_90"},
       "wgmma.m64n128k32.f32.e4m3"},
      // Masked edges, not pipelined.
      {{"fp8e5", 72, 80, 96, 64, 64, 32, 4, false, true, false, 1, false, "sm_90"}, "wgmma.m64n64k32.f32.e5m2"},
      // B n-contiguous (row-major): only mma.sync reads it.
      {{"fp32", 64, 64, 64, 64, 64, 32, 4, false, false, false, 3, false, "sm_90"}, "mma.m16n8k8.f32.tf32"},
      {{"i8", 64, 64, 64, 64, 64, 32, 4, false, false, false, 3, false, "sm_90"}, "mma.m16n8k32.s32.s8"},
  };
  for (const Wg &w : cases) {
    INFO(std::string(w.c.dtype) << " " << w.atom);
    Outcome o = runCase(w.c);
    CHECK(o.atom == w.atom);
    if (std::string_view(w.atom).starts_with("wgmma")) {
      CHECK(o.wgmma > 0);
      CHECK(o.wgmmaASharedMajor == "k");
      CHECK(o.wgmmaBMajor == "k");
    }
  }
  // tf32x3 splits its operands in registers: mma.sync even when both are K-contiguous.
  DotCase x3{"fp32", 64, 64, 64, 64, 64, 32, 4, false, true, false, 3, false, "sm_90"};
  x3.precision = "tf32x3";
  CHECK(runCase(x3).atom == "mma.m16n8k8.f32.tf32");
}

TEST_CASE("sm_90: the simulator sees a wgmma schedule that reads or overwrites operands too early") {
  // A pipelined wgmma dot of 6 k tiles in 3 stages; each change of its schedule is a
  // real bug the GPU would not report.
  DotCase base{"fp16", 64, 64, 96, 64, 64, 16, 4, false, false, false, 3, false, "sm_90"};
  // The loop's last group still in flight when the epilogue reads the accumulators.
  Mutation early{[](std::string t) {
                   return editLines(t, {"th.wgmma_wait", "pending = 0"},
                                    [](std::string l) { return replaced(l, "pending = 0", "pending = 1"); }, true);
                 },
                 "the result of a th.wgmma still in flight"};
  runCase(base, &early);
  // Two groups left in flight in the loop: the copies of a later tile overwrite the stage
  // the older one still reads.
  Mutation overwrite{[](std::string t) {
                       return editLines(t, {"th.wgmma_wait", "pending = 1"},
                                        [](std::string l) { return replaced(l, "pending = 1", "pending = 2"); });
                     },
                     "is written while a th.wgmma in flight reads it"};
  runCase(base, &overwrite);
  // The copies' bytes reach wgmma without a fence for the async proxy.
  Mutation unfenced{
      [](std::string t) { return editLines(t, {"th.fence_async_shared"}, [](std::string) { return std::string(); }); },
      "read by the async proxy after a write no th.fence_async_shared ordered before it"};
  runCase(base, &unfenced);
  // As lowered, the schedule passes.
  CHECK(runCase(base).wgmma > 0);
}

#ifdef TRIDENT_HAVE_AMDGPU
TEST_CASE("AMD: dots run on MFMA (gfx90a, gfx942: wave64) and WMMA (gfx1100: wave32), simulated from the ISA, "
          "operands loaded an iteration ahead") {
  struct Amd {
    DotCase c;
    const char *atom;
    int mma; // th.mma per thread in the kernel's text (the K loop's body counted once)
  };
  auto amd = [](const char *arch, const char *dtype, int m, int n, int k, int bm, int bn, int bk, unsigned warps,
                bool at = false, bool bt = false, bool epilogue = false) {
    DotCase c{dtype, m, n, k, bm, bn, bk, warps, at, bt, epilogue};
    c.arch = arch;
    return c;
  };
  std::vector<Amd> cases = {
      // 64 x 64 on 4 waves: 2 x 2 waves of one 32x32 atom each, 4 k steps of 8 per 32-wide k tile.
      {amd("gfx90a", "fp16", 64, 64, 64, 64, 64, 32, 4), "v_mfma_f32_32x32x8f16", 4},
      {amd("gfx942", "fp16", 64, 64, 64, 64, 64, 32, 4), "v_mfma_f32_32x32x8_f16", 4},
      // 64 x 32 would leave two of four waves idle on 32x32 atoms: 16x16 ones, 2 per wave and k step.
      // Sizes off the blocks (masks), several programs.
      {amd("gfx90a", "bf16", 100, 72, 80, 64, 32, 32, 4), "v_mfma_f32_16x16x16bf16_1k", 4},
      {amd("gfx942", "bf16", 100, 72, 80, 64, 32, 32, 4), "v_mfma_f32_16x16x16_bf16", 4},
      // int8 into exact i32: gfx942 has k = 16 per 32x32 atom, gfx90a k = 8.
      {amd("gfx90a", "i8", 64, 64, 96, 64, 64, 32, 4), "v_mfma_i32_32x32x8i8", 4},
      {amd("gfx942", "i8", 64, 64, 96, 64, 64, 32, 4), "v_mfma_i32_32x32x16_i8", 2},
      {amd("gfx942", "i8", 40, 24, 48, 32, 32, 32, 2), "v_mfma_i32_16x16x32_i8", 2},
      // Both operands stored transposed, 8 waves (4 x 2), a fused epilogue; 1 wave alone.
      {amd("gfx942", "fp16", 128, 128, 64, 128, 128, 32, 8, true, true, true), "v_mfma_f32_32x32x8_f16", 8},
      {amd("gfx90a", "fp16", 32, 32, 32, 32, 32, 16, 1), "v_mfma_f32_32x32x8f16", 2},
      // gfx1100: 16x16x16 on wave32, A and B repeated in both half-waves.
      {amd("gfx1100", "fp16", 64, 64, 64, 64, 64, 32, 4), "v_wmma_f32_16x16x16_f16", 8},
      {amd("gfx1100", "bf16", 48, 40, 40, 32, 32, 32, 2, true, true), "v_wmma_f32_16x16x16_bf16", 4},
      {amd("gfx1100", "i8", 64, 64, 96, 64, 64, 32, 4), "v_wmma_i32_16x16x16_iu8", 8},
      {amd("gfx1100", "fp16", 64, 128, 32, 64, 128, 32, 8, false, false, true), "v_wmma_f32_16x16x16_f16", 8},
  };
  for (const Amd &a : cases) {
    INFO(std::string(a.c.arch) << " " << std::string(a.c.dtype) << " " << a.c.m << "x" << a.c.n << "x" << a.c.k << ", " << a.c.warps
                  << " waves");
    Outcome o = runCase(a.c);
    CHECK(o.atom == a.atom);
    CHECK(o.mma == a.mma);
    CHECK(o.ldmatrix == 0);
    CHECK(o.asyncCopies == 0); // no cp.async on AMD: num_stages loads into registers instead
    CHECK(o.loadsOutsideLoops > 0); // the first iteration's A and B, before the loop
    CHECK(o.sharedBytes <= 64 * 1024);
    CHECK(o.bankConflicts == 0);
  }
  // num_stages = 1: every load stays in the loop; the same results.
  DotCase single = amd("gfx942", "bf16", 100, 72, 80, 64, 32, 32, 4);
  single.stages = 1;
  Outcome s = runCase(single);
  CHECK(s.loadsOutsideLoops == 0);
  CHECK(s.mma == 4);
  // f16 accumulators (out_dtype=tl.float16): no AMD atom takes them; multiply-adds.
  DotCase half = amd("gfx942", "fp16", 64, 64, 32, 64, 64, 32, 4);
  half.f16Accumulator = true;
  CHECK(runCase(half).mma == 0);
}
#endif

