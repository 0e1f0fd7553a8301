#pragma once
// Shared helpers of the runtime tests: runtimes with private cache folders,
// block-IR kernels written by hand, and running this test binary as a child
// process (see main.cpp for the child modes).

#include "trident/Trident.h"

#include <filesystem>
#include <string>
#include <vector>

namespace trident::test {

// A fresh, empty folder under the system temp folder, removed by the destructor.
class TempDir {
public:
  TempDir();
  ~TempDir();
  const std::string &path() const { return path_; }

private:
  std::string path_;
};

// Options for a runtime that loads only the build tree's plugins (plus `extraDirs`)
// and caches in `cacheDir` ("" = no disk cache).
RuntimeOptions testOptions(const std::string &cacheDir = "", std::vector<std::string> extraDirs = {});

// out[i] = x[i] + y[i] for i < n, 64 elements per program; the loads carry
// loc("add.py":LINE:COL) so errors can be checked for the source line.
std::string addKernelIR();
// out[i] = x[i] * s + y[i] (f32 scalar s) for i < n, 32 per program, 2-D grid:
// program (x, y) handles block x + y * num_programs(0).
std::string axpyKernelIR();

// Runs this test binary with `args` (a child mode) and extra environment
// variables; returns its exit code and fills `output` with its stdout.
int runChild(const std::vector<std::string> &args, const std::vector<std::string> &env, std::string &output);
// Starts several children at once and waits for all; returns their exit codes.
std::vector<int> runChildrenAtOnce(const std::vector<std::vector<std::string>> &argsPerChild,
                                   const std::vector<std::string> &env, std::vector<std::string> &outputs);

// Heap allocations made by this thread so far (operator new is counted in main.cpp).
long allocationCount();

// Parses "key=value" tokens of a child's output.
long childValue(const std::string &output, const std::string &key);

} // namespace trident::test
