#pragma once
// A test-only simulator of thread IR: runs every thread of a program in lockstep
// (thread IR's control flow is uniform), with warp shuffles, shared memory and
// barriers, the matrix-unit ops of the target's atoms (th.mma, th.ldmatrix) and
// asynchronous copies (th.async_copy / commit / wait). It checks what a GPU would
// not: global accesses stay inside registered buffers and are aligned to their size,
// shared-memory accesses of different threads are separated by a barrier (a race is
// an error), reads of shared memory see written bytes, no access touches bytes an
// asynchronous copy is still in flight to, and every copy is waited for. It also
// counts shared-memory wavefronts and bank conflicts (NVIDIA's 32 banks of 4 bytes).
// The regions of a th.warp_specialize run interleaved on host threads, one at a time (a
// region runs until an mbarrier wait it cannot pass), their shared-memory accesses
// ordered by mbarrier phases alone (vector clocks, ThreadSimImpl.h).

#include "trident/ir/IR.h"
#include "trident/simt/TargetDesc.h"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace trident::simt::test {

class ThreadSim {
public:
  // `atoms`: the target's matrix atoms (TargetDesc::matrixAtoms) th.mma may name.
  explicit ThreadSim(unsigned warpSize = 32, std::vector<MatrixAtom> atoms = {})
      : warpSize_(warpSize), atoms_(std::move(atoms)) {}

  // The known layouts of cooperative matrices (TargetDesc::coopMatrices' layouts), by
  // which th.coop_extract and th.coop_insert pick a tile's elements; without them those
  // ops fail.
  void setCoopMatrices(const std::vector<CoopMatrixShape> &shapes) { coopShapes_ = shapes; }

  void addBuffer(void *base, size_t bytes) { buffers_.push_back({reinterpret_cast<uintptr_t>(base), bytes}); }

  // Also fails a release atomic (sem release or acq_rel) that only some threads issue,
  // at one address in every thread (a scalar atomic: a lock's release), while another
  // thread has stored to global memory since the last barrier: that release does not
  // publish the store (programs run one after another here, so nothing else shows it).
  // Off by default: a masked block atomic need not publish the other threads' stores.
  void checkReleases(bool on = true) { checkReleases_ = on; }

  // Runs `kernel` over `grid` programs; each argument is the bits of a scalar or a
  // host address. Returns false with `error` set on the first problem found.
  bool run(const Module &threadIR, std::string_view kernel, const std::vector<uint64_t> &args,
           std::array<uint32_t, 3> grid, std::string &error);

  // Over the last run (all programs): barriers executed; wavefronts of the warp-wide
  // shared accesses (th.load_shared, th.store_shared, th.ldmatrix), and how many of
  // them were beyond the minimum (bank conflicts). A phase of lanes (32 lanes for
  // accesses of up to 4 bytes, 16 for 8 bytes, 8 for 16 bytes and for each matrix of
  // an ldmatrix) takes as many wavefronts as its busiest bank has distinct words.
  uint64_t barriersExecuted() const { return barriers_; }
  uint64_t subgroupBarriersExecuted() const { return subgroupBarriers_; }
  uint64_t sharedWavefronts() const { return wavefronts_; }
  uint64_t bankConflicts() const { return wavefronts_ - minimumWavefronts_; }

private:
  struct Buffer {
    uintptr_t base;
    size_t bytes;
  };
  friend class SimProgram;
  unsigned warpSize_;
  std::vector<MatrixAtom> atoms_;
  std::vector<CoopMatrixShape> coopShapes_;
  std::vector<Buffer> buffers_;
  uint64_t barriers_ = 0, subgroupBarriers_ = 0, wavefronts_ = 0, minimumWavefronts_ = 0;
  bool checkReleases_ = false;
};

} // namespace trident::simt::test
