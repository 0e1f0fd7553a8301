#pragma once
// The differential harness: generate the kernel of a seed, check that it verifies and
// round-trips through text, run it in the reference interpreter and on every device,
// and compare every buffer.
//
//   Runtime rt(e2eRuntimeOptions());
//   DeviceSelection devices = selectDevices(rt);   // host:0, cuda:0 ... and what is missing
//   SeedResult r = runSeed(42, {}, devices.pointers());
//   if (!r.passed()) std::cout << describe(r);

#include "DeviceRunner.h"

#include "trident/Runtime.h"

#include <functional>
#include <span>

namespace trident::e2e {

struct DeviceVerdict {
  std::string device;
  bool passed = false;
  // The device's compiler said it does not support an op of the kernel yet ("... is
  // not supported by the SPIR-V backend yet"): a missing feature, not a wrong result.
  bool unsupported = false;
  std::string message; // why it failed: the run's error or the mismatches
};

struct SeedResult {
  uint64_t seed = 0;
  std::string problem;     // a failure before any device ran: verifier, round trip, reference
  std::vector<DeviceVerdict> verdicts;
  std::string ir;          // the kernel, printed
  std::set<std::string> features;
  size_t outputs = 0, skippedOutputs = 0; // written buffers; those without a usable bound
  // Nothing failed; with `strict`, no device lacked support either.
  bool passed(bool strict = true) const;
};

// Hooks for a harness that must say where a crash happened: `stage` hears what is
// about to happen ("verifying the kernel", "device cuda:0"), `verdict` each device's
// verdict as soon as it is known.
struct SeedHooks {
  std::function<void(const std::string &stage)> stage;
  std::function<void(const DeviceVerdict &verdict)> verdict;
};
SeedResult runSeed(uint64_t seed, const GeneratorOptions &options, std::span<DeviceRunner *const> devices,
                   const SeedHooks &hooks = {});
// A failure report: the seed, each failing device and why, the kernel's arguments and IR.
std::string describe(const SeedResult &r, const RandomKernel *kernel = nullptr);
// The arguments of a kernel, one per line: name, type, size and how outputs compare.
std::string describeArgs(const RandomKernel &k);

// The runtime these tests use: the build tree's plugins, no disk cache.
RuntimeOptions e2eRuntimeOptions();

// The runtime's devices to test (all of them, or the one named `only`) and, for each
// known plugin without a device, why: "cuda: no device: <reason>". Each of
// `compileTargets` ("cuda:sm_90") adds a runner that only compiles.
struct DeviceSelection {
  std::vector<std::unique_ptr<DeviceRunner>> runners;
  std::vector<std::string> skipped;
  std::vector<DeviceRunner *> pointers() const;
};
DeviceSelection selectDevices(const Runtime &runtime, const std::string &only = "",
                              const std::vector<std::string> &compileTargets = {});

} // namespace trident::e2e
