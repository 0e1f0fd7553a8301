// Random kernels (RandomKernel.h), lowered for sm_90 and run in the thread-IR
// simulator, against the interpreter. Fixed seeds here; TRIDENT_RANDOM_SEEDS=N runs
// seeds 1..N instead (TRIDENT_RANDOM_FIRST_SEED moves the start).
#include "../core/simt/ThreadSim.h"
#include "RandomKernel.h"
#include "trident/backends/nvptx/CodeGen.h"
#include "trident/backends/nvptx/Target.h"
#include "trident/interp/Interpreter.h"
#include "trident/ir/Printer.h"
#include "trident/ir/Verifier.h"

#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <iostream>

using namespace trident;
using namespace trident::test;

namespace {

struct Buffers {
  std::vector<float> x, outf;
  std::vector<int32_t> y, outi, counts;
};

Buffers makeBuffers(int64_t elements, uint64_t seed) {
  std::mt19937 gen(static_cast<uint32_t>(seed * 7919));
  std::uniform_real_distribution<float> real(-1, 1);
  std::uniform_int_distribution<int32_t> integer(-1000, 1000);
  Buffers b;
  for (int64_t i = 0; i < elements; ++i) {
    b.x.push_back(real(gen));
    b.y.push_back(integer(gen));
  }
  b.outf.assign(elements, -7.f);
  b.outi.assign(elements, -7);
  b.counts.assign(16, 0);
  return b;
}

uint64_t envNumber(const char *name, uint64_t fallback) {
  const char *v = std::getenv(name);
  return v && *v ? std::strtoull(v, nullptr, 10) : fallback;
}

} // namespace

TEST_CASE("random kernels: the lowered thread IR agrees with the interpreter") {
  uint64_t first = envNumber("TRIDENT_RANDOM_FIRST_SEED", 1), count = envNumber("TRIDENT_RANDOM_SEEDS", 60);
  int failures = 0;
  for (uint64_t seed = first; seed < first + count; ++seed) {
    RandomKernel k = RandomKernelGenerator(seed).generate();
    INFO("seed " << seed << "\n" << print(k.module));
    Diagnostics diags;
    REQUIRE(verify(k.module, diags));
    int64_t elements = k.numElements();
    int32_t n = static_cast<int32_t>(elements - int64_t(seed % 3) * (elements / 4));
    Buffers ref = makeBuffers(elements, seed), sim = ref;

    Interpreter interp;
    interp.addBuffer(ref.x.data(), elements * 4);
    interp.addBuffer(ref.y.data(), elements * 4);
    interp.addBuffer(ref.outf.data(), elements * 4);
    interp.addBuffer(ref.outi.data(), elements * 4);
    interp.addBuffer(ref.counts.data(), 16 * 4);
    KernelArg args[] = {KernelArg::pointer(ref.x.data()),
                        KernelArg::pointer(ref.y.data(), Type::i32()),
                        KernelArg::pointer(ref.outf.data()),
                        KernelArg::pointer(ref.outi.data(), Type::i32()),
                        KernelArg::pointer(ref.counts.data(), Type::i32()),
                        KernelArg::i32(n)};
    bool ran = interp.run(k.module, "random_kernel", args, {1, 1, 1}, diags);
    INFO(diags.str());
    REQUIRE(ran);

    nvptx::PTXOptions options;
    options.numWarps = k.numWarps;
    std::optional<Module> threadIR =
        nvptx::lowerToThreadIR(k.module, *nvptx::targetDesc("sm_90"), options, diags);
    INFO(diags.str());
    REQUIRE(threadIR.has_value());
    simt::test::ThreadSim simulator(32, nvptx::targetDesc("sm_90")->matrixAtoms);
    simulator.addBuffer(sim.x.data(), elements * 4);
    simulator.addBuffer(sim.y.data(), elements * 4);
    simulator.addBuffer(sim.outf.data(), elements * 4);
    simulator.addBuffer(sim.outi.data(), elements * 4);
    simulator.addBuffer(sim.counts.data(), 16 * 4);
    std::vector<uint64_t> simArgs = {
        reinterpret_cast<uint64_t>(sim.x.data()),      reinterpret_cast<uint64_t>(sim.y.data()),
        reinterpret_cast<uint64_t>(sim.outf.data()),   reinterpret_cast<uint64_t>(sim.outi.data()),
        reinterpret_cast<uint64_t>(sim.counts.data()), static_cast<uint32_t>(n)};
    std::string error;
    bool simulated = simulator.run(*threadIR, "random_kernel", simArgs, {1, 1, 1}, error);
    INFO(error);
    CHECK(simulated);
    int bad = 0;
    for (int64_t i = 0; i < elements; ++i) {
      float w = ref.outf[i], h = sim.outf[i];
      bool close =
          (std::isnan(w) && std::isnan(h)) || w == h || std::abs(w - h) <= 1e-4f + 1e-4f * std::abs(w);
      bad += !close;
      bad += ref.outi[i] != sim.outi[i];
    }
    for (int i = 0; i < 16; ++i)
      bad += ref.counts[i] != sim.counts[i];
    CHECK(bad == 0);
    failures += !simulated || bad;
  }
  if (failures)
    std::cout << failures << " of " << count << " random kernels disagree\n";
}
