#pragma once
// What a stretch of thread code (the ops between two barriers) does to memory, to tell
// whether the barrier between two stretches orders anything: where it does not,
// ThreadLoops.cpp runs both stretches as one loop over the threads and drops it.
//
// A barrier makes every access before it, in any thread, happen before every access
// after it. In one loop, thread t runs its ops of both stretches before thread t + 1
// runs any; that is the same wherever no access of the first stretch conflicts with an
// access of the second in another thread (the same bytes, one of them a write). Without
// comparing addresses, that is known when
//   - neither stretch writes global memory (stores, atomics); reads of it on both
//     sides are fine;
//   - no byte range of shared memory is written by one stretch and read or written by
//     the other, except the per-thread arrays ThreadLoops allocates, which each thread
//     accesses only at its own index (allocations that share bytes count as one: the
//     lowering reuses shared memory);
//   - neither holds another op with effects (printf, assert, asynchronous copies, ...).
//
//   th.load %a ...  (global reads)              scf.for %t = 0 to T {parallel}
//   th.barrier                          ->        th.load %a ...
//   th.store_shared %s, ...                       th.store_shared %s, ...
//   th.barrier                                  }
//   th.load_shared %s, ...                      scf.for %t = 0 to T {parallel}
//                                                 th.load_shared %s, ...

#include "trident/ir/IR.h"

#include <cstdint>
#include <set>
#include <utility>
#include <vector>

namespace trident::cpu {

class StretchEffects {
public:
  // `perThread`: the shared allocations each thread accesses only at its own index.
  explicit StretchEffects(const std::set<Value *> &perThread) : perThread_(&perThread) {}

  // Adds the effects of `op` and of the ops in its regions.
  void add(Op *op);
  // Adds everything `other` does.
  void merge(const StretchEffects &other);
  // True where a barrier between a stretch doing `before` and one doing `after` is not
  // needed (as above).
  static bool unordered(const StretchEffects &before, const StretchEffects &after);

private:
  using Range = std::pair<int64_t, int64_t>; // bytes [first, second) of shared memory
  void addShared(Value *alloc, bool write);

  const std::set<Value *> *perThread_;
  bool writesGlobal_ = false, other_ = false;
  std::vector<Range> sharedReads_, sharedWrites_;
};

} // namespace trident::cpu
