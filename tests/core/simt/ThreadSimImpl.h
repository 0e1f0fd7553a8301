#pragma once
// What the source files of the thread-IR simulator (ThreadSim.h) share; private to
// them. ThreadSim.cpp runs the ops; ThreadSimScalar.cpp defines the value helpers below
// and the scalar arithmetic;
// ThreadSimShared.cpp is shared memory (race checks, asynchronous copies, bank
// counting); ThreadSimMatrix.cpp is the matrix-unit ops (th.mma, th.ldmatrix), ThreadSimAmdMatrix.cpp
// AMD's atoms' fragments from the ISA.

#include "trident/ir/IR.h"
#include "trident/simt/TargetDesc.h"

#include <array>
#include <bit>
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

namespace trident::simt::test::detail {

// One value across all threads: numThreads * lanes words (lanes: vector length or 1).
using Words = std::vector<uint64_t>;

struct SimError {
  std::string message;
};

[[noreturn]] void fail(const Op *op, const std::string &message);

unsigned bitsOf(Type t);
uint64_t mask(uint64_t w, unsigned bits);
int64_t signedOf(uint64_t w, unsigned bits);
double floatOf(uint64_t w, Type t); // exact for f16, bf16, f32, f64
uint64_t wordOf(double d, Type t);  // rounded to nearest even

// f32 arithmetic rounds once, in float; f16 and bf16 compute in float and round.
template <class F> uint64_t floatBinary(uint64_t a, uint64_t b, Type t, F f) {
  if (t == Type::f16() || t == Type::bf16()) {
    float x = static_cast<float>(floatOf(a, t)), y = static_cast<float>(floatOf(b, t));
    return wordOf(static_cast<float>(f(x, y)), t);
  }
  if (t == Type::f32()) {
    float x = std::bit_cast<float>(static_cast<uint32_t>(a)),
          y = std::bit_cast<float>(static_cast<uint32_t>(b));
    return std::bit_cast<uint32_t>(static_cast<float>(f(x, y)));
  }
  return std::bit_cast<uint64_t>(static_cast<double>(f(floatOf(a, t), floatOf(b, t))));
}

// The block-IR op `op` (arithmetic, math, comparisons, constants, program ids) on scalars
// of `threads` threads: operand i's words are *operands[i]; the result's words.
Words runScalarOp(const Op *op, const std::vector<const Words *> &operands, unsigned threads,
                  std::array<uint32_t, 3> pid, std::array<uint32_t, 3> grid);

// ---- bank conflicts: 32 banks of 4 bytes. A warp-wide access is served in phases
// of consecutive lanes; a phase takes as many wavefronts as the bank holding the
// most distinct 4-byte words it touches (one word read by several lanes is a
// broadcast). Every phase that accesses anything needs at least one.
struct LaneAccess {
  uint64_t offset = 0; // shared byte
  bool active = false; // false: predicated off, no access
};

struct BankCounts {
  uint64_t wavefronts = 0;
  uint64_t minimum = 0; // one per phase that accessed anything
};

// Adds one phase in which each active access reads or writes `bytes` bytes.
void countPhase(std::span<const LaneAccess> phase, uint64_t bytes, BankCounts &counts);
// Adds one access of `bytes` bytes per lane by the lanes of one warp: one phase of 32
// lanes up to 4 bytes, two of 16 for 8 bytes, four of 8 for 16 bytes.
void countWarpAccess(std::span<const LaneAccess> lanes, uint64_t bytes, BankCounts &counts);

// Fails unless bytes [offset, offset + bytes) of shared memory lie inside the
// allocation that `access` names (its operand #allocOperand, a th.shared_alloc).
void checkInAllocation(const Op *access, uint64_t offset, uint64_t bytes, unsigned allocOperand = 0);

// A program's shared memory: its bytes, which thread wrote and read each byte since
// the last barrier (so that accesses of different threads without a barrier between
// them are reported as races), and the asynchronous copies in flight to it.
// The bytes a th.tma_load writes from shared byte `dst` (128-byte aligned): the box of
// the tensor map `words` (simt/Tma.h; `value` resolves its references to the kernel's
// arguments) at coordinates `at` (outermost first), zeros outside the tensor, in row-major
// order, placed as the tensor-copy engine swizzles it (each address's 16-byte chunk bits
// XOR its bits from 128 up, as many as the swizzle's rows of 128 bytes hold chunks);
// `read` reads global memory.
std::vector<uint8_t> tensorBox(const int64_t *words, const std::function<uint64_t(int64_t)> &value,
                               std::span<const int64_t> at, uint64_t dst,
                               const std::function<void(uint64_t, uint64_t, void *)> &read);

class SharedMemory {
public:
  SharedMemory(size_t bytes, unsigned threads, unsigned warpSize);

  size_t size() const { return bytes_.size(); }

  // One thread's access, checked: inside the memory and aligned to its size, no
  // race with another thread, reads of written bytes only, no copy pending there.
  void read(const Op *op, unsigned thread, uint64_t offset, uint64_t bytes, void *out);
  void write(const Op *op, unsigned thread, uint64_t offset, uint64_t bytes, const void *in);
  void barrier() { ++epoch_; }
  // th.barrier {scope = "subgroup"} in every warp: orders each warp's accesses before
  // it against the same warp's after it, and no other warp's.
  void subgroupBarrier() { ++subgroupEpoch_; }

  // th.async_copy by `thread`: `data` lands at `offset` when a th.async_wait
  // completes the group it belongs to (the thread's open group).
  void startCopy(const Op *op, unsigned thread, uint64_t offset, std::vector<uint8_t> data);
  // th.async_commit: closes the thread's open group.
  void commitCopies(unsigned thread);
  // th.async_wait: completes all but the newest `pending` committed groups.
  void waitCopies(const Op *op, unsigned thread, size_t pending);
  // At the end of the program: fails if a copy was never completed.
  void checkAllCopiesDone(const Op *func) const;

  // mbarriers (th.mbarrier_init, th.async_arrive, th.mbarrier_wait), the 8 bytes at
  // `offset`. An arrival goes to the oldest phase still short of arrivals and takes the
  // thread's copies not completed yet along; they land (visible to every thread that
  // waits) when a wait completes the phase, which needs all of its arrivals then: threads
  // run in lockstep, so a phase short of arrivals at a wait can never complete.
  void initBarrier(const Op *op, unsigned thread, uint64_t offset, uint64_t count);
  void asyncArrive(const Op *op, unsigned thread, uint64_t offset);
  void waitBarrier(const Op *op, unsigned thread, uint64_t offset, unsigned parity);
  // Tensor copies: th.tma_arrive is an arrival (without the thread's own copies) whose
  // phase also expects `bytes` of tensor copies; th.tma_load's `data` goes with the phase
  // that the barrier's last th.tma_arrive went to, and lands when a wait completes it,
  // which needs the bytes it expected to have been copied exactly.
  void tensorArrive(const Op *op, unsigned thread, uint64_t offset, uint64_t bytes);
  void tensorCopy(const Op *op, unsigned thread, uint64_t barrier, uint64_t offset, std::vector<uint8_t> data);
  // th.mbarrier_arrive: one arrival (no copies of the thread's go with it).
  void arrive(const Op *op, unsigned thread, uint64_t offset);
  // Whether a th.mbarrier_wait for `parity` at `offset` would pass now: that phase is the
  // last completed, or the current one has all its arrivals and at least the bytes it
  // expects (false for a barrier never initialized: the wait then fails as usual).
  bool phaseReady(uint64_t offset, unsigned parity) const;

  // Warp specialization (th.warp_specialize): threads consumerThreads and up are region
  // 0 (the producer), the others region 1, and the regions run interleaved, ordered by
  // mbarriers alone. Each region has a vector clock: an arrival releases the region's
  // accesses so far into the phase, a wait that passes the phase acquires them. An
  // access of a byte that another region wrote (an ordinary write), or a write (a copy
  // started, too) of a byte another region read or wrote, fails unless an mbarrier phase
  // orders the two; th.wgmma's reads count when its th.wgmma_wait completes them. The
  // epoch checks then compare threads of one region only (a region's th.barrier waits
  // for its own threads). Ordering is tracked per region, not per thread: the barriers'
  // arrival counts are what make every warp's arrival needed.
  void beginPartitions(unsigned consumerThreads);
  void endPartitions() { partitions_ = 0; }
  void setPartition(int p) { current_ = p; }

  // th.wgmma reads its shared operands asynchronously, at any moment until a
  // th.wgmma_wait completes its group: the reads between these two calls hold their bytes
  // for `group` (a write to them before completeAsyncReads fails), and each must be of
  // bytes fenced for the async proxy since they were written (th.fence_async_shared).
  void beginAsyncReads();
  void endAsyncReads(int64_t group);
  void completeAsyncReads(int64_t throughGroup);
  void fenceAsyncProxy() { std::fill(unfenced_.begin(), unfenced_.end(), false); }

private:
  enum class Access { Read, Write, StartCopy };
  struct Copy {
    uint64_t offset;
    std::vector<uint8_t> data;
    // A tensor copy: written through the async proxy, which th.wgmma reads through too
    // (no th.fence_async_shared needed between them); cp.async writes as the threads do.
    bool asyncProxy = false;
  };
  struct ThreadCopies {
    std::vector<Copy> open;
    std::deque<std::vector<Copy>> committed; // oldest first
  };

  struct Phase {
    std::vector<int64_t> release; // the regions' clocks its arrivals released (warp specialization)
    uint64_t arrivals = 0;
    uint64_t expectedBytes = 0, copiedBytes = 0; // of tensor copies
    std::vector<std::pair<unsigned, Copy>> copies; // with the thread that started each
  };
  struct Barrier {
    uint64_t count = 0;
    int64_t completed = 0;   // phases completed since the initialization
    std::deque<Phase> phases; // the incomplete ones, oldest first
    int64_t expecting = -1;   // the phase (counted from the initialization) of the last th.tma_arrive
    std::vector<int64_t> lastRelease; // of the last phase completed
  };
  // ---- warp specialization's clocks ----
  int partitionOf(int thread) const { return thread < 0 ? -1 : thread >= int(consumerThreads_) ? 0 : 1; }
  // Whether an access by the current region may go after region q's access at clock `then` (-1: none).
  bool ordered(int q, int64_t then) const { return then < 0 || then <= clock_[size_t(current_)][size_t(q)]; }
  void release(Phase &phase);
  Phase &arrivePhase(const Op *op, unsigned thread, uint64_t offset);
  void acquire(const std::vector<int64_t> &released);
  // The clock checks of one byte and their records (readByte / writeByte).
  void partitionRead(const Op *op, uint64_t i);
  void partitionWrite(const Op *op, uint64_t i, bool record);
  int partitions_ = 0, current_ = -1;
  unsigned consumerThreads_ = 0;
  std::vector<std::vector<int64_t>> clock_;    // [region][region]
  std::vector<int64_t> readClock_, writeClock_; // [byte * 2 + region]: its clock at its last access
  std::vector<int> readerRegion_;                // per byte: the region of this epoch's readers (-2: both)
  Barrier &barrierAt(const Op *op, unsigned thread, uint64_t offset);

  void checkAndRecord(const Op *op, unsigned thread, uint64_t offset, uint64_t bytes, Access access);
  void readByte(const Op *op, int thread, uint64_t i);
  // Checks a write of byte i for races; records it only with `record`.
  void writeByte(const Op *op, int thread, uint64_t i, bool record);

  std::vector<uint8_t> bytes_;
  // Per byte: the last writer and reader (-2: several readers) and the epochs
  // (barrier counts) of those accesses; -1 epoch: never.
  std::vector<int> writer_, writeEpoch_, reader_, readEpoch_;
  // Per byte: the subgroup-barrier counts at its last write and read, and the warp of
  // its readers since the last barrier (-2: several warps).
  std::vector<int> writeSubgroupEpoch_, readSubgroupEpoch_, readerWarp_;
  unsigned warpSize_;
  int subgroupEpoch_ = 0;
  // An earlier access by `other` (of the warp `otherWarp`) at subgroup epoch `then` is
  // ordered before this thread's by a subgroup barrier of their warp.
  bool warpOrdered(int thread, int otherWarp, int then) const {
    return otherWarp == thread / int(warpSize_) && then < subgroupEpoch_;
  }
  std::vector<uint32_t> copiesPending_; // per byte: copies started, not completed
  std::vector<ThreadCopies> copies_;    // per thread
  int epoch_ = 1; // bytes written "before any barrier" (landed copies) have epoch 0
  std::unordered_map<uint64_t, Barrier> barriers_;
  // Asynchronous reads by th.wgmma: per byte, how many groups in flight read it; the
  // bytes of each group; whether a byte was written since the last async-proxy fence.
  std::vector<uint32_t> asyncHolds_;
  std::deque<std::pair<int64_t, std::vector<uint64_t>>> heldBy_;
  std::vector<bool> unfenced_;
  bool recordingAsync_ = false;
  std::vector<uint64_t> recorded_;
};

// The asynchrony of th.wgmma in registers: its results are in flight until a
// th.wgmma_wait completes their group (th.wgmma_commit closes the open group), and until
// then only th.wgmma (accumulating into them), th.wgmma_fence and th.wgmma_wait (which
// pass them through) and control flow (which carries them) may take them. Values a wait
// passes through whose group it leaves pending stay in flight.
class WgmmaGroups {
public:
  int64_t groupOf(const Value *v) const; // -1: not in flight
  void setGroup(const Value *v, int64_t group);
  int64_t openGroup() const { return open_; }
  void issue(const Op *wgmma);
  void commit();
  // Completes all but the newest `pending` committed groups; returns the newest group
  // completed so far (-1: none).
  int64_t wait(size_t pending);
  // Fails when `op` takes a value in flight that it may not.
  void checkReads(const Op *op) const;
  // At the end of the program: fails when a th.wgmma was never waited for.
  void checkAllDone(const Op *func) const;

private:
  std::unordered_map<const Value *, int64_t> group_;
  std::deque<int64_t> committed_; // oldest first
  int64_t open_ = 0, completed_ = -1, lastIssued_ = -1;
};

// The fragments of an atom as its vendor's ISA documents define them, independently of
// the atom's bit maps (ThreadSimAmdMatrix.cpp: AMD's MFMA and WMMA); nullopt for atoms
// the simulator reads through their maps. `element(operand, reg, lane)`: the (row, col)
// of A (0), B (1) or C/D (2) that register `reg` of `lane` holds.
struct IsaFragments {
  std::array<unsigned, 3> registers{}; // per lane, of A, B and C
  std::function<std::pair<int64_t, int64_t>(unsigned operand, unsigned reg, unsigned lane)> element;
};
std::optional<IsaFragments> isaFragments(const Op *op, const MatrixAtom &atom, unsigned warpSize);

// th.mma: the result words (one Words per register of D) of `atom` on `operands`
// (the op's operands, A's registers, then B's, then C's).
std::vector<Words> runMma(const Op *op, const MatrixAtom &atom, const std::vector<const Words *> &operands,
                          unsigned threads, unsigned warpSize);

// th.wgmma: the result words of warpgroup `atom` on `operands` (the op's operands: B's
// allocation and index, A's or A's registers, C's registers), reading shared memory.
std::vector<Words> runWgmma(const Op *op, const MatrixAtom &atom, SharedMemory &shared,
                            const std::vector<const Words *> &operands, unsigned threads, unsigned warpSize);

// th.ldmatrix: `offsets` holds the shared byte each thread names. Reads through
// `shared` and counts the banks of each matrix's row reads.
Words runLdMatrix(const Op *op, SharedMemory &shared, const Words &offsets, unsigned threads,
                  unsigned warpSize, BankCounts &banks);

} // namespace trident::simt::test::detail
