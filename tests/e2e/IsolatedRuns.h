#pragma once
// Runs seeds in child processes, so that a device or compiler that crashes or hangs
// fails its seed instead of ending the whole run. Each child loads the plugins
// itself and runs seeds one after another until it is done or dies; the parent never
// touches a device (drivers such as CUDA must not be initialized before a fork) and
// starts a new child after the seed that killed the last one.

#include "Differential.h"

#include <functional>

namespace trident::e2e {

struct IsolatedRunOptions {
  GeneratorOptions generator;
  std::string device;         // only this device or plugin ("" = all)
  bool noDevices = false;     // only the reference (generation, verification, interpreter)
  std::vector<std::string> compileTargets; // also compile for these ("cuda:sm_90"), run nothing
  unsigned secondsPerSeed = 120; // a seed still running after this fails as "timed out"
};

struct IsolatedRunSummary {
  std::vector<std::string> devices; // the devices the children ran on
  std::vector<std::string> skipped; // "cuda: no device: <reason>"
  std::string fatal;                // a child could not start (no runtime): nothing ran
};

// In a child process: crash signals back to their default action, so that a crash
// ends the child (a test framework's handlers would otherwise report it as their own).
void restoreDefaultSignals();

// Runs seeds [first, first + count); calls `onSeed` for each, in order, in the parent.
IsolatedRunSummary runSeedsIsolated(uint64_t first, uint64_t count, const IsolatedRunOptions &options,
                                    const std::function<void(const SeedResult &)> &onSeed);

} // namespace trident::e2e
