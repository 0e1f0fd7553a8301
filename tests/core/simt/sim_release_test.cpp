// ThreadSim::checkReleases: a lock released by one thread with a scalar atomic must
// come after a barrier, or the other threads' stores in the critical section are not
// published (samples/layer_norm.py's backward, Triton's tl.debug_barrier before
// tl.atomic_xchg(Lock, 0)). Programs run one after another in the simulator, so
// without the check the missing barrier changes no result.
#include "SimtTestUtil.h"

#include <doctest/doctest.h>

using namespace trident;
using namespace trident::simt::test;

namespace {

// 64 threads store their id to out[tid]; then thread 0 sets *lock to 0.
std::string releaseKernel(bool barrier) {
  return std::string(R"(builtin.module ({
  tt.func {num_threads = 64, shared_bytes = 0, sym_name = "k"} ({
  ^(%out: ptr<i32>, %lock: ptr<i32>):
    %t = th.thread_id : i32
    %p = tt.addptr %out, %t : ptr<i32>
    th.store %p, %t
)") + (barrier ? "    th.barrier\n" : "") +
         R"(    %zero = arith.constant {value = 0} : i32
    %first = arith.cmpi %t, %zero {predicate = "eq"} : i1
    %old = th.atomic_rmw %lock, %zero, %first {kind = "xchg", scope = "gpu", sem = "acq_rel"} : i32
    tt.return
  })
})
)";
}

std::string run(const Module &m, bool check) {
  std::vector<int32_t> out(64, -1), lock(1, 1);
  ThreadSim sim;
  sim.checkReleases(check);
  sim.addBuffer(out.data(), out.size() * 4);
  sim.addBuffer(lock.data(), 4);
  std::string error;
  sim.run(m, "k", {ptrArg(out.data()), ptrArg(lock.data())}, {1, 1, 1}, error);
  return error;
}

// A block of 256 stores, then a scalar release (the lock of layer norm's backward).
const char *kBlockIR = R"(builtin.module ({
  tt.func {arg_divisibility = [16, 16], sym_name = "k"} ({
  ^(%out: ptr<i32>, %lock: ptr<i32>):
    %r = tt.make_range {end = 64, start = 0} : block<64xi32>
    %p = tt.splat %out : block<64xptr<i32>>
    %p2 = tt.addptr %p, %r : block<64xptr<i32>>
    tt.store %p2, %r
    BARRIER
    %zero = arith.constant {value = 0} : i32
    %old = tt.atomic_rmw %lock, %zero {kind = "xchg", scope = "gpu", sem = "acq_rel"} : i32
    tt.return
  })
})
)";

Module lowered(bool debugBarrier) {
  std::string text = kBlockIR;
  text.replace(text.find("BARRIER"), 7, debugBarrier ? "gpu.barrier" : "");
  return lowerOrFail(text, 2);
}

} // namespace

TEST_CASE("a scalar release without a barrier after other threads' stores is reported") {
  Module racy = parseOrFail(releaseKernel(false)), ordered = parseOrFail(releaseKernel(true));
  std::string error = run(racy, true);
  CHECK(error.find("by thread 0 does not publish thread 1's store") != std::string::npos);
  CHECK(error.find("no th.barrier between them") != std::string::npos);
  CHECK(run(ordered, true).empty());
  CHECK(run(racy, false).empty()); // off by default: the values are right either way
}

TEST_CASE("the lowering releases after a barrier, with or without tl.debug_barrier") {
  for (bool debugBarrier : {false, true}) {
    CAPTURE(debugBarrier);
    Module m = lowered(debugBarrier);
    CHECK(countOps(m, "th.barrier") == 1); // tl.debug_barrier's and LowerAtomic's are one
    CHECK(run(m, true).empty());
    // The same thread IR without that barrier has the race.
    std::vector<Op *> barriers;
    m.op()->walk([&](Op *op) {
      if (op->is(OpCode::ThBarrier))
        barriers.push_back(op);
    });
    for (Op *op : barriers)
      op->erase();
    CHECK(run(m, true).find("does not publish") != std::string::npos);
  }
}
