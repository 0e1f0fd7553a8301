// Dots whose tiles come by sm_90's tensor-copy engine (th.tma_load, tracked by mbarriers):
// tensor descriptors and block pointers, lowered, simulated against the interpreter
// (DotHarness.h), and schedules broken on purpose that the simulator must catch.
#include "DotHarness.h"

#include <doctest/doctest.h>

using namespace trident::test;

TEST_CASE("sm_90: descriptor loads of a dot loop come by tensor copies (th.tma_load), tails read zeros") {
  // A 64 x 64 and B 64 x 128 tiles of f16 (one and two 128-byte-wide copies a stage), and
  // sizes that leave partial boxes at every edge; bf16 on 8 warps.
  DotCase even{"fp16", 128, 256, 192, 64, 128, 64, 4, false, false, false, 3, false, "sm_90"};
  even.descriptors = true;
  Outcome o = runCase(even);
  CHECK(o.wgmma > 0);
  CHECK(o.tensorCopies == 3 * 3); // 3 copies a stage: the prologue's 2 stages ahead, then the body's
  CHECK(o.asyncCopies == 0);
  DotCase tails{"fp16", 100, 200, 90, 64, 128, 64, 4, false, false, true, 3, false, "sm_90"};
  tails.descriptors = true;
  CHECK(runCase(tails).tensorCopies > 0);
  DotCase wide{"bf16", 128, 256, 128, 128, 256, 64, 8, false, false, false, 4, false, "sm_90"};
  wide.descriptors = true;
  CHECK(runCase(wide).tensorCopies > 0);
  // sm_80 has no tensor maps: the same kernel's loads are masked loads, copied by cp.async
  // where the sizes are multiples of 16 (else their masks cut the 16-byte copies).
  DotCase ampere{"fp16", 128, 256, 192, 64, 128, 64, 4, false, false, false, 3, false, "sm_80"};
  ampere.descriptors = true;
  Outcome a = runCase(ampere);
  CHECK(a.tensorCopies == 0);
  CHECK(a.asyncCopies > 0);
}

TEST_CASE("sm_90 tensor copies: the simulator fails copies missing from a phase and reads before its wait") {
  DotCase c{"fp16", 128, 256, 192, 64, 128, 64, 4, false, false, false, 3, false, "sm_90"};
  c.descriptors = true;
  // Every tensor copy gone: each stage's phase expects a tile's bytes that never come.
  Mutation missing{[](std::string t) { return editLines(t, {"th.tma_load"}, [](std::string) { return std::string(); }); },
                   "bytes of tensor copies and gets 0"};
  runCase(c, &missing);
  // No wait in the loop: th.wgmma reads a stage whose copies have not landed.
  Mutation unwaited{[](std::string t) {
                      return editLines(t, {"th.mbarrier_wait"}, [](std::string) { return std::string(); });
                    },
                    "while an asynchronous copy to it is pending"};
  runCase(c, &unwaited);
}

TEST_CASE("sm_90: block-pointer loads of a dot loop come by tensor copies: base terms, order (0, 1), k tails") {
  // A's base (a_ptr + pid * BM * sam) gives its map a third dimension; B stored
  // K-contiguous is read as the transposed box; K = 176 leaves a half box of zeros.
  DotCase c{"fp16", 128, 256, 176, 64, 128, 64, 4, false, true, false, 3, false, "sm_90"};
  c.blockPointers = true;
  Outcome o = runCase(c);
  CHECK(o.wgmma > 0);
  CHECK(o.tensorCopies == 3 * 2); // one copy of A and one of B a stage (B's 64-row box is 128 bytes wide)
  CHECK(o.tensorCopyRank == 3);
  CHECK(o.asyncCopies == 0);
  DotCase wide{"bf16", 256, 256, 128, 128, 256, 64, 8, false, false, false, 4, false, "sm_90"};
  wide.blockPointers = true;
  CHECK(runCase(wide).tensorCopies > 0);
  // Strides the specialization does not prove 16-byte multiples: block pointers promise
  // no alignment, so no tensor map (nor 16-byte cp.async copies); plain loads, same result.
  DotCase unknown = c;
  unknown.stridesUnknown = true;
  Outcome u = runCase(unknown);
  CHECK(u.tensorCopies == 0);
  CHECK(u.wgmma > 0);
  // sm_80: masked loads, cp.async.
  DotCase ampere = c;
  ampere.arch = "sm_80";
  Outcome a = runCase(ampere);
  CHECK(a.tensorCopies == 0);
  CHECK(a.mma > 0);
}
