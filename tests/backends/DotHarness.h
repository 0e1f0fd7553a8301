#pragma once
// The dot harness of dot_mma_tests (DotHarness.cpp): a Triton-language matmul lowered for
// one target, run in the thread-IR simulator against the reference interpreter.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace trident::test {

struct DotCase {
  const char *dtype; // "fp16", "bf16", "fp32", "fp64" (f64 accumulator), "i8", "fp8e4nv", "fp8e5"
  int m, n, k;       // problem sizes
  int bm, bn, bk;    // block sizes
  unsigned warps;
  bool aTransposed, bTransposed; // stored transposed: A M-contiguous, B K-contiguous
  bool epilogue = false;
  unsigned stages = 3; // num_stages: 1 is no pipelining
  bool f16Accumulator = false; // out_dtype=tl.float16
  const char *arch = "sm_80";   // sm_90: wgmma; gfx90a, gfx942, gfx1100: MFMA / WMMA
  const char *precision = nullptr; // input_precision (default: tf32 for fp32, else ieee)
  bool fullMantissa = false;       // fp32 inputs uniform in [-1, 1] (not exact in tf32)
  float tolerance = 0;             // |interpreter - simulator| allowed (default: rounding only)
  bool descriptors = false;        // kDescriptorSource (A and B not transposed)
  bool blockPointers = false;      // kBlockPointerSource (A row-major, M a multiple of BM)
  bool stridesUnknown = false;     // strides declared i32, not i32:16 (nothing proves them aligned)
};

// A change of the lowered thread IR's text before it is simulated, and the error the
// simulator must then report (a test of the simulator's checks on real schedules).
struct Mutation {
  std::function<std::string(std::string)> edit;
  const char *expectError;
};

struct Outcome {
  int mma = 0, ldmatrix = 0, ldmatrixTrans = 0, asyncCopies = 0, wgmma = 0, tensorCopies = 0;
  int tensorCopyRank = 0; // the most coordinates a th.tma_load takes
  int loadsOutsideLoops = 0; // th.load not in an scf.for (the kernel's loads are all in its K loop)
  std::string atom; // of the last th.mma or th.wgmma
  std::string wgmmaASharedMajor, wgmmaBMajor; // of the last th.wgmma: "k", "mn" (A: or "registers")
  uint64_t bankConflicts = 0;
  int64_t sharedBytes = 0;
  double maxError = 0; // the largest |interpreter - simulator|
};

// Lowers, simulates and compares case `c` (REQUIREs and CHECKs inside); with `mutation`,
// the simulator must fail with its error instead.
Outcome runCase(const DotCase &c, const Mutation *mutation = nullptr);

// Changes the lines of `text` that contain every one of `needles` (all of them, or only
// the last with `lastOnly`) by `edit`.
std::string editLines(const std::string &text, std::vector<std::string> needles,
                      const std::function<std::string(std::string)> &edit, bool lastOnly = false);
// `line` with its first `from` replaced by `to` (which must be there).
std::string replaced(std::string line, const std::string &from, const std::string &to);

} // namespace trident::test
