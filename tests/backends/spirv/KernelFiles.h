#pragma once
// The hand-written thread-IR kernels of tests/backends/spirv/kernels.

#include "trident/ir/Parser.h"

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>

namespace trident::test {

// TRIDENT_SPIRV_KERNELS_DIR in the environment overrides the source-tree path built in
// (to run the test binary on another machine).
inline std::string readKernelFile(const std::string &name) {
  const char *dir = std::getenv("TRIDENT_SPIRV_KERNELS_DIR");
  std::ifstream in(std::string(dir && *dir ? dir : TRIDENT_SPIRV_KERNELS_DIR) + "/" + name);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Parses a kernel file; an empty optional (and a failed CHECK) when it does not parse.
inline std::optional<Module> parseKernelFile(const std::string &name, Diagnostics &diags) {
  return parseModule(readKernelFile(name), name, diags);
}

} // namespace trident::test
