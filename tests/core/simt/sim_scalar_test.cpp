// The thread-IR simulator's scalar semantics on hand-written thread IR: atomics (the
// unsigned kinds and compare-and-swap see the element's bits, also where a word holds
// a narrow integer sign-extended: a scalar argument, as the launch ABI packs it) and
// conversions from f64 to f16 and bf16 (rounded once, not through f32).
#include "SimtTestUtil.h"

#include <bit>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

using namespace trident;
using namespace trident::simt::test;

namespace {

// One warp; thread t updates slots[t] with `op` of the scalar argument %v (and %c, the
// compare value of a cas) and stores the old value to olds[t].
std::string atomicKernel(const std::string &op) {
  return R"(builtin.module ({
  tt.func {num_threads = 32, shared_bytes = 0, sym_name = "k"} ({
  ^(%slots: ptr<i32>, %olds: ptr<i32>, %v: i32, %c: i32):
    %t = th.thread_id : i32
    %p = tt.addptr %slots, %t : ptr<i32>
    %r = )" + op + R"( : i32
    %o = tt.addptr %olds, %t : ptr<i32>
    th.store %o, %r
    tt.return
  })
})
)";
}

// Runs `op` over 32 slots that all start at `initial`; returns slot 0 after the run
// (every thread does the same) and checks the old values.
uint32_t runOnSlots(const std::string &op, uint32_t initial, int32_t v, int32_t c = 0) {
  Module m = parseOrFail(atomicKernel(op));
  std::vector<uint32_t> slots(32, initial), olds(32, 0);
  // Scalars are passed sign-extended to 64 bits, as the launch ABI packs them.
  uint64_t vArg = static_cast<uint64_t>(static_cast<int64_t>(v));
  uint64_t cArg = static_cast<uint64_t>(static_cast<int64_t>(c));
  simulate(m, "k", {ptrArg(slots.data()), ptrArg(olds.data()), vArg, cArg}, {1, 1, 1},
           {{slots.data(), slots.size() * 4}, {olds.data(), olds.size() * 4}});
  for (unsigned t = 0; t < 32; ++t) {
    CHECK(olds[t] == initial);
    CHECK(slots[t] == slots[0]);
  }
  return slots[0];
}

const std::string kRMW = R"(th.atomic_rmw %p, %v {kind = "{kind}", scope = "gpu", sem = "acq_rel"})";

std::string rmw(const std::string &kind) {
  std::string s = kRMW;
  s.replace(s.find("{kind}"), 6, kind);
  return s;
}

} // namespace

TEST_CASE("th.atomic_rmw umax and umin compare the element's bits, not a sign-extended word") {
  // 0x80000000 as a sign-extended word (0xffffffff80000000) is above 0xffffffff.
  CHECK(runOnSlots(rmw("umax"), 0xffffffffu, INT32_MIN) == 0xffffffffu);
  CHECK(runOnSlots(rmw("umax"), 5u, INT32_MIN) == 0x80000000u);
  CHECK(runOnSlots(rmw("umax"), 5u, 3) == 5u);
  CHECK(runOnSlots(rmw("umin"), 0xffffffffu, INT32_MIN) == 0x80000000u);
  CHECK(runOnSlots(rmw("umin"), 0xfffffff0u, -1) == 0xfffffff0u);
  CHECK(runOnSlots(rmw("umin"), 7u, -1) == 7u);
  // The signed kinds read the same words signed.
  CHECK(runOnSlots(rmw("max"), 0xffffffffu, INT32_MIN) == 0xffffffffu);
  CHECK(runOnSlots(rmw("min"), 5u, INT32_MIN) == 0x80000000u);
}

TEST_CASE("th.atomic_cas compares the element's bits with a sign-extended compare value") {
  const std::string cas = R"(th.atomic_cas %p, %c, %v {scope = "gpu", sem = "acq_rel"})";
  // Every thread swaps the slot that holds -1 (0xffffffff in memory) for 9.
  CHECK(runOnSlots(cas, 0xffffffffu, 9, -1) == 9u);
  CHECK(runOnSlots(cas, 0xfffffffeu, 9, -1) == 0xfffffffeu);
  // A negative new value lands as its 32 bits.
  CHECK(runOnSlots(cas, 3u, -2, 3) == 0xfffffffeu);
}

namespace {

// arith.truncf of the f64 argument to `type`, stored as its bits by thread 0.
uint16_t truncF64(const std::string &type, double x) {
  Module m = parseOrFail(R"(builtin.module ({
  tt.func {num_threads = 32, shared_bytes = 0, sym_name = "k"} ({
  ^(%out: ptr<)" + type + R"(>, %x: f64):
    %t = th.thread_id : i32
    %z = arith.constant {value = 0} : i32
    %first = arith.cmpi %t, %z {predicate = "eq"} : i1
    %y = arith.truncf %x : )" + type + R"(
    th.store %out, %y, %first
    tt.return
  })
})
)");
  uint16_t out = 0xdead;
  simulate(m, "k", {ptrArg(&out), std::bit_cast<uint64_t>(x)}, {1, 1, 1}, {{&out, sizeof out}});
  return out;
}

} // namespace

TEST_CASE("arith.truncf from f64 to f16 and bf16 rounds once, to nearest even") {
  // Just above the midpoint of two neighbours: through f32 the excess is lost, the
  // midpoint then ties to even (down); rounded once it goes up.
  double tiny = std::ldexp(1.0, -40);
  CHECK(truncF64("f16", 1.0 + std::ldexp(1.0, -11) + tiny) == 0x3c01);
  CHECK(truncF64("f16", -(1.0 + std::ldexp(1.0, -11) + tiny)) == 0xbc01);
  CHECK(truncF64("bf16", 1.0 + std::ldexp(1.0, -8) + tiny) == 0x3f81);
  // Exact midpoints still tie to even, and exact values stay.
  CHECK(truncF64("f16", 1.0 + std::ldexp(1.0, -11)) == 0x3c00);
  CHECK(truncF64("f16", 1.0 + 3 * std::ldexp(1.0, -11)) == 0x3c02);
  CHECK(truncF64("f16", -2.5) == 0xc100);
  CHECK(truncF64("bf16", 3.0) == 0x4040);
  // Subnormal f16 and overflow.
  CHECK(truncF64("f16", std::ldexp(1.0, -24) * 0.75) == 0x0001);
  CHECK(truncF64("f16", 70000.0) == 0x7c00);
}
