// The sample kernels (samples/*.py) on cuda:0 against the reference interpreter:
// same block IR, same random inputs, every output buffer compared. Without a CUDA
// device the test says so loudly and checks only that the interpreter runs.
#include "CudaHarness.h"
#include "SampleCases.h"

#include "trident/frontend/Frontend.h"
#include "trident/interp/Interpreter.h"
#include "trident/ir/Printer.h"
#include "trident/ir/Verifier.h"

#include <doctest/doctest.h>

#include <bit>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <random>
#include <sstream>

using namespace trident;
using namespace trident::test;
namespace fs = std::filesystem;

TEST_CASE("sample kernels on cuda:0 agree with the interpreter") {
  CudaHarness h(TRIDENT_CUDA_PLUGIN);
  if (!h.hasDevice())
    std::cout << "SKIPPED: no CUDA device: " << h.noDeviceReason
              << " (only the interpreter's side of each comparison runs)\n";
  for (const Case &c : cases()) {
    std::string name = std::string(c.file) + ": " + c.kernel;
    INFO(name);
    Diagnostics diags;
    std::optional<Module> m = compileSample(c, envOr("TRIDENT_SAMPLES_DIR", TRIDENT_SAMPLES_DIR), diags);
    INFO(diags.str());
    REQUIRE(m.has_value());
    std::vector<std::vector<uint8_t>> inputs = sampleInputs(c), ref = inputs;
    bool ran = runInterpreter(*m, c, ref, diags);
    INFO(diags.str());
    REQUIRE(ran);
    if (!h.hasDevice())
      continue;

    std::string text = print(*m);
    auto loaded = h.load(h.compile(text, c.kernel, h.target), c.kernel);
    std::vector<trident_devptr> device(c.params.size(), 0);
    std::vector<trident_kernel_arg> args;
    for (size_t i = 0; i < c.params.size(); ++i) {
      const Param &p = c.params[i];
      if (p.kind == Param::Buffer) {
        device[i] = h.upload(inputs[i]);
        args.push_back(CudaHarness::ptr(device[i]));
      } else if (p.kind == Param::I32) {
        args.push_back(CudaHarness::i32(p.i));
      } else {
        args.push_back({TRIDENT_ARG_F32, 0, std::bit_cast<uint32_t>(p.f)});
      }
    }
    h.launch(loaded.kernel, c.grid, args);
    for (size_t i = 0; i < c.params.size(); ++i) {
      const Param &p = c.params[i];
      if (p.kind != Param::Buffer)
        continue;
      std::vector<uint8_t> got = h.download<uint8_t>(device[i], inputs[i].size());
      size_t first = 0, bad = countDifferences(c, i, ref[i], got, first);
      INFO("parameter " << i << ": " << bad << " of " << p.count << " elements differ; first at " << first
                        << ": interpreter " << (first < p.count ? elementAt(ref[i], p.elem, first) : 0)
                        << ", device " << (first < p.count ? elementAt(got, p.elem, first) : 0));
      CHECK(bad == 0);
    }
    std::cout << "cuda:0 matches the interpreter: " << c.kernel << "\n";
  }
}
