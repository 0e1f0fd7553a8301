// The thread-IR simulator's mbarriers (th.mbarrier_init, th.async_arrive,
// th.mbarrier_wait) on hand-written thread IR: copies complete on a barrier's phase, the
// wait makes them visible to every waiting thread, and each way of misusing them (reading
// early, the wrong parity, an arrival short, no barrier after the initialization, never
// waiting, initializing again while in use) is reported.
#include "SimtTestUtil.h"

using namespace trident;
using namespace trident::simt::test;

namespace {

constexpr int32_t kCopied = 200; // floats of src: threads 50 .. 63 copy nothing

// 64 threads; thread 0 initializes the barrier at shared byte 2048 ({count} arrivals),
// {init_sync}; thread t copies 16 bytes from src + 4t to shared element 4t (zeros where
// 4t >= %n) and, {twice}, once more into element 256 + 4t; then {sync}; then reads
// shared element {read} into out + 4t. %nb is thread (t + 1) % 64's chunk.
const char *kKernel = R"(    %c0 = arith.constant {value = 0} : i32
    %c1 = arith.constant {value = 1} : i32
    %c4 = arith.constant {value = 4} : i32
    %c64 = arith.constant {value = 64} : i32
    %c256 = arith.constant {value = 256} : i32
    %s = th.shared_alloc {offset = 0, size = 2048} : ptr<f32, 3>
    %bar = th.shared_alloc {offset = 2048, size = 8} : ptr<i64, 3>
    %first = arith.cmpi %t, %c0 {predicate = "eq"} : i1
    th.mbarrier_init %bar, %c0, %first {count = {count}}
{init_sync}    %i = arith.muli %t, %c4 : i32
    %i2 = arith.addi %i, %c256 : i32
    %sp = tt.addptr %src, %i : ptr<f32>
    %p = arith.cmpi %i, %n {predicate = "slt"} : i1
    th.async_copy %s, %i, %sp, %p {bytes = 16}
    th.async_arrive %bar, %c0
{twice}{sync}    %t1 = arith.addi %t, %c1 : i32
    %t2 = arith.remui %t1, %c64 : i32
    %nb = arith.muli %t2, %c4 : i32
    %v = th.load_shared %s, {read} : vector<4xf32>
    %op = tt.addptr %out, %i : ptr<f32>
    th.store %op, %v
)";

const std::string kTwice = "    th.async_copy %s, %i2, %sp, %p {bytes = 16}\n    th.async_arrive %bar, %c0\n";

std::string wait(int parity) {
  return "    th.mbarrier_wait %bar, %c0, %c" + std::string(parity ? "1" : "0") + "\n";
}

struct Run {
  std::string error;
  std::vector<float> src, out;
};

Run run(const std::vector<std::pair<std::string, std::string>> &keys) {
  std::vector<std::pair<std::string, std::string>> all = {
      {"count", "64"}, {"init_sync", "    th.barrier\n"}, {"twice", ""}};
  for (const auto &k : keys)
    for (auto &a : all)
      if (a.first == k.first)
        a.second = k.second;
  all.insert(all.end(), keys.begin(), keys.end());
  Run r;
  r.src = randomFloats(kCopied, 11);
  r.out.assign(256, -1.f);
  ThreadSim sim;
  sim.addBuffer(r.src.data(), r.src.size() * 4);
  sim.addBuffer(r.out.data(), r.out.size() * 4);
  r.error = runKernel(sim, kernel(64, 2056, "%src: ptr<f32>, %out: ptr<f32>, %n: i32", fill(kKernel, all)),
                      {ptrArg(r.src.data()), ptrArg(r.out.data()), i32Arg(kCopied)});
  return r;
}

bool contains(const std::string &error, const std::string &part) {
  INFO(error);
  return error.find(part) != std::string::npos;
}

} // namespace

TEST_CASE("mbarrier: every thread's copies arrive; the wait makes all of them visible, no th.barrier needed") {
  Run r = run({{"sync", wait(0)}, {"read", "%nb"}});
  INFO(r.error);
  REQUIRE(r.error.empty());
  for (int t = 0; t < 64; ++t) {
    int from = 4 * ((t + 1) % 64);
    for (int e = 0; e < 4; ++e) {
      INFO("thread " << t << " element " << e);
      CHECK(r.out[4 * t + e] == (from < kCopied ? r.src[from + e] : 0.f));
    }
  }
}

TEST_CASE("mbarrier errors: reading before the wait, the wrong parity, an arrival short") {
  // No wait: the copies are in flight.
  CHECK(contains(run({{"sync", ""}, {"read", "%i"}}).error,
                 "th.load_shared: shared byte 0 is read while an asynchronous copy to it is pending"));
  // Parity 1 names the phase before phase 0: the wait returns at once.
  CHECK(contains(run({{"sync", wait(1)}, {"read", "%i"}}).error, "is read while an asynchronous copy"));
  // 65 arrivals expected from 64 threads: phase 0 can never complete.
  CHECK(contains(run({{"count", "65"}, {"sync", wait(0)}, {"read", "%i"}}).error,
                 "th.mbarrier_wait: thread 0 waits for phase 0 of the barrier at shared byte 2048, which has 64 "
                 "of its 65 arrivals and can never complete"));
}

TEST_CASE("mbarrier errors: used before a barrier follows its initialization; initialized again while in use") {
  CHECK(contains(run({{"init_sync", ""}, {"sync", wait(0)}, {"read", "%i"}}).error,
                 "th.async_arrive: race: thread 1 uses the barrier at shared byte 2048 that thread 0 initialized, "
                 "without a barrier between"));
  CHECK(contains(run({{"sync", "    th.barrier\n    th.mbarrier_init %bar, %c0, %first {count = 64}\n"},
                      {"read", "%c0"}})
                     .error,
                 "th.mbarrier_init: the barrier at shared byte 2048 is initialized again while its phase 0 has 64 "
                 "of its 64 arrivals (it is still in use)"));
}

TEST_CASE("mbarrier: two phases complete in order; parity 1 waits for the second") {
  // Phase 0 tracks the first copies, phase 1 the second: after the wait for phase 0
  // only the first are visible.
  CHECK(contains(run({{"twice", kTwice}, {"sync", wait(0)}, {"read", "%i2"}}).error,
                 "shared byte 1024 is read while an asynchronous copy to it is pending"));
  Run r = run({{"twice", kTwice}, {"sync", wait(0) + wait(1)}, {"read", "%i2"}});
  INFO(r.error);
  REQUIRE(r.error.empty());
  CHECK(r.out[0] == r.src[0]);
  // Waiting for phase 0 only leaves phase 1's copies never waited for (the read of the
  // first ones is fine).
  CHECK(contains(run({{"twice", kTwice}, {"sync", wait(0)}, {"read", "%i"}}).error,
                 "the program ends with 64 asynchronous copies that arrive on the barrier at shared byte 2048 never "
                 "waited for"));
}

namespace {

// Warp specialization on hand-written thread IR: 256 threads, the producer (threads 128
// .. 255) stores element t - 128 of shared memory and arrives on %full ({producer}
// orders the two), the consumers (0 .. 127) {wait} and read element t into out + t.
// %full expects {count} arrivals.
const char *kSpecialized = R"(    %c0 = arith.constant {value = 0} : i32
    %c128 = arith.constant {value = 128} : i32
    %s = th.shared_alloc {offset = 0, size = 512} : ptr<f32, 3>
    %full = th.shared_alloc {offset = 512, size = 8} : ptr<i64, 3>
    %first = arith.cmpi %t, %c0 {predicate = "eq"} : i1
    th.mbarrier_init %full, %c0, %first {count = {count}}
    th.barrier
    th.warp_specialize {consumer_threads = 128} ({
      %j = arith.subi %t, %c128 : i32
      %x = arith.sitofp %j : f32
{producer}    }, {
{wait}      %v = th.load_shared %s, %t : f32
      %op = tt.addptr %out, %t : ptr<f32>
      th.store %op, %v
    })
)";

const std::string kStoreThenArrive = "      th.store_shared %s, %j, %x\n      th.mbarrier_arrive %full, %c0\n";
const std::string kWaitFull = "      th.mbarrier_wait %full, %c0, %c0\n";

std::pair<std::string, std::vector<float>> runSpecialized(const std::vector<std::pair<std::string, std::string>> &keys) {
  std::vector<std::pair<std::string, std::string>> all = keys;
  all.push_back({"count", "128"});
  std::vector<float> out(128, -1.f);
  ThreadSim sim;
  sim.addBuffer(out.data(), out.size() * 4);
  std::string error = runKernel(sim, kernel(256, 520, "%out: ptr<f32>", fill(kSpecialized, all)), {ptrArg(out.data())});
  return {error, out};
}

} // namespace

TEST_CASE("mbarrier between warp-specialized regions: the consumers see the producer's stores after their wait") {
  auto [error, out] = runSpecialized({{"producer", kStoreThenArrive}, {"wait", kWaitFull}});
  INFO(error);
  REQUIRE(error.empty());
  for (int t = 0; t < 128; ++t)
    CHECK(out[size_t(t)] == float(t));
}

TEST_CASE("mbarrier between warp-specialized regions: a read no phase orders, a phase that never completes") {
  // No wait: the consumers run first and read what nobody wrote yet.
  CHECK(contains(runSpecialized({{"producer", kStoreThenArrive}, {"wait", ""}}).first, "is read before any thread wrote it"));
  // The producer arrives before it stores: the consumers' wait passes, but nothing orders
  // the stores before their reads.
  CHECK(contains(runSpecialized({{"producer", "      th.mbarrier_arrive %full, %c0\n      th.store_shared %s, %j, %x\n"},
                                 {"wait", kWaitFull}})
                     .first,
                 "th.load_shared: race: shared byte 0 is read after the other warp-specialized region wrote it, with no "
                 "mbarrier phase ordering the write before the read"));
  // One arrival more expected than come: both regions end up waiting (the producer has
  // finished), which is a deadlock.
  CHECK(contains(runSpecialized({{"producer", kStoreThenArrive}, {"wait", kWaitFull}, {"count", "129"}}).first,
                 "deadlock: every warp-specialized region waits for an mbarrier phase that cannot complete"));
}
