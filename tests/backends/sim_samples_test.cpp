// The sample kernels (samples/*.py) lowered for sm_90 and run in the thread-IR
// simulator, against the reference interpreter: a check of the SIMT lowering on
// real kernels that needs no GPU (the simulator also checks shared-memory races).
#include "../core/simt/ThreadSim.h"
#include "SampleCases.h"
#include "trident/backends/nvptx/CodeGen.h"
#include "trident/backends/nvptx/Target.h"
#include "trident/ir/Printer.h"

#include <doctest/doctest.h>

using namespace trident;
using namespace trident::test;

TEST_CASE("sample kernels in the thread-IR simulator agree with the interpreter") {
  for (const Case &c : cases()) {
    std::string name = std::string(c.file) + ": " + c.kernel;
    INFO(name);
    Diagnostics diags;
    std::optional<Module> m = compileSample(c, TRIDENT_SAMPLES_DIR, diags);
    INFO(diags.str());
    REQUIRE(m.has_value());
    std::vector<std::vector<uint8_t>> inputs = sampleInputs(c), ref = inputs, sim = inputs;
    REQUIRE(runInterpreter(*m, c, ref, diags));

    nvptx::PTXOptions options;
    options.kernel = c.kernel;
    std::optional<Module> threadIR = nvptx::lowerToThreadIR(*m, *nvptx::targetDesc("sm_90"), options, diags);
    INFO(diags.str());
    REQUIRE(threadIR.has_value());
    simt::test::ThreadSim simulator(32, nvptx::targetDesc("sm_90")->matrixAtoms);
    std::vector<uint64_t> args;
    for (size_t i = 0; i < c.params.size(); ++i) {
      const Param &p = c.params[i];
      if (p.kind == Param::Buffer) {
        simulator.addBuffer(sim[i].data(), sim[i].size());
        args.push_back(reinterpret_cast<uint64_t>(sim[i].data()));
      } else if (p.kind == Param::I32) {
        args.push_back(static_cast<uint32_t>(p.i));
      } else {
        args.push_back(std::bit_cast<uint32_t>(p.f));
      }
    }
    std::string error;
    bool ran = simulator.run(*threadIR, c.kernel, args, c.grid, error);
    INFO(error);
    REQUIRE(ran);
    for (size_t i = 0; i < c.params.size(); ++i) {
      const Param &p = c.params[i];
      if (p.kind != Param::Buffer)
        continue;
      size_t first = 0, bad = countDifferences(c, i, ref[i], sim[i], first);
      INFO("parameter " << i << ": " << bad << " of " << p.count << " elements differ; first at " << first
                        << ": interpreter " << (first < p.count ? elementAt(ref[i], p.elem, first) : 0)
                        << ", simulator " << (first < p.count ? elementAt(sim[i], p.elem, first) : 0));
      CHECK(bad == 0);
    }
  }
}
