// th.barrier {scope = "subgroup"} in the simulator: it orders a warp's shared-memory
// accesses before it against the same warp's after it, and nothing across warps, so a
// buffer that each warp uses alone may rely on it and one that warps share may not.
#include "SimtTestUtil.h"

#include <doctest/doctest.h>

using namespace trident;
using namespace trident::simt::test;

namespace {

// A program of 64 threads (2 warps of 32) whose element `tid` of a {subgroup = 1}
// allocation of 64 i32 is `%a`; `body` ends by storing its result to out[tid].
std::string program(const std::string &body) {
  return R"(builtin.module ({
  tt.func {num_threads = 64, shared_bytes = 256, sym_name = "k"} ({
  ^(%out: ptr<i32>):
    %t = th.thread_id : i32
    %a = th.shared_alloc {offset = 0, size = 256, subgroup = 1} : ptr<i32, 3>
)" + body + R"(    tt.return
  })
})
)";
}

// Each thread writes its id to element `tid`, waits with `barrier`, reads element
// `tid ^ flip` and stores it to out[tid]: flip 1 reads a lane of the own warp, flip 32
// the same lane of the other warp.
std::string kernel(const char *barrier, int flip) {
  return program(std::string("    th.store_shared %a, %t, %t\n    ") + barrier + R"(
    %f = arith.constant {value = )" + std::to_string(flip) + R"(} : i32
    %j = arith.xori %t, %f : i32
    %v = th.load_shared %a, %j : i32
    %p = tt.addptr %out, %t : ptr<i32>
    th.store %p, %v
)");
}

std::string run(const std::string &text, std::vector<int32_t> &out) {
  Module m = parseOrFail(text);
  ThreadSim sim(32);
  out.assign(64, -1);
  sim.addBuffer(out.data(), out.size() * 4);
  std::string error;
  sim.run(m, "k", {ptrArg(out.data())}, {1, 1, 1}, error);
  return error;
}

} // namespace

TEST_CASE("a subgroup barrier orders the accesses of one warp") {
  std::vector<int32_t> out;
  CHECK(run(kernel("th.barrier {scope = \"subgroup\"}", 1), out).empty());
  for (int t = 0; t < 64; ++t)
    CHECK(out[size_t(t)] == (t ^ 1));
}

TEST_CASE("a subgroup barrier does not order accesses across warps") {
  std::vector<int32_t> out;
  CHECK(run(kernel("th.barrier {scope = \"subgroup\"}", 32), out).find("race:") != std::string::npos);
  CHECK(run(kernel("th.barrier", 32), out).empty());
  CHECK(out[0] == 32);
}

TEST_CASE("without any barrier the own warp's read races too") {
  std::vector<int32_t> out;
  CHECK(run(kernel("", 1), out).find("race:") != std::string::npos);
}

TEST_CASE("a write after reads of several lanes of one warp waits for the warp") {
  // Lanes t and t^1 both read element t's pair; then every thread writes its element.
  auto text = [](const char *barrier) {
    return program(std::string(R"(    th.store_shared %a, %t, %t
    th.barrier
    %one = arith.constant {value = 1} : i32
    %j = arith.xori %t, %one : i32
    %v = th.load_shared %a, %j : i32
    %w = th.load_shared %a, %t : i32
    )") + barrier + R"(
    %s = arith.addi %v, %w : i32
    th.store_shared %a, %t, %s
    %p = tt.addptr %out, %t : ptr<i32>
    th.store %p, %s
)");
  };
  std::vector<int32_t> out;
  CHECK(run(text("th.barrier {scope = \"subgroup\"}"), out).empty());
  CHECK(out[5] == 9);
  CHECK(run(text(""), out).find("is written after another thread read it") != std::string::npos);
}
